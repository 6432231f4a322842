package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/** {@code random}: a uniformly random allowed node; reads no load. Source: SPEC.md §3. */
public final class RandomPolicy implements SelectionPolicy {
    @Override
    public String name() {
        return "random";
    }

    @Override
    public int sampleSize(int allowedCount) {
        return 0;
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        return rng.nextInt(candidates.count());
    }
}

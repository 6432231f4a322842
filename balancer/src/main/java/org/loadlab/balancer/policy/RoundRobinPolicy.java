package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/**
 * {@code round-robin}: cycles over the allowed nodes, starting at a random offset per
 * balancer (so several balancers do not march in step); reads no load.
 * Source: SPEC.md §3.
 */
public final class RoundRobinPolicy implements SelectionPolicy {
    private int next = -1;

    @Override
    public String name() {
        return "round-robin";
    }

    @Override
    public int sampleSize(int allowedCount) {
        return 0;
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        int n = candidates.count();
        if (next < 0) {
            next = rng.nextInt(n);
        }
        int chosen = next % n;
        next = (chosen + 1) % n;
        return chosen;
    }
}

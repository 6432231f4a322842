package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/**
 * {@code least-connections}: the allowed node with the fewest requests in flight from
 * this balancer (its local count; no queries), ties at random. Source: SPEC.md §3.
 */
public final class LeastConnectionsPolicy implements SelectionPolicy {
    private final ArgBest best = new ArgBest();

    @Override
    public String name() {
        return "least-connections";
    }

    @Override
    public int sampleSize(int allowedCount) {
        return 0;
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        best.start(rng);
        for (int i = 0; i < candidates.count(); i++) {
            best.offer(i, candidates.inFlight(i));
        }
        return best.best();
    }
}

package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/**
 * {@code weighted-round-robin}: smooth weighted round robin as nginx does it: every
 * decision adds each node's static weight w_j to its current weight, picks the largest
 * current weight (ties at random) and subtracts the total weight from the winner. Over a
 * cycle each node gets a share w_j/Σw, interleaved rather than in bursts. Weights default
 * to the nodes' nominal μ_j. Reads no load. Source: SPEC.md §3; nginx upstream
 * "smooth weighted round-robin" (ngx_http_upstream_round_robin.c).
 */
public final class WeightedRoundRobinPolicy implements SelectionPolicy {
    private final double[] weightByNode;
    private double[] current;
    private final ArgBest best = new ArgBest();

    /**
     * @param weightByNode static weight per node index, ≥ 0 (at least one allowed node > 0)
     */
    public WeightedRoundRobinPolicy(double[] weightByNode) {
        this.weightByNode = weightByNode.clone();
    }

    @Override
    public String name() {
        return "weighted-round-robin";
    }

    @Override
    public int sampleSize(int allowedCount) {
        return 0;
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        int n = candidates.count();
        if (current == null || current.length != n) {
            current = new double[n];
        }
        double total = 0;
        best.start(rng);
        for (int i = 0; i < n; i++) {
            double w = weightByNode[candidates.node(i)];
            total += w;
            current[i] += w;
            best.offer(i, -current[i]);
        }
        int chosen = best.best();
        current[chosen] -= total;
        return chosen;
    }
}

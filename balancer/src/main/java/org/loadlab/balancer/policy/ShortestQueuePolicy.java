package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/**
 * Join-the-shortest-queue over a set of candidates: smallest q_j among the nodes read,
 * ties at random; unknown or failed nodes are skipped (reject if none is usable).
 * As {@code least-queue} (JSQ) it reads every allowed node; as {@code power-of-k}
 * ({@code p2c} is k = 2) it reads k distinct random nodes: JSQ(d) / power-of-d choices
 * (Mitzenmacher 2001; Azar, Broder, Karlin, Upfal 1994). Source: SPEC.md §3.
 */
public final class ShortestQueuePolicy implements SelectionPolicy {
    private final String name;
    private final int k;
    private final ArgBest best = new ArgBest();

    private ShortestQueuePolicy(String name, int k) {
        this.name = name;
        this.k = k;
    }

    /** {@code least-queue}: JSQ over all allowed nodes. */
    public static ShortestQueuePolicy leastQueue() {
        return leastQueue("least-queue");
    }

    /**
     * JSQ over all allowed nodes under another name (e.g. {@code gmsr-reference}, which the
     * ASMF seed's code makes identical to least-queue).
     *
     * @param name the name to report
     */
    public static ShortestQueuePolicy leastQueue(String name) {
        return new ShortestQueuePolicy(name, 0);
    }

    /**
     * {@code power-of-k}: JSQ over k distinct random samples.
     *
     * @param name the name to report ({@code p2c} or {@code power-of-k})
     * @param k samples per decision, ≥ 1
     * @throws IllegalArgumentException if k &lt; 1
     */
    public static ShortestQueuePolicy powerOfK(String name, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("power-of-k needs k >= 1, was " + k);
        }
        return new ShortestQueuePolicy(name, k);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int sampleSize(int allowedCount) {
        return k == 0 ? allowedCount : Math.min(k, allowedCount);
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        best.start(rng);
        for (int i = 0; i < candidates.count(); i++) {
            if (candidates.usable(i)) {
                best.offer(i, candidates.load(i).queueLength());
            }
        }
        return best.best() < 0 ? REJECT : best.best();
    }
}

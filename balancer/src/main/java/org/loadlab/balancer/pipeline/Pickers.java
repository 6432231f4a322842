package org.loadlab.balancer.pipeline;

import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.Candidates;

/**
 * The built-in pickers (SPEC.md §3): best score with ties broken uniformly at random
 * (optionally rejecting below a threshold), uniform random, round robin from a random
 * offset, and nginx's smooth weighted round robin. Each skips the candidates a guardrail
 * masked; the decision engine fails open before a picker would see none eligible. The
 * uniform draw, round robin and smooth weighted round robin honour the candidates' dynamic
 * weights (slow start): a drawn candidate is kept with probability equal to its weight,
 * round robin serves a candidate on a share of its turns equal to its weight, and smooth
 * weighted round robin multiplies its static weight by it. At full weight they draw exactly
 * as without weights.
 */
public final class Pickers {
    private Pickers() {
    }

    /**
     * The candidate with the best score (ties uniformly at random, never by index); with a
     * scorer that needs load, only usable candidates count, and none usable rejects.
     */
    public static Picker best() {
        return new Best(Double.NaN);
    }

    /**
     * As {@link #best()}, but rejects when the best score is below {@code threshold} (ASMF's τ).
     *
     * @param threshold lowest acceptable score, in the scorer's units (for a higher-is-better scorer)
     */
    public static Picker bestAtLeast(double threshold) {
        return new Best(threshold);
    }

    /** A uniformly random eligible candidate (drawn in proportion to the weights while some are below 1). */
    public static Picker uniform() {
        return new Uniform();
    }

    /** Most draws before a weighted draw accepts what it drew (weights are ≥ the slow-start minimum). */
    static final int MAX_WEIGHTED_TRIES = 64;

    /** Uniform draw, weighted by rejection. */
    private static final class Uniform implements Picker {
        @Override
        public int pick(Candidates c, Scorer scorer, RandomGenerator rng) {
            int chosen = -1;
            for (int tries = 0; tries < MAX_WEIGHTED_TRIES; tries++) {
                chosen = c.maskedCount() == 0 ? rng.nextInt(c.count())
                        : nthEligible(c, rng.nextInt(c.count() - c.maskedCount()));
                double w = c.weight(chosen);
                if (w >= 1 || rng.nextDouble() < w) {
                    break;
                }
            }
            return chosen;
        }

        @Override
        public boolean appliesWeights() {
            return true;
        }
    }

    /** Cycles over the candidates, starting at a random offset (so several balancers do not march in step). */
    public static Picker roundRobin() {
        return new RoundRobin();
    }

    /**
     * nginx's smooth weighted round robin: each decision adds each candidate's static weight
     * to its current weight, picks the largest current weight (ties at random) and subtracts
     * the total from the winner (ngx_http_upstream_round_robin.c).
     *
     * @param weightByNode static weight per node index, ≥ 0
     */
    public static Picker smoothWeighted(double[] weightByNode) {
        return new SmoothWeighted(weightByNode);
    }

    private static int nthEligible(Candidates c, int n) {
        for (int i = 0; i < c.count(); i++) {
            if (c.eligible(i) && n-- == 0) {
                return i;
            }
        }
        throw new IllegalStateException("fewer eligible candidates than counted");
    }

    /** Best score, random ties; optional rejection threshold. */
    private static final class Best implements Picker {
        private final double threshold;
        private final ArgBest best = new ArgBest();

        Best(double threshold) {
            this.threshold = threshold;
        }

        @Override
        public int pick(Candidates c, Scorer scorer, RandomGenerator rng) {
            boolean higher = scorer.higherIsBetter();
            boolean needsLoad = scorer.needsLoad();
            best.start(rng);
            for (int i = 0; i < c.count(); i++) {
                if (needsLoad ? c.usable(i) : c.eligible(i)) {
                    double v = scorer.value(c, i);
                    best.offer(i, higher ? -v : v);
                }
            }
            if (best.best() < 0) {
                return REJECT;
            }
            if (!Double.isNaN(threshold)) {
                double value = higher ? -best.bestValue() : best.bestValue();
                if (higher ? value < threshold : value > threshold) {
                    return REJECT;
                }
            }
            return best.best();
        }
    }

    /**
     * Round robin from a random offset. A candidate below full weight w collects w credit each
     * time its turn comes and is served when its credit reaches 1 (else its turn passes on).
     */
    private static final class RoundRobin implements Picker {
        private int next = -1;
        private double[] credit = new double[0];

        @Override
        public int pick(Candidates c, Scorer scorer, RandomGenerator rng) {
            int n = c.count();
            if (next < 0) {
                next = rng.nextInt(n);
            }
            int chosen = next % n;
            int fallback = -1;
            for (int tried = 0; tried < 2 * n; tried++) {
                if (c.eligible(chosen)) {
                    if (fallback < 0) {
                        fallback = chosen;
                    }
                    if (served(c, chosen)) {
                        break;
                    }
                }
                chosen = (chosen + 1) % n;
            }
            if (!c.eligible(chosen)) {
                chosen = fallback >= 0 ? fallback : chosen;
            }
            next = (chosen + 1) % n;
            return chosen;
        }

        /** True if candidate {@code i} takes this turn: always at full weight, else once its credit reaches 1. */
        private boolean served(Candidates c, int i) {
            double w = c.weight(i);
            if (w >= 1) {
                return true;
            }
            int node = c.node(i);
            if (node >= credit.length) {
                credit = java.util.Arrays.copyOf(credit, Math.max(node + 1, credit.length * 2));
            }
            credit[node] += w;
            if (credit[node] >= 1) {
                credit[node] -= 1;
                return true;
            }
            return false;
        }

        @Override
        public boolean appliesWeights() {
            return true;
        }
    }

    /** nginx smooth weighted round robin over the eligible candidates. */
    private static final class SmoothWeighted implements Picker {
        private final double[] weightByNode;
        private final ArgBest best = new ArgBest();
        private double[] current;

        SmoothWeighted(double[] weightByNode) {
            this.weightByNode = weightByNode.clone();
        }

        @Override
        public int pick(Candidates c, Scorer scorer, RandomGenerator rng) {
            int n = c.count();
            if (current == null || current.length != n) {
                current = new double[n];
            }
            boolean all = c.maskedCount() == 0 || c.maskedCount() == n;
            double total = 0;
            best.start(rng);
            for (int i = 0; i < n; i++) {
                if (all || c.eligible(i)) {
                    double w = weightByNode[c.node(i)] * c.weight(i);
                    total += w;
                    current[i] += w;
                    best.offer(i, -current[i]);
                }
            }
            int chosen = best.best();
            current[chosen] -= total;
            return chosen;
        }

        @Override
        public boolean appliesWeights() {
            return true;
        }
    }
}

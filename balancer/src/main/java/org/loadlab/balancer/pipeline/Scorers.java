package org.loadlab.balancer.pipeline;

import org.loadlab.balancer.decision.Candidates;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The built-in scorers (SPEC.md §3): queue length (JSQ, power-of-d), requests in flight
 * (least-connections) and marginal service rate μ/(1+q) (gmsr). Policy-specific scorers
 * (ASMF's) live with their policy.
 */
public final class Scorers {
    private Scorers() {
    }

    /** q_j, the node's queue length (waiting + in service) as read; lowest wins. */
    public static Scorer queueLength() {
        return new LoadScorer("queue length q_j, lowest wins", false) {
            @Override
            public double of(LoadSnapshot s) {
                return s.queueLength();
            }
        };
    }

    /** μ_j/(1+q_j), the marginal service rate (gmsr); highest wins. */
    public static Scorer marginalServiceRate() {
        return new LoadScorer("mu_j/(1+q_j), highest wins", true) {
            @Override
            public double of(LoadSnapshot s) {
                return s.serviceRate() / (1.0 + s.queueLength());
            }
        };
    }

    /** Requests this balancer has in flight at the node (its local count, no read); lowest wins. */
    public static Scorer inFlight() {
        return new Scorer() {
            @Override
            public double value(Candidates c, int position) {
                return c.inFlight(position);
            }

            @Override
            public boolean higherIsBetter() {
                return false;
            }

            @Override
            public boolean needsLoad() {
                return false;
            }

            @Override
            public double score(LoadSnapshot load, int inFlight) {
                return inFlight;
            }

            @Override
            public String rule() {
                return "requests in flight from this balancer, lowest wins";
            }
        };
    }

    /**
     * Error-aware scoring: {@code inner}'s value worsened by the node's recent failure share
     * e_j ({@link ErrorTracker}): for a lower-is-better score s + P·e_j (P in the score's own
     * units: a node failing everything looks P worse), for a higher-is-better score
     * s / (1 + P·e_j). A node whose failures come back fast (an empty queue, a short latency)
     * no longer looks like the best node.
     *
     * @param inner the policy's scorer
     * @param penalty P ≥ 0 ({@code policy.error-penalty})
     * @param decay τ of the failure share, seconds ({@code policy.error-decay})
     * @return the wrapped scorer (forwards outcomes to {@code inner} when it learns from them)
     * @throws IllegalArgumentException if the penalty is negative or the decay not positive
     */
    public static Scorer errorAware(Scorer inner, double penalty, double decay) {
        if (!(penalty >= 0)) {
            throw new IllegalArgumentException("policy.error-penalty = " + penalty + ": allowed >= 0");
        }
        return new ErrorAware(inner, penalty, new ErrorTracker(decay));
    }

    /** {@link #errorAware}. */
    private static final class ErrorAware implements Scorer, OutcomeListener {
        private final Scorer inner;
        private final double penalty;
        private final ErrorTracker errors;

        ErrorAware(Scorer inner, double penalty, ErrorTracker errors) {
            this.inner = inner;
            this.penalty = penalty;
            this.errors = errors;
        }

        @Override
        public double value(Candidates c, int position) {
            return adjust(inner.value(c, position), errors.rate(c.node(position)));
        }

        private double adjust(double v, double e) {
            if (e == 0) {
                return v;
            }
            return inner.higherIsBetter() ? v / (1 + penalty * e) : v + penalty * e;
        }

        @Override
        public boolean higherIsBetter() {
            return inner.higherIsBetter();
        }

        @Override
        public boolean needsLoad() {
            return inner.needsLoad();
        }

        @Override
        public double score(LoadSnapshot load, int inFlight) {
            double v = inner.score(load, inFlight);
            return load == null ? v : adjust(v, errors.rate(load.node()));
        }

        @Override
        public String rule() {
            return inner.rule() + (inner.higherIsBetter() ? ", divided by (1 + " : ", plus ") + penalty
                    + " x recent failure share" + (inner.higherIsBetter() ? ")" : "");
        }

        @Override
        public void onOutcome(int node, org.loadlab.node.protocol.ResponseStatus status, double latency, double now) {
            errors.record(node, status, now);
            if (inner instanceof OutcomeListener l) {
                l.onOutcome(node, status, latency, now);
            }
        }

        @Override
        public void onNodeBack(int node, double now) {
            errors.forget(node);
            if (inner instanceof OutcomeListener l) {
                l.onNodeBack(node, now);
            }
        }

        @Override
        public boolean measuresLatency() {
            return inner instanceof OutcomeListener l && l.measuresLatency();
        }
    }

    /** A scorer that is a function of the candidate's load snapshot alone. */
    public abstract static class LoadScorer implements Scorer {
        private final String rule;
        private final boolean higher;

        /**
         * @param rule the rule in words
         * @param higher true if a larger value is better
         */
        protected LoadScorer(String rule, boolean higher) {
            this.rule = rule;
            this.higher = higher;
        }

        /** The value of a node whose load {@code s} is known and up. */
        public abstract double of(LoadSnapshot s);

        @Override
        public double value(Candidates c, int position) {
            return of(c.load(position));
        }

        @Override
        public boolean higherIsBetter() {
            return higher;
        }

        @Override
        public boolean needsLoad() {
            return true;
        }

        @Override
        public double score(LoadSnapshot load, int inFlight) {
            return load == null || !load.available() ? Double.NaN : of(load);
        }

        @Override
        public String rule() {
            return rule;
        }
    }
}

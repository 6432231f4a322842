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

package org.loadlab.balancer.pipeline;

import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.policy.AsmfSettings;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The built-in scorers (SPEC.md §3): queue length (JSQ, power-of-d), requests in flight
 * (least-connections), marginal service rate μ/(1+q) (gmsr) and ASMF's corrected score.
 */
public final class Scorers {
    private Scorers() {
    }

    /** q_j, the node's queue length (waiting + in service) as read; lowest wins. */
    public static Scorer queueLength() {
        return new LoadScorer("queue length q_j, lowest wins", false) {
            @Override
            double of(LoadSnapshot s) {
                return s.queueLength();
            }
        };
    }

    /** μ_j/(1+q_j), the marginal service rate (gmsr); highest wins. */
    public static Scorer marginalServiceRate() {
        return new LoadScorer("mu_j/(1+q_j), highest wins", true) {
            @Override
            double of(LoadSnapshot s) {
                return s.serviceRate() / (1.0 + s.queueLength());
            }
        };
    }

    /**
     * ASMF's S'_j = μ_j/((1+q_j)(1+L_j))·C_j with L_j = α CPU + β MEM + γ IO + δ NET (seed 000);
     * the ablation switches drop C (no feedback) or L (no multi-resource). Highest wins.
     *
     * @param settings weights and switches
     */
    public static AsmfScore asmf(AsmfSettings settings) {
        return new AsmfScore(settings);
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

    /** A scorer that is a function of the candidate's load snapshot. */
    private abstract static class LoadScorer implements Scorer {
        private final String rule;
        private final boolean higher;

        LoadScorer(String rule, boolean higher) {
            this.rule = rule;
            this.higher = higher;
        }

        abstract double of(LoadSnapshot s);

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

    /** ASMF's corrected score S'_j (seed 000, SPEC.md §3). */
    public static final class AsmfScore extends LoadScorer {
        private final AsmfSettings settings;

        AsmfScore(AsmfSettings settings) {
            super("S' = mu/((1+q)(1+L))*C, highest wins; rejected below tau", true);
            this.settings = settings;
        }

        /** S'_j of one node under these settings. */
        @Override
        public double of(LoadSnapshot s) {
            double load = settings.useMultiResource()
                    ? settings.alpha() * s.cpu() + settings.beta() * s.mem() + settings.gamma() * s.io() + settings.delta() * s.net()
                    : 0.0;
            double base = s.serviceRate() / ((1.0 + s.queueLength()) * (1.0 + load));
            return settings.useFeedback() ? base * s.correction() : base;
        }
    }
}

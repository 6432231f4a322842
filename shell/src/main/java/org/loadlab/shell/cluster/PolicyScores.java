package org.loadlab.shell.cluster;

import org.loadlab.balancer.policy.AsmfPolicy;
import org.loadlab.balancer.policy.RoutingPolicy;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * What a policy ranks nodes by, for explanations only (GET /explain-routing): the score of
 * one node from a load snapshot and its in-flight count, and the rule in words. The policy
 * itself decides; this restates its rule (SPEC.md §3) so that a person can check a decision.
 */
public final class PolicyScores {
    /** Score of one node. */
    @FunctionalInterface
    public interface Scorer {
        /** @return the score, NaN when unknown or when the policy has none */
        double score(LoadSnapshot load, int inFlight);
    }

    private final Scorer scorer;
    private final String rule;

    private PolicyScores(Scorer scorer, String rule) {
        this.scorer = scorer;
        this.rule = rule;
    }

    /** The scores of {@code policy}. */
    public static PolicyScores of(RoutingPolicy policy) {
        RoutingPolicy p = policy instanceof GuardedPolicy g ? g.delegate() : policy;
        if (p instanceof AsmfPolicy a) {
            return new PolicyScores((s, f) -> s == null || !s.available() ? Double.NaN : a.score(s),
                    "S' = mu/((1+q)(1+L))*C, highest wins; rejected below tau");
        }
        return switch (p.name()) {
            case "least-queue", "p2c", "power-of-k", "gmsr-reference", "strict-po2c", "sticky-lazy" -> new PolicyScores(
                    (s, f) -> s == null || !s.available() ? Double.NaN : s.queueLength(), "queue length q_j, lowest wins");
            case "gmsr" -> new PolicyScores((s, f) -> s == null || !s.available() ? Double.NaN
                    : s.serviceRate() / (1.0 + s.queueLength()), "mu_j/(1+q_j), highest wins");
            case "least-connections" -> new PolicyScores((s, f) -> f, "requests in flight from this balancer, lowest wins");
            default -> new PolicyScores((s, f) -> Double.NaN, "load-blind (" + p.name() + "): no score");
        };
    }

    /** Score of a node, NaN if none. */
    public double score(LoadSnapshot load, int inFlight) {
        return scorer.score(load, inFlight);
    }

    /** The rule in words. */
    public String rule() {
        return rule;
    }
}

package org.loadlab.balancer.core;

import java.util.List;
import java.util.Locale;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * One decision of a balancer as it kept it for explanations (GET /explain-routing): the
 * candidates it read with their loads, scores and masks, the node chosen, and how it came
 * about. Plain data, the same in every mode.
 *
 * @param request request id
 * @param startedAt when the balancer started deciding (received the request), seconds
 * @param at decision time, seconds
 * @param policy the policy that decided
 * @param candidates the candidates read (at most {@value #KEPT_CANDIDATES}); empty for a policy that read none
 * @param chosen node routed to, or −1 if rejected
 * @param outcome {@code routed} or {@code rejected}
 * @param failOpen true if too few candidates survived the guardrails and the policy chose among all
 * @param redecisions new samples tried because every candidate was gone
 * @param queries nodes read (queries charged)
 *     <p>Source: seed 003 (explainability: per-decision reasons), DESIGN.md.
 */
public record DecisionRecord(long request, double startedAt, double at, String policy, List<Candidate> candidates, int chosen, String outcome,
                             boolean failOpen, int redecisions, int queries) {
    /** At most this many candidates are kept per decision. */
    public static final int KEPT_CANDIDATES = 16;

    /** Copies the list. */
    public DecisionRecord {
        candidates = List.copyOf(candidates);
    }

    /**
     * One candidate of a decision.
     *
     * @param node node index
     * @param load its load as read (null if unknown)
     * @param inFlight requests in flight there from this balancer, at decision time
     * @param score the policy's score (NaN when it has none)
     * @param mask why a guardrail or membership excluded it, or null
     */
    public record Candidate(int node, LoadSnapshot load, int inFlight, double score, String mask) {
    }

    /**
     * What a balancer knows of one node now.
     *
     * @param node node index
     * @param latest newest load seen (null if none)
     * @param ageSeconds age of that load, seconds (NaN if none)
     * @param score the policy's score of it (NaN when none)
     * @param mask why it is out of the pool (membership or guardrail), or null
     * @param inFlight requests in flight there from this balancer
     */
    public record NodeView(int node, LoadSnapshot latest, double ageSeconds, double score, String mask, int inFlight) {
    }

    /** The decision in one sentence. */
    public String reason() {
        StringBuilder masks = new StringBuilder();
        int masked = 0;
        for (Candidate c : candidates) {
            if (c.mask() != null) {
                masks.append(masked++ == 0 ? "" : "; ").append("node-").append(c.node()).append(": ").append(c.mask());
            }
        }
        String maskText = masked == 0 ? "" : " (masked " + masks + ")";
        String again = redecisions == 0 ? "" : ", after " + redecisions + " new sample(s) because every candidate was gone";
        if (chosen < 0) {
            boolean anyUsable = candidates.stream().anyMatch(c -> c.load() != null && c.load().available() && c.mask() == null);
            return (candidates.isEmpty() || anyUsable ? policy + " rejected the request (e.g. best score below its threshold)"
                    : "no usable candidate: no probe reply, or every candidate failed or is gone") + again + maskText;
        }
        if (failOpen) {
            return "fail-open: too few candidates survived the guardrails, " + policy + " chose node-" + chosen
                    + " among all" + again + maskText;
        }
        if (candidates.isEmpty()) {
            return policy + " routed to node-" + chosen + " (reads no load)" + again;
        }
        double score = Double.NaN;
        for (Candidate c : candidates) {
            if (c.node() == chosen) {
                score = c.score();
            }
        }
        String scoreText = Double.isNaN(score) ? "" : String.format(Locale.ROOT, " (score %.4g)", score);
        return policy + " chose node-" + chosen + scoreText + " among " + candidates.size() + " candidate(s)" + again + maskText;
    }
}

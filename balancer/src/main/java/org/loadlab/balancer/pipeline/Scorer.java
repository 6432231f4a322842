package org.loadlab.balancer.pipeline;

import org.loadlab.balancer.decision.Candidates;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The scoring stage of a policy pipeline: gives each candidate a value from its load view
 * (queue length, marginal service rate, ASMF's corrected score, requests in flight, ...).
 * The picker ranks by it.
 *
 * <p>Source: DESIGN.md ("filters → scorers → picker"), SPEC.md §3.
 */
public interface Scorer {
    /**
     * The value of candidate {@code position}; only called for candidates the picker may
     * choose (usable ones when {@link #needsLoad()}).
     */
    double value(Candidates candidates, int position);

    /** True if a larger value is better (ASMF, gmsr), false if a smaller one is (JSQ, least-connections). */
    boolean higherIsBetter();

    /** True if the value needs the candidate's load: candidates without a usable load are skipped. */
    boolean needsLoad();

    /**
     * The same value from a load snapshot and an in-flight count, for explanations.
     *
     * @param load what is known of the node (may be null)
     * @param inFlight requests in flight there from this balancer
     * @return the value, NaN when the load is needed and unknown or the node is down
     */
    double score(LoadSnapshot load, int inFlight);

    /** The rule in words, e.g. "queue length q_j, lowest wins". */
    String rule();
}

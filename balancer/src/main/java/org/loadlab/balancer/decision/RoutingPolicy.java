package org.loadlab.balancer.decision;

import org.loadlab.node.protocol.LoadSnapshot;

/**
 * A routing policy of one balancer: a sequence of {@link Step}s per request, run by the
 * balancer's decision engine. A single-round policy is a
 * {@link org.loadlab.balancer.pipeline.PipelinePolicy} (sampler → scorer → picker: read k
 * nodes, choose once); a multi-round one (Sticky-Lazy, strict Po2C) reads in several rounds
 * and may keep state across requests. One instance per balancer; called from one thread at a
 * time; pure (no clock, no global randomness: use {@link DecisionContext#random()}).
 *
 * <p>Source: SPEC.md §3; seed 001 (multi-round decisions).
 */
public interface RoutingPolicy {
    /** The policy's name as scenarios spell it (e.g. {@code p2c}, {@code sticky-lazy}). */
    String name();

    /**
     * Starts the decision for a newly arrived request (or one decided again).
     *
     * @param context the request, the balancer's pool, random stream and counters
     * @return the first step (never null)
     */
    Step start(DecisionContext context);

    /**
     * A routed request came back from {@code node}. Default: nothing.
     *
     * @param node index of the node that handled it
     * @param served false if the node refused it (queue full)
     */
    default void onResponse(int node, boolean served) {
    }

    /**
     * {@code node} left the pool (membership removed it, it became unreachable, or a
     * guardrail ejected it): forget any state that would route to it. Default: nothing.
     *
     * @param node the node index
     */
    default void onNodeGone(int node) {
    }

    /**
     * The policy's score of one node, for explanations (GET /explain-routing): the value its
     * rule ranks by, NaN when it has none or the load is unknown.
     *
     * @param load what is known of the node (may be null)
     * @param inFlight requests this balancer has in flight there
     */
    default double score(LoadSnapshot load, int inFlight) {
        return Double.NaN;
    }

    /** The policy's rule in words, for explanations. */
    default String rule() {
        return "load-blind (" + name() + "): no score";
    }
}

package org.loadlab.balancer.decision;

import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

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
     * An attempt at a request sent to {@code node} ended: its response arrived (also a late
     * one, after a retry gave up on it), or it timed out. Default: {@link #onResponse} with
     * whether it was served (a timeout counts as not served).
     *
     * @param node the node the attempt went to
     * @param status how it ended
     * @param latency seconds from routing to the end, or NaN when the balancer does not measure it
     * @param now the balancer's time, seconds
     */
    default void onOutcome(int node, ResponseStatus status, double latency, double now) {
        onResponse(node, status.served());
    }

    /**
     * True if the policy needs response latencies ({@link #onOutcome} with a measured
     * latency): the balancer then stamps every request with the time it routed it. Default false.
     */
    default boolean measuresLatency() {
        return false;
    }

    /**
     * {@code node} came (back) into the pool: it joined, became reachable again, or a
     * guardrail restored it. Default: nothing.
     *
     * @param node the node index
     * @param now the balancer's time, seconds
     */
    default void onNodeBack(int node, double now) {
    }

    /**
     * A reply to an asynchronous probe the policy sent through {@link DecisionContext#probe}
     * arrived. Default: nothing.
     *
     * @param load the node's state when it answered
     * @param now the balancer's time, seconds
     */
    default void onProbeReply(LoadSnapshot load, double now) {
    }

    /**
     * True if the policy applies the nodes' dynamic weights (slow start) itself, in its own
     * draws or weighted picker; false (the default) if the balancer should thin the nodes in
     * slow start out of whole-pool views (each takes part with probability equal to its weight).
     * Samples of k nodes are drawn by weight either way.
     */
    default boolean appliesWeights() {
        return false;
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

    /**
     * A control plane published new routing weights (seed 003's LinTS); the balancer hands
     * every publication it takes to its policies. Default: nothing.
     *
     * @param weights the publication
     */
    default void onWeights(org.loadlab.node.protocol.BalancerMessage.Weights weights) {
    }

    /** The policy's rule in words, for explanations. */
    default String rule() {
        return "load-blind (" + name() + "): no score";
    }
}

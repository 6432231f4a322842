package org.loadlab.balancer.core;

import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * Where a balancer logs its decisions for off-policy evaluation: each routed first attempt
 * with what the balancer knew of its pool (each node's requests in flight and newest load),
 * the chosen node and the propensity the policy gave it, and later how the request ended.
 * Called on the balancer's thread; an implementation buffers or writes.
 *
 * <p>Source: Dudík, Langford and Li, "Doubly Robust Policy Evaluation and Learning" (ICML 2011):
 * logged (context, action, propensity, reward) tuples.
 */
public interface DecisionLog {
    /**
     * A request was routed.
     *
     * @param request the request
     * @param decidedFrom when its decision started, seconds
     * @param now when it was routed, seconds
     * @param node the chosen node
     * @param propensity the probability the policy gave the chosen node (NaN if it did not say)
     * @param mode the decision's routing-mode counter name
     * @param pool the pool's nodes (positions 0..poolSize−1 are valid; do not keep the array)
     * @param poolSize nodes in the pool
     * @param inFlight requests in flight per node index (do not keep the array)
     * @param loads newest load per node index, or null when the balancer keeps none (do not keep the array)
     */
    void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity, String mode,
                int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads);

    /**
     * A request ended: served, failed with {@code status}, or lost with {@link ResponseStatus#RESET}
     * (its node was removed with it in flight and no retry took it). A request lost at a node
     * that failed (a {@code fail} event, a chaos crash) is news to no balancer: the shell ends
     * it here itself, with RESET at the time of the loss, from the node's
     * {@code org.loadlab.node.backend.LostRequests} (then possibly on the node's thread).
     *
     * @param requestId the request
     * @param status how it ended
     * @param now when, seconds
     */
    void finished(long requestId, ResponseStatus status, double now);

    /**
     * Node {@code node} was removed with requests of this balancer in flight there, and the
     * balancer does not track requests one by one (no retries configured): each of them is
     * lost, and ends now as if {@link #finished} had been called with
     * {@link ResponseStatus#RESET}. The balancer counts them but keeps no ids, so a log that
     * needs every end (the decision-log file: one row per routed request) ends its own open
     * requests routed to {@code node}. A balancer that tracks its
     * requests calls {@link #finished} for each instead. Default: nothing.
     *
     * @param node the removed node
     * @param now when it was removed, seconds
     */
    default void nodeRemoved(int node, double now) {
    }

    /**
     * A retry of a request (seed 003's failover) was routed to {@code node}. Default: nothing
     * (a decision log keeps the first attempt's decision).
     *
     * @param requestId the request
     * @param node the node the retry went to
     * @param now when, seconds
     */
    default void retried(long requestId, int node, double now) {
    }

    /**
     * A request was shed (HTTP 429) before any decision: by QoS shedding (seed 003) or by the
     * admission bound on decisions in flight ({@code balancers.max-decisions-in-flight}, issue
     * 13's graceful overload). Default: nothing.
     *
     * @param request the request
     * @param reason the counter it was counted under: {@link BalancerLogic#SHED} or
     *     {@link BalancerLogic#ADMISSION_SHED}
     * @param now when, seconds
     */
    default void shed(BalancerMessage.Arrival request, String reason, double now) {
    }
}

package org.loadlab.balancer.policy;

/**
 * A routing policy that decides in <em>rounds</em> and keeps state across requests: it may
 * route at once with no load information (e.g. Sticky-Lazy's blind phase), or read the load
 * of some nodes, look at the answers, and read more nodes before it routes or rejects.
 *
 * <p>The balancer calls {@link #start} when a request arrives. The returned {@link Step} is
 * either final ({@link Step.Route}, {@link Step.Reject}) or a {@link Step.Read} naming the
 * nodes to read and a {@link Step.Continuation} the balancer calls with their loads. How a
 * read is served depends on the scenario's information model (SPEC.md §2):
 * <ul>
 *   <li>probe: one {@code Probe} message per node, the continuation runs when every reply is
 *       in or the probe timeout fires (a node that did not answer has a null load);</li>
 *   <li>cached: the node's last {@code LoadReport} (null if it never reported);</li>
 *   <li>oracle: the node's exact state.</li>
 * </ul>
 * Each node read counts as one query of the request's decision (so probes per request =
 * queries per decision in the probe model; blind routes count 0). Several requests may be
 * between rounds at once (their probes overlap in time): per-request state lives in the
 * continuations, cross-request state (a cache) in the policy instance.
 *
 * <p>One instance per balancer; called from one thread at a time; pure (no clock, no global
 * randomness: use {@link DecisionContext#random()}).
 *
 * <p>Source: seed 001 (Sticky-Lazy: blind phase, first probe, Po2C fallback), SPEC.md §2–§3.
 */
public interface RoundPolicy extends RoutingPolicy {
    /**
     * Starts the decision for a newly arrived request.
     *
     * @param context the request, the balancer's allowed set, random stream and counters
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
}

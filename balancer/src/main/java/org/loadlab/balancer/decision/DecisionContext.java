package org.loadlab.balancer.decision;

import java.util.random.RandomGenerator;

/**
 * What a routing policy sees of its balancer while deciding one request: the request, the
 * pool of nodes it may route to now (the allowed set without the nodes membership took
 * away, and without the ones the guardrails eject unless the pool is in panic), uniform
 * sampling without replacement (or, on request, with replacement), the balancer's own
 * random stream, its in-flight counts and protocol counters (reported per run under
 * {@code counters}).
 *
 * <p>Source: SPEC.md §2 (sampling without replacement, ties at random), DESIGN.md
 * ("Policies as pipelines, guardrails in the core").
 */
public interface DecisionContext {
    /** Id of the request being decided. */
    long requestId();

    /** Current time, seconds (the balancer's clock). */
    double now();

    /** The balancer's random stream (sampling, tie breaking). */
    RandomGenerator random();

    /** Size of the balancer's allowed set, ≥ 1 (nodes that are gone included). */
    int allowedCount();

    /** Number of nodes in the pool now (≥ 0). */
    int poolSize();

    /**
     * A uniformly random node of the pool.
     *
     * @return a node index, or −1 if the pool is empty
     */
    int sampleAllowed();

    /**
     * A uniformly random node of the pool other than {@code node}.
     *
     * @param node a node index to avoid (need not be in the pool)
     * @return a node index, or −1 if no other node is in the pool
     */
    int sampleAllowedExcept(int node);

    /**
     * {@code k} distinct nodes of the pool drawn uniformly without replacement (a partial
     * Fisher–Yates shuffle of the balancer's sampling buffer), or the whole pool in its
     * listing order when {@code k} is at least its size.
     *
     * @param k number of nodes, ≥ 1
     * @return a new array, or the pool's own array (do not modify it) when it is the whole pool
     */
    int[] sample(int k);

    /**
     * {@code k} independent uniform draws from the pool (with replacement, as the supermarket
     * model's d i.i.d. choices), each node listed once in the order first drawn: between 1
     * and {@code k} distinct nodes. A node drawn twice is read once, since reading it again
     * says nothing new (and a probe model would ask it twice).
     *
     * @param k number of draws, ≥ 1
     * @return a new array of distinct nodes, empty if the pool is empty
     *     <p>Source: Vvedenskaya, Dobrushin, Karpelevich 1996; Mitzenmacher 2001 (i.i.d. choices).
     */
    default int[] sampleWithReplacement(int k) {
        int[] drawn = new int[k];
        int distinct = 0;
        for (int i = 0; i < k; i++) {
            int node = sampleAllowed();
            if (node < 0) {
                return new int[0];
            }
            boolean seen = false;
            for (int j = 0; j < distinct && !seen; j++) {
                seen = drawn[j] == node;
            }
            if (!seen) {
                drawn[distinct++] = node;
            }
        }
        return distinct == k ? drawn : java.util.Arrays.copyOf(drawn, distinct);
    }

    /**
     * The whole pool as candidates without loads (for policies that read none), with the
     * guardrails' masks of what the balancer already knows.
     */
    Candidates pool();

    /** Requests this balancer has sent to {@code node} and not yet seen answered. */
    int inFlight(int node);

    /** Which attempt at the request this decision is for: 0 for the first, 1 for the first retry, ... */
    int attempt();

    /**
     * True if this decision must avoid {@code node}: a retry goes to a node it has not tried
     * (the balancer masks such nodes in every read and re-decides a route to one).
     */
    boolean excluded(int node);

    /** The request's affinity key, or {@code BalancerMessage.Arrival.NO_KEY}. */
    long key();

    /**
     * {@code k} distinct pool nodes drawn without replacement in proportion to their weights,
     * as candidates without loads (for policies that rank by what the balancer itself knows:
     * requests in flight, measured latency); nodes this decision must avoid are masked.
     *
     * @param k nodes, ≥ 1 (the whole pool when k covers it)
     * @return the candidates (reused by the next call)
     */
    Candidates draw(int k);

    /** True if {@code node} is in the pool now and this decision need not avoid it. */
    boolean routable(int node);

    /** The node's dynamic weight now, in (0, 1] (below 1 while slow start ramps it up). */
    double weight(int node);

    /** True while some node of the pool has a dynamic weight below 1 (slow start). */
    boolean weightsUnequal();

    /**
     * Sends a {@code Probe} to each of {@code nodes} without waiting: the replies reach the
     * policy later through {@link RoutingPolicy#onProbeReply} (Prequal's asynchronous probes).
     * Each probe counts as a query of this decision.
     *
     * @param nodes allowed nodes
     */
    void probe(int[] nodes);

    /**
     * True when a null load means "not reported yet" rather than "did not answer": in the
     * cached information model a policy may then choose blindly among such nodes. False in
     * the probe model (a missing reply excludes the node) and the oracle model.
     */
    boolean unknownLoadRoutable();

    /**
     * Adds {@code delta} to the run counter {@code name} (e.g. {@code blind_routes}).
     *
     * @param name counter name, not blank
     * @param delta amount
     */
    void count(String name, long delta);

    /**
     * Names the routing mode of this decision when it is not the policy's own rule (e.g. seed
     * 003's {@code fallback_circuit_breaker_least_conn}); the balancer records it with the
     * decision. Default: nothing.
     *
     * @param mode the mode's name, a constant string
     */
    default void mode(String mode) {
    }

    /**
     * States the probability with which the policy chose the node it routes to (its
     * propensity), for off-policy evaluation of the decision log. Default: nothing.
     *
     * @param probability in (0, 1]
     */
    default void propensity(double probability) {
    }
}

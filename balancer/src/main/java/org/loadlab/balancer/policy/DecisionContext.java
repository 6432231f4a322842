package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/**
 * What a {@link RoundPolicy} sees of its balancer while deciding one request: the request,
 * the allowed set, uniform sampling without replacement, the balancer's own random stream,
 * its in-flight counts, and protocol counters (reported per run under {@code counters}).
 *
 * <p>Source: SPEC.md §2 (sampling without replacement, ties at random).
 */
public interface DecisionContext {
    /** Id of the request being decided. */
    long requestId();

    /** Current time, seconds (the balancer's clock). */
    double now();

    /** The balancer's random stream (sampling, tie breaking). */
    RandomGenerator random();

    /** Size of the balancer's allowed set, ≥ 1. */
    int allowedCount();

    /**
     * A uniformly random allowed node.
     *
     * @return a node index
     */
    int sampleAllowed();

    /**
     * A uniformly random allowed node other than {@code node}.
     *
     * @param node a node index to avoid (need not be allowed)
     * @return a node index, or -1 if no other allowed node exists
     */
    int sampleAllowedExcept(int node);

    /** Requests this balancer has sent to {@code node} and not yet seen answered. */
    int inFlight(int node);

    /**
     * True when a null load means "not reported yet" rather than "did not answer": in the
     * cached information model a policy may then choose blindly among such nodes, as the
     * single-round policies do before the first reports arrive. False in the probe model (a
     * missing reply excludes the node) and the oracle model.
     */
    boolean unknownLoadRoutable();

    /**
     * Adds {@code delta} to the run counter {@code name} (e.g. {@code blind_routes}).
     *
     * @param name counter name, not blank
     * @param delta amount
     */
    void count(String name, long delta);
}

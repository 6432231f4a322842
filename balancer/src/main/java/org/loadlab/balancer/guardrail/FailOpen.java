package org.loadlab.balancer.guardrail;

/**
 * What a decision does when the guardrails leave too few candidates (scenario key
 * {@code guardrails.fail-open}).
 *
 * <p>Source: Envoy (panic mode: balance over every host); seed 003 (all nodes masked:
 * least connections over the whole fleet, routing mode {@code fallback_all_masked_least_conn}).
 */
public enum FailOpen {
    /** Envoy's panic mode: the policy chooses among all candidates, masked ones included. */
    PANIC,
    /** Seed 003: the node with the fewest requests in flight among all reachable candidates. */
    LEAST_CONNECTIONS;

    /** The scenario spelling ({@code panic}, {@code least-connections}). */
    public String key() {
        return this == PANIC ? "panic" : "least-connections";
    }
}

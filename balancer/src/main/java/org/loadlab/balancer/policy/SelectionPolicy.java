package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;

/**
 * A node-selection rule: a pure function of (candidates, their load view, random stream,
 * the policy's own state). One instance per balancer; not thread-safe.
 *
 * <p>The balancer asks {@link #sampleSize} how many nodes' load to read, reads them
 * through the scenario's information model (probe, cached or oracle), then calls
 * {@link #choose}. A policy that reads no load ({@code sampleSize == 0}) is offered all
 * allowed nodes with null loads.
 *
 * <p>Source: SPEC.md §3.
 */
public interface SelectionPolicy extends RoutingPolicy {
    /** {@link #choose} result meaning: reject the request. */
    int REJECT = -1;

    /** The policy's name as scenarios spell it (e.g. {@code p2c}). */
    @Override
    String name();

    /**
     * Number of distinct allowed nodes whose load this policy reads per decision: 0 for
     * policies that need none, {@code allowedCount} for global ones, k for sampling ones
     * (k ≤ allowedCount is validated beforehand).
     *
     * @param allowedCount size of the balancer's allowed set, ≥ 1
     */
    int sampleSize(int allowedCount);

    /**
     * Chooses a candidate.
     *
     * @param candidates the candidates and what is known of them (≥ 1 candidate)
     * @param rng the balancer's random stream (tie breaking, random choice)
     * @return a position in {@code [0, candidates.count())}, or {@link #REJECT}
     */
    int choose(CandidateSet candidates, RandomGenerator rng);
}

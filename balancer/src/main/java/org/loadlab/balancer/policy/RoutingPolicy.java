package org.loadlab.balancer.policy;

/**
 * A routing policy of one balancer: either a single-round {@link SelectionPolicy} (read k
 * nodes' load, choose once) or a multi-round {@link RoundPolicy} (reads in several rounds
 * and keeps state across requests, e.g. Sticky-Lazy's cache). One instance per balancer;
 * not thread-safe. {@link PolicyCatalog#instantiate} builds either kind by name.
 *
 * <p>Source: SPEC.md §3.
 */
public interface RoutingPolicy {
    /** The policy's name as scenarios spell it (e.g. {@code p2c}, {@code sticky-lazy}). */
    String name();
}

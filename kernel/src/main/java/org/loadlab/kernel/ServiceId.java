package org.loadlab.kernel;

/**
 * Address of a control service (0-based): a participant that is neither a node, a balancer
 * nor a client, such as seed 003's control plane (which learns routing weights from the
 * balancers' outcomes and publishes them) or its autoscaler. In the simulation a service is
 * an entity with its own timers and random stream; messages to and from it cross the
 * network like any other; in the Pekko shells it is its own actor (on a cluster, a cluster
 * singleton).
 *
 * @param index service index, must be non-negative
 *     <p>Source: seed 003 (control plane separate from the routing path), DESIGN.md.
 */
public record ServiceId(int index) implements Address {
    /** Validates the index. @throws IllegalArgumentException if {@code index < 0} */
    public ServiceId {
        if (index < 0) {
            throw new IllegalArgumentException("service index must be >= 0, was " + index);
        }
    }

    @Override
    public String toString() {
        return "service-" + index;
    }
}

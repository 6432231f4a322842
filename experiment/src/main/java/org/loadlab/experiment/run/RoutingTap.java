package org.loadlab.experiment.run;

/**
 * A study's view of a simulated run as it happens: every routed request (node by node,
 * second by second) and every counter increment, for the time-resolved measures the run's
 * results do not keep (a joining node's share over time, retries per second).
 */
public interface RoutingTap {
    /**
     * A balancer sent a request (or a retry) to a node.
     *
     * @param now time, seconds
     * @param balancer the balancer's index
     * @param node the node's index
     */
    void routed(double now, int balancer, int node);

    /**
     * A counter moved (e.g. {@code retries}). Default: nothing.
     *
     * @param now time, seconds
     * @param name the counter
     * @param delta its increment
     */
    default void counted(double now, String name, long delta) {
    }
}

package org.loadlab.balancer.decision;

/**
 * A balancer's dynamic weight of each node, in (0, 1]: 1 for a node in full service, less
 * while slow start ramps a new or recovered node up. Weighted pickers multiply their static
 * weights by it; uniform draws accept a drawn node with this probability (so a node is drawn
 * in proportion to its weight).
 *
 * <p>Source: Envoy slow start (load balancing weight × max(min weight, (t/window)^(1/aggression))).
 */
@FunctionalInterface
public interface NodeWeights {
    /** Every node at full weight. */
    NodeWeights NONE = node -> 1.0;

    /**
     * @param node a node index
     * @return its weight now, in (0, 1]
     */
    double weight(int node);
}

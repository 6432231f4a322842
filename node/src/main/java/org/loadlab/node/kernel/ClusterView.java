package org.loadlab.node.kernel;

/**
 * Exact, current state of every backend node: the "oracle" information model of
 * SPEC.md §2, used for global baselines (a decision that reads m nodes counts m queries).
 */
public interface ClusterView {
    /** Number of backend nodes n. */
    int nodeCount();

    /**
     * Current load of node {@code index} as the node would report it in a probe reply.
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in [0, n)
     */
    LoadSnapshot load(int index);
}

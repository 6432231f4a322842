package org.loadlab.node.protocol;

/**
 * Exact, current state of every backend node: the "oracle" information model of
 * SPEC.md §2, used for global baselines (a decision that reads m nodes counts m queries).
 */
public interface ClusterView {
    /** Number of backend nodes n. */
    int nodeCount();

    /**
     * Load of node {@code index} at time {@code now} as the node would report it in a probe
     * reply (a live shell's view may return the node's latest published state instead).
     *
     * @param index node index
     * @param now the reader's current time, seconds
     * @throws IndexOutOfBoundsException if {@code index} is not in [0, n)
     */
    LoadSnapshot load(int index, double now);
}

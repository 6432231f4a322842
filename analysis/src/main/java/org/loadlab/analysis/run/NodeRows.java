package org.loadlab.analysis.run;

/**
 * The recorder's per-node state, one row of {@value #STRIDE} doubles (64 bytes, a cache
 * line's worth) per node: the queue tracker's q_j and window maximum, the server-time
 * integrator's busy servers, servers, clock, busy time and server time, and the node's
 * completions in the window. An observation of node j then touches one row, not three
 * arrays: at 10^5 nodes each array access is a cache miss. Integer values are held
 * exactly (below 2^53).
 */
final class NodeRows {
    /** Doubles per node. */
    static final int STRIDE = 8;
    /** q_j, requests. */
    static final int QUEUE = 0;
    /** Maximum q_j in the window, requests. */
    static final int QUEUE_MAX = 1;
    /** Busy servers. */
    static final int BUSY = 2;
    /** Servers. */
    static final int SERVERS = 3;
    /** Time of the node's last server report, seconds. */
    static final int CLOCK = 4;
    /** ∫ busy dt over the window, server·seconds. */
    static final int BUSY_TIME = 5;
    /** ∫ servers dt over the window, server·seconds. */
    static final int SERVER_TIME = 6;
    /** Completions in the window. */
    static final int COMPLETIONS = 7;

    /** The rows, node j at {@code [STRIDE * j, STRIDE * (j + 1))}. */
    final double[] values;
    /** Number of nodes n. */
    final int nodes;

    /** @param nodes number of nodes n, positive (checked by the caller) */
    NodeRows(int nodes) {
        this.nodes = nodes;
        this.values = new double[STRIDE * nodes];
    }
}

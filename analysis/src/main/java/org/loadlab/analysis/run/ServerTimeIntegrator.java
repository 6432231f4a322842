package org.loadlab.analysis.run;

/**
 * Busy server-time and available server-time per node over the measurement window
 * [warm-up, end], for utilisation ρ_j = ∫busy_j dt / ∫servers_j dt.
 *
 * <p>Both are step functions set by the engine; before a node's first report it counts as
 * 0 busy of 0 servers. O(1) and allocation-free per report.
 *
 * <p>The five values of a node sit next to each other in its {@link NodeRows} row (busy,
 * servers, clock, busy time, server time), beside the node's queue state: with 10^5 nodes a
 * report then costs one cache miss, not five.
 */
final class ServerTimeIntegrator {

    private final double warmup;
    private static final int STRIDE = NodeRows.STRIDE;
    private static final int BUSY = NodeRows.BUSY;
    private static final int SERVERS = NodeRows.SERVERS;
    private static final int CLOCK = NodeRows.CLOCK;
    private static final int BUSY_TIME = NodeRows.BUSY_TIME;
    private static final int SERVER_TIME = NodeRows.SERVER_TIME;
    private final double[] state;
    private final int nodes;

    /**
     * @param rows the per-node rows this integrator keeps its values in
     * @param warmupSeconds start of the window, seconds
     */
    ServerTimeIntegrator(NodeRows rows, double warmupSeconds) {
        this.warmup = warmupSeconds;
        this.nodes = rows.nodes;
        this.state = rows.values;
    }

    /**
     * Records node j's new state after integrating the old one up to {@code now}.
     *
     * @param now time, seconds, not before this node's previous report
     * @param node node index j
     * @param busyServers servers now busy, 0 ≤ busy ≤ servers (checked by the caller)
     * @param totalServers servers the node has now
     */
    void set(double now, int node, int busyServers, int totalServers) {
        advance(now, node);
        state[node * STRIDE + BUSY] = busyServers;
        state[node * STRIDE + SERVERS] = totalServers;
    }

    /**
     * Closes every node's integral at the end of the run.
     *
     * @param endTime end of the run, seconds
     */
    void close(double endTime) {
        for (int j = 0; j < nodes; j++) {
            advance(endTime, j);
        }
    }

    /**
     * @param node node index j
     * @return ρ_j = busy server-time / available server-time in the window; NaN when the node
     *     had no servers in the window (never reported, or reported 0 servers)
     */
    double utilisation(int node) {
        int b = node * STRIDE;
        return state[b + SERVER_TIME] > 0 ? state[b + BUSY_TIME] / state[b + SERVER_TIME] : Double.NaN;
    }

    private void advance(double now, int node) {
        int b = node * STRIDE;
        if (now > warmup) {
            double dt = now - Math.max(state[b + CLOCK], warmup);
            state[b + BUSY_TIME] += state[b + BUSY] * dt;
            state[b + SERVER_TIME] += state[b + SERVERS] * dt;
        }
        state[b + CLOCK] = now;
    }
}

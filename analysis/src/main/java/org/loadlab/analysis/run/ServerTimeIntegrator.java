package org.loadlab.analysis.run;

/**
 * Busy server-time and available server-time per node over the measurement window
 * [warm-up, end], for utilisation ρ_j = ∫busy_j dt / ∫servers_j dt.
 *
 * <p>Both are step functions set by the engine; before a node's first report it counts as
 * 0 busy of 0 servers. O(1) and allocation-free per report.
 */
final class ServerTimeIntegrator {

    private final double warmup;
    private final int[] busy;
    private final int[] servers;
    private final double[] clock;
    private final double[] busyTime;
    private final double[] serverTime;

    /**
     * @param nodes number of nodes n
     * @param warmupSeconds start of the window, seconds
     */
    ServerTimeIntegrator(int nodes, double warmupSeconds) {
        this.warmup = warmupSeconds;
        this.busy = new int[nodes];
        this.servers = new int[nodes];
        this.clock = new double[nodes];
        this.busyTime = new double[nodes];
        this.serverTime = new double[nodes];
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
        busy[node] = busyServers;
        servers[node] = totalServers;
    }

    /**
     * Closes every node's integral at the end of the run.
     *
     * @param endTime end of the run, seconds
     */
    void close(double endTime) {
        for (int j = 0; j < busy.length; j++) {
            advance(endTime, j);
        }
    }

    /**
     * @param node node index j
     * @return ρ_j = busy server-time / available server-time in the window; NaN when the node
     *     had no servers in the window (never reported, or reported 0 servers)
     */
    double utilisation(int node) {
        return serverTime[node] > 0 ? busyTime[node] / serverTime[node] : Double.NaN;
    }

    private void advance(double now, int node) {
        if (now > warmup) {
            double dt = now - Math.max(clock[node], warmup);
            busyTime[node] += busy[node] * dt;
            serverTime[node] += servers[node] * dt;
        }
        clock[node] = now;
    }
}

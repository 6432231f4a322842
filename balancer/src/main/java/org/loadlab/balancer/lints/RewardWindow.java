package org.loadlab.balancer.lints;

import java.util.Arrays;

/**
 * The outcomes of one control-plane window, per node, and each node's recent estimates of
 * its p99 latency, error rate and SLA-breach rate. At the end of a window ({@link #flush}) a
 * node with at least one outcome gets p99 = element ⌊0.99·n⌋ of its sorted latencies, error
 * rate = failed / n and breach rate = (latency &gt; SLA) / n, and these become its recent
 * estimates; a node without outcomes keeps its estimates × 0.8 (they fade while it is idle).
 *
 * <p>Source: seed 003 ({@code shared_state.py}: record_request_outcome,
 * flush_window_feedback), SPEC.md §6.
 */
public final class RewardWindow {
    /** Factor applied to an idle node's recent estimates at each window. */
    public static final double IDLE_DECAY = 0.8;

    private final double slaMs;
    private double[][] latencies;
    private int[] count;
    private int[] errors;
    private int[] breaches;
    private double[] recentP99;
    private double[] recentErrorRate;
    private double[] recentBreachRate;

    /**
     * @param nodes nodes known at the start (grows on demand)
     * @param slaMs the SLA latency, ms: a latency above it is a breach
     */
    public RewardWindow(int nodes, double slaMs) {
        this.slaMs = slaMs;
        this.latencies = new double[nodes][4];
        this.count = new int[nodes];
        this.errors = new int[nodes];
        this.breaches = new int[nodes];
        this.recentP99 = new double[nodes];
        this.recentErrorRate = new double[nodes];
        this.recentBreachRate = new double[nodes];
    }

    /**
     * One outcome of a request at {@code node}.
     *
     * @param node node index ≥ 0
     * @param latencyMs its latency, ms
     * @param failed true unless the node served it (HTTP 200)
     */
    public void record(int node, double latencyMs, boolean failed) {
        grow(node + 1);
        if (count[node] == latencies[node].length) {
            latencies[node] = Arrays.copyOf(latencies[node], count[node] * 2);
        }
        latencies[node][count[node]++] = latencyMs;
        if (failed) {
            errors[node]++;
        }
        if (latencyMs > slaMs) {
            breaches[node]++;
        }
    }

    /** What one node's window gave. */
    public record NodeFeedback(int node, int requests, double p99Ms, double errorRate, double slaBreachRate) {
    }

    /**
     * Ends the window: feedback for every node (requests 0 for idle ones), recent estimates
     * updated (idle ones decayed), counts reset.
     *
     * @return one entry per node index, in order
     */
    public NodeFeedback[] flush() {
        NodeFeedback[] out = new NodeFeedback[count.length];
        for (int j = 0; j < count.length; j++) {
            int n = count[j];
            if (n > 0) {
                double[] sorted = Arrays.copyOf(latencies[j], n);
                Arrays.sort(sorted);
                double p99 = sorted[Math.min((int) Math.floor(0.99 * n), n - 1)];
                recentP99[j] = p99;
                recentErrorRate[j] = (double) errors[j] / n;
                recentBreachRate[j] = (double) breaches[j] / n;
                out[j] = new NodeFeedback(j, n, p99, recentErrorRate[j], recentBreachRate[j]);
            } else {
                recentP99[j] *= IDLE_DECAY;
                recentErrorRate[j] *= IDLE_DECAY;
                recentBreachRate[j] *= IDLE_DECAY;
                out[j] = new NodeFeedback(j, 0, 0, 0, 0);
            }
            count[j] = 0;
            errors[j] = 0;
            breaches[j] = 0;
        }
        return out;
    }

    /** The node's recent p99 estimate, ms (0 before any outcome). */
    public double recentP99(int node) {
        return node < recentP99.length ? recentP99[node] : 0;
    }

    /** The node's recent error-rate estimate. */
    public double recentErrorRate(int node) {
        return node < recentErrorRate.length ? recentErrorRate[node] : 0;
    }

    /** The node's recent SLA-breach-rate estimate. */
    public double recentBreachRate(int node) {
        return node < recentBreachRate.length ? recentBreachRate[node] : 0;
    }

    /** Outcomes of the open window at {@code node}. */
    public int pending(int node) {
        return node < count.length ? count[node] : 0;
    }

    /** Grows the per-node arrays to at least {@code nodes}. */
    public void grow(int nodes) {
        if (nodes <= count.length) {
            return;
        }
        int old = count.length;
        latencies = Arrays.copyOf(latencies, nodes);
        for (int j = old; j < nodes; j++) {
            latencies[j] = new double[4];
        }
        count = Arrays.copyOf(count, nodes);
        errors = Arrays.copyOf(errors, nodes);
        breaches = Arrays.copyOf(breaches, nodes);
        recentP99 = Arrays.copyOf(recentP99, nodes);
        recentErrorRate = Arrays.copyOf(recentErrorRate, nodes);
        recentBreachRate = Arrays.copyOf(recentBreachRate, nodes);
    }

    /** Nodes tracked. */
    public int nodes() {
        return count.length;
    }
}

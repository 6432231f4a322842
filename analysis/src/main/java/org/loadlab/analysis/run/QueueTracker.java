package org.loadlab.analysis.run;

/**
 * Queue lengths q_j of all nodes as a step function of time: integrates the backlog area
 * ∫Σ_j q_j dt over the measurement window [warm-up, end], tracks the per-node maximum and the
 * maximum of the cluster total within that window, and feeds the time-series buckets (which
 * cover the whole run).
 *
 * <p>O(1) and allocation-free per change, except an O(n) scan for the current maximum when
 * a series bucket boundary or the warm-up boundary is crossed (once per interval, not per call).
 */
final class QueueTracker {

    private final double[] rows;
    private final int nodes;
    private final double warmup;
    private final TimeSeriesBuckets series;
    private long total;
    private long clusterMax;
    private double windowArea;
    private double clock;
    private boolean measuring;

    /**
     * @param rows the per-node rows (q_j and its window maximum live there, beside the node's
     *     other recorder state: one cache line per observation at 10^5 nodes)
     * @param warmupSeconds start of the measurement window, seconds
     * @param series buckets to feed with area, max queue per interval
     */
    QueueTracker(NodeRows rows, double warmupSeconds, TimeSeriesBuckets series) {
        this.rows = rows.values;
        this.nodes = rows.nodes;
        this.warmup = warmupSeconds;
        this.series = series;
    }

    /**
     * Integrates the step function up to {@code now}.
     *
     * @param now time, seconds, not before the previous call (checked by the caller)
     */
    void advance(double now) {
        if (now > warmup) {
            if (!measuring) {
                // entering the window: the values in effect at the warm-up boundary count as seen
                measuring = true;
                for (int b = 0; b < rows.length; b += NodeRows.STRIDE) {
                    rows[b + NodeRows.QUEUE_MAX] = Math.max(rows[b + NodeRows.QUEUE_MAX], rows[b + NodeRows.QUEUE]);
                }
                clusterMax = Math.max(clusterMax, total);
            }
            windowArea += total * (now - Math.max(clock, warmup));
        }
        if (series.crossesBoundary(now)) {
            series.advance(now, total, currentMax());
        } else {
            series.advance(now, total, 0);
        }
        clock = now;
    }

    /**
     * Sets q_j after a change at the time of the last {@link #advance}.
     *
     * @param node node index j in [0, n)
     * @param q new queue length, requests, non-negative (checked by the caller)
     * @param now time of the change, seconds (already passed to {@link #advance})
     */
    void set(int node, int q, double now) {
        int b = NodeRows.STRIDE * node;
        total += q - (int) rows[b + NodeRows.QUEUE];
        rows[b + NodeRows.QUEUE] = q;
        series.observeQueue(q);
        if (now >= warmup) {
            if (q > rows[b + NodeRows.QUEUE_MAX]) {
                rows[b + NodeRows.QUEUE_MAX] = q;
            }
            if (total > clusterMax) {
                clusterMax = total;
            }
        }
    }

    /** @return backlog area ∫Σ_j q_j dt over the window so far, request·seconds */
    double windowArea() {
        return windowArea;
    }

    /** @return max over nodes of the per-node maximum q_j in the window, requests */
    int maxQueue() {
        int max = 0;
        for (int j = 0; j < nodes; j++) {
            max = Math.max(max, nodeMax(j));
        }
        return max;
    }

    /** @return max of Σ_j q_j in the window, requests */
    long clusterMax() {
        return clusterMax;
    }

    /**
     * @param node node index j
     * @return maximum q_j of that node in the window, requests
     */
    int nodeMax(int node) {
        return (int) rows[NodeRows.STRIDE * node + NodeRows.QUEUE_MAX];
    }

    private int currentMax() {
        double max = 0;
        for (int b = 0; b < rows.length; b += NodeRows.STRIDE) {
            max = Math.max(max, rows[b + NodeRows.QUEUE]);
        }
        return (int) max;
    }
}

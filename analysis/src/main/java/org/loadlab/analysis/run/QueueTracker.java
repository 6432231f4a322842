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

    private final int[] queueAndMax;
    private final double warmup;
    private final TimeSeriesBuckets series;
    private long total;
    private long clusterMax;
    private double windowArea;
    private double clock;
    private boolean measuring;

    /**
     * @param nodes number of nodes n (positive, checked by the caller)
     * @param warmupSeconds start of the measurement window, seconds
     * @param series buckets to feed with area, max queue per interval
     */
    QueueTracker(int nodes, double warmupSeconds, TimeSeriesBuckets series) {
        // q_j and its window maximum side by side: one cache line per update at 10^5 nodes.
        this.queueAndMax = new int[2 * nodes];
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
                for (int j = 0; j < queueAndMax.length; j += 2) {
                    queueAndMax[j + 1] = Math.max(queueAndMax[j + 1], queueAndMax[j]);
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
        total += q - queueAndMax[2 * node];
        queueAndMax[2 * node] = q;
        series.observeQueue(q);
        if (now >= warmup) {
            if (q > queueAndMax[2 * node + 1]) {
                queueAndMax[2 * node + 1] = q;
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
        for (int j = 1; j < queueAndMax.length; j += 2) {
            max = Math.max(max, queueAndMax[j]);
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
        return queueAndMax[2 * node + 1];
    }

    private int currentMax() {
        int max = 0;
        for (int j = 0; j < queueAndMax.length; j += 2) {
            max = Math.max(max, queueAndMax[j]);
        }
        return max;
    }
}

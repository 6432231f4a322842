package org.loadlab.analysis.run;

import java.util.Arrays;

/**
 * The herding metric: over the complete 1 s windows [w, w + 1) of the measurement window
 * that end by the last arrival, the largest share of that window's routed requests that one
 * node received. A balancer that spreads requests evenly over n nodes scores about 1/n (plus
 * Poisson noise when a window holds few requests); one that herds every balancer onto the
 * same node scores close to 1.
 *
 * <p>Cost: O(1) per routed request (a counter, a running maximum and a list of the nodes
 * touched in the window, so closing a window costs what it held, not n); one double per
 * simulated second.
 *
 * <p>Source: issue 14 (the herding study's metric); Mitzenmacher, "How useful is old
 * information?" (IEEE TPDS 2000) for herding on a stale shared view.
 */
final class PeakNodeShare {
    /** Window length, seconds. */
    static final double WINDOW_SECONDS = 1.0;

    private final int[] counts;
    private int[] touched = new int[16];
    private int touchedCount;
    private long window = Long.MIN_VALUE;
    private int total;
    private int max;
    private double[] shares = new double[64];
    private long firstWindow = Long.MIN_VALUE;

    PeakNodeShare(int nodes) {
        this.counts = new int[nodes];
        Arrays.fill(shares, Double.NaN);
    }

    /** A request was routed to {@code node} at {@code now} (non-decreasing). */
    void routed(double now, int node) {
        long w = (long) Math.floor(now / WINDOW_SECONDS);
        if (w != window) {
            close();
            window = w;
            if (firstWindow == Long.MIN_VALUE) {
                firstWindow = w;
            }
        }
        int c = ++counts[node];
        if (c == 1) {
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touched.length * 2);
            }
            touched[touchedCount++] = node;
        }
        total++;
        if (c > max) {
            max = c;
        }
    }

    /** Records the current window's share and clears its counts. */
    private void close() {
        if (total == 0) {
            return;
        }
        int slot = (int) (window - firstWindow);
        if (slot >= shares.length) {
            int length = shares.length;
            while (length <= slot) {
                length *= 2;
            }
            int old = shares.length;
            shares = Arrays.copyOf(shares, length);
            Arrays.fill(shares, old, length, Double.NaN);
        }
        shares[slot] = (double) max / total;
        for (int i = 0; i < touchedCount; i++) {
            counts[touched[i]] = 0;
        }
        touchedCount = 0;
        total = 0;
        max = 0;
    }

    /**
     * The metric over the windows that start at or after {@code from} and end at or before
     * {@code until} (the window still open is complete only if it ends by then).
     *
     * @param from start of the measurement window, seconds (the warm-up)
     * @param until the last arrival, seconds
     * @return the largest share, in (0, 1]; NaN when no complete window had a routed request
     */
    double peak(double from, double until) {
        close();
        if (firstWindow == Long.MIN_VALUE) {
            return Double.NaN;
        }
        double best = Double.NaN;
        for (int slot = 0; slot < shares.length; slot++) {
            double share = shares[slot];
            if (Double.isNaN(share)) {
                continue;
            }
            double start = (firstWindow + slot) * WINDOW_SECONDS;
            if (start >= from && start + WINDOW_SECONDS <= until && !(share <= best)) {
                best = share;
            }
        }
        return best;
    }
}

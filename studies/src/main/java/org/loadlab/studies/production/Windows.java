package org.loadlab.studies.production;

/**
 * Shares of a group of nodes over sliding windows of {@link #WIDTH} seconds: long enough that
 * a second's Poisson noise (a few requests) is not read as a trend, short enough to see a ramp.
 */
final class Windows {
    /** Window length, seconds. */
    static final int WIDTH = 5;

    private Windows() {
    }

    /** The group's share per node in [s, s + WIDTH). */
    static double share(SecondCounts t, int[] group, int s) {
        long all = t.routedBetween(s, s + WIDTH);
        return all == 0 ? 0 : (double) t.routed(s, s + WIDTH, group) / all / group.length;
    }

    /** Seconds from {@code from} to the end of the first window in [from, to) whose share per node reaches 90 % of fair; NaN if none. */
    static double timeToFair(SecondCounts t, int[] group, int from, int to, double fair) {
        for (int s = from; s + WIDTH <= to; s++) {
            if (share(t, group, s) >= 0.9 * fair) {
                return s + WIDTH - from;
            }
        }
        return Double.NaN;
    }

    /** The largest window share per node of the group in [from, to). */
    static double peak(SecondCounts t, int[] group, int from, int to) {
        double peak = 0;
        for (int s = from; s + WIDTH <= to; s++) {
            peak = Math.max(peak, share(t, group, s));
        }
        return peak;
    }

    /** The mean of {@code perSecond} over the {@link #WIDTH} seconds ending with second {@code s} (fewer at the start). */
    static double trailing(double[] perSecond, int s) {
        int from = Math.max(0, s - WIDTH + 1);
        double sum = 0;
        for (int i = from; i <= s; i++) {
            sum += perSecond[i];
        }
        return sum / (s - from + 1);
    }
}

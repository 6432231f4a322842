package org.loadlab.kernel.sim;

/**
 * The latest delivery time per (sender, receiver) pair, which keeps delivery FIFO per pair
 * when latencies are jittered: a primitive open-addressing map from the pair's packed
 * slots to a time, so a message costs no boxing (a {@code HashMap<Long, Double>} allocates
 * three objects per put). Grows when half full.
 */
final class PairClock {
    private static final long FREE = -1L; // pairs are packed non-negative slots

    private long[] pairs = new long[64];
    private double[] times = new double[64];
    private int size;

    PairClock() {
        java.util.Arrays.fill(pairs, FREE);
    }

    /**
     * Returns the delivery time of a message from {@code from} to {@code to} that would
     * arrive at {@code at}: {@code at}, or the pair's last delivery time if that is later,
     * and records it as the pair's last.
     *
     * @param from sender slot, ≥ 0
     * @param to receiver slot, ≥ 0
     * @param at the message's own arrival time, seconds
     */
    double deliverAt(int from, int to, double at) {
        long pair = ((long) from << 32) | to;
        int mask = pairs.length - 1;
        int i = index(pair, mask);
        while (pairs[i] != FREE) {
            if (pairs[i] == pair) {
                if (times[i] > at) {
                    at = times[i];
                }
                times[i] = at;
                return at;
            }
            i = (i + 1) & mask;
        }
        pairs[i] = pair;
        times[i] = at;
        if (++size * 2 > pairs.length) {
            grow();
        }
        return at;
    }

    private void grow() {
        long[] oldPairs = pairs;
        double[] oldTimes = times;
        pairs = new long[oldPairs.length * 2];
        times = new double[oldPairs.length * 2];
        java.util.Arrays.fill(pairs, FREE);
        int mask = pairs.length - 1;
        for (int j = 0; j < oldPairs.length; j++) {
            if (oldPairs[j] != FREE) {
                int i = index(oldPairs[j], mask);
                while (pairs[i] != FREE) {
                    i = (i + 1) & mask;
                }
                pairs[i] = oldPairs[j];
                times[i] = oldTimes[j];
            }
        }
    }

    private static int index(long pair, int mask) {
        long h = pair * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32) & mask;
    }
}

package org.loadlab.analysis.run;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fixed-width time buckets {@code (kΔ, (k+1)Δ]} (bucket 0 also holds time 0) accumulating the
 * backlog area ∫Σq_j dt, the largest q_j seen and the completions of each interval.
 *
 * <p>Memory grows with simulated time only (one double, one int and one long per interval,
 * in arrays that double when full), never with the number of requests.
 */
final class TimeSeriesBuckets {

    private static final int INITIAL_CAPACITY = 64;

    private final double interval;
    private double[] area = new double[INITIAL_CAPACITY];
    private int[] maxQueue = new int[INITIAL_CAPACITY];
    private long[] completions = new long[INITIAL_CAPACITY];
    private int current;
    private double currentEnd;
    private double clock;

    /**
     * @param intervalSeconds bucket width Δ, seconds, positive and finite (checked by the caller)
     */
    TimeSeriesBuckets(double intervalSeconds) {
        this.interval = intervalSeconds;
        this.currentEnd = intervalSeconds;
    }

    /**
     * Whether advancing to {@code now} leaves the current bucket (the caller then computes the
     * current max q_j for {@link #advance}).
     *
     * @param now time, seconds
     * @return true if {@code now} lies after the current bucket's end
     */
    boolean crossesBoundary(double now) {
        return now > currentEnd;
    }

    /**
     * Integrates the cluster backlog from the last call up to {@code now}, opening new buckets
     * (including empty intervals) as needed.
     *
     * @param now time, seconds, not before the previous call
     * @param totalQueue Σ_j q_j in effect since the previous call, requests
     * @param currentMaxQueue max_j q_j in effect since the previous call (only used when a new
     *     bucket opens: it is the first value that bucket has seen)
     */
    void advance(double now, long totalQueue, int currentMaxQueue) {
        while (now > currentEnd) {
            area[current] += totalQueue * (currentEnd - clock);
            clock = currentEnd;
            current++;
            ensureCapacity(current + 1);
            currentEnd = (current + 1) * interval;
            maxQueue[current] = currentMaxQueue;
        }
        area[current] += totalQueue * (now - clock);
        clock = now;
    }

    /**
     * Notes a queue length seen in the current bucket.
     *
     * @param q a node's queue length after a change, requests
     */
    void observeQueue(int q) {
        if (q > maxQueue[current]) {
            maxQueue[current] = q;
        }
    }

    /** Counts one completion in the current bucket. */
    void countCompletion() {
        completions[current]++;
    }

    /**
     * The finished series. Call after {@link #advance} to the end time.
     *
     * @param endTime end of the run, seconds (the last bucket ends there)
     * @param nodes number of nodes n, for the mean per node
     * @return one point per bucket up to {@code endTime}
     */
    List<SeriesPoint> points(double endTime, int nodes) {
        List<SeriesPoint> points = new ArrayList<>(current + 1);
        for (int k = 0; k <= current; k++) {
            double start = k * interval;
            double end = k == current ? endTime : (k + 1) * interval;
            double length = end - start;
            if (length <= 0) {
                continue; // only possible for a zero-length run
            }
            points.add(new SeriesPoint(end, area[k] / (nodes * length), maxQueue[k], completions[k] / length));
        }
        return points;
    }

    /** @return number of buckets opened so far (current bucket included) */
    int size() {
        return current + 1;
    }

    /** @return allocated bucket capacity (for memory tests) */
    int capacity() {
        return area.length;
    }

    private void ensureCapacity(int needed) {
        if (needed > area.length) {
            int capacity = Math.max(needed, area.length * 2);
            area = Arrays.copyOf(area, capacity);
            maxQueue = Arrays.copyOf(maxQueue, capacity);
            completions = Arrays.copyOf(completions, capacity);
        }
    }
}

package org.loadlab.shell.cluster;

import org.loadlab.shell.actor.TimerLag;

/**
 * The gateway's sum of an experiment's timer-lag reports ({@link Protocol.TimerLagReport}
 * from every member, and its own driver's): the current window, judged and restarted once a
 * second, and the whole run. One actor's state (not thread-safe).
 */
final class LagReports {
    private long windowTimers;
    private double windowSumNanos;
    private long windowMaxNanos;
    private long timers;
    private double sumNanos;
    private long maxNanos;

    /** Adds {@code count} timers of mean lateness {@code meanNanos} (real ns) and largest {@code maxNanos}. */
    void add(long count, double meanNanos, long maxNanos) {
        windowTimers += count;
        windowSumNanos += meanNanos * count;
        windowMaxNanos = Math.max(windowMaxNanos, maxNanos);
        timers += count;
        sumNanos += meanNanos * count;
        this.maxNanos = Math.max(this.maxNanos, maxNanos);
    }

    /** Adds a window of a local {@link TimerLag}. */
    void add(TimerLag.Window w) {
        add(w.count(), w.meanNanos(), w.maxNanos());
    }

    /** The window since the previous call, and starts a new one. */
    TimerLag.Window window() {
        TimerLag.Window w = new TimerLag.Window(windowTimers, windowTimers == 0 ? 0 : windowSumNanos / windowTimers, windowMaxNanos);
        windowTimers = 0;
        windowSumNanos = 0;
        windowMaxNanos = 0;
        return w;
    }

    /** Timers reported over the run. */
    long timers() {
        return timers;
    }

    /** Their mean lateness, real nanoseconds (0 when none). */
    double meanNanos() {
        return timers == 0 ? 0 : sumNanos / timers;
    }

    /** The largest lateness reported, real nanoseconds. */
    long maxNanos() {
        return maxNanos;
    }
}

package org.loadlab.shell.actor;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * How late the timers of a live run fire: each timer a {@link LogicActor} starts has the
 * real instant it is due, and when the actor fires it the difference is recorded
 * here. Timers drive service completions, probe timeouts and arrivals, so when the actors
 * cannot keep up with the scaled clock ({@code --time-scale} too high for the machine) this
 * lag grows: the run's times are then no longer the scenario's. Thread-safe (many actors
 * record, one watcher reads).
 */
public final class TimerLag {
    private final LongAdder count = new LongAdder();
    private final LongAdder sumNanos = new LongAdder();
    private final LongAccumulator maxNanos = new LongAccumulator(Long::max, 0);
    private final LongAdder windowCount = new LongAdder();
    private final LongAdder windowSumNanos = new LongAdder();
    private final LongAccumulator windowMaxNanos = new LongAccumulator(Long::max, 0);

    /**
     * Lag of the timers handled since the last {@link #window()} call.
     *
     * @param count timers handled
     * @param meanNanos mean lateness, real nanoseconds (0 when none)
     * @param maxNanos largest lateness, real nanoseconds
     */
    public record Window(long count, double meanNanos, long maxNanos) {
    }

    /** Records one timer handled {@code lateNanos} real nanoseconds after it was due (negative counts as 0). */
    public void record(long lateNanos) {
        long late = Math.max(0, lateNanos);
        count.increment();
        sumNanos.add(late);
        maxNanos.accumulate(late);
        windowCount.increment();
        windowSumNanos.add(late);
        windowMaxNanos.accumulate(late);
    }

    /** The lag since the previous call, and starts a new window. */
    public Window window() {
        long n = windowCount.sumThenReset();
        long sum = windowSumNanos.sumThenReset();
        long max = windowMaxNanos.getThenReset();
        return new Window(n, n == 0 ? 0 : (double) sum / n, max);
    }

    /** Timers recorded over the whole run. */
    public long count() {
        return count.sum();
    }

    /** Mean lateness over the whole run, real nanoseconds. */
    public double meanNanos() {
        long n = count.sum();
        return n == 0 ? 0 : (double) sumNanos.sum() / n;
    }

    /** Largest lateness over the whole run, real nanoseconds. */
    public long maxNanos() {
        return maxNanos.get();
    }
}

package org.loadlab.shell.cluster;

import java.time.Instant;
import org.loadlab.shell.actor.LiveClock;

/**
 * The scenario clock of one experiment on one member. Every member maps scenario time 0 to
 * the same wall-clock instant (sent in {@link Protocol.BeginRun}), so times taken on
 * different JVMs are comparable as far as the hosts' clocks agree (on one machine exactly;
 * across hosts within their NTP offset). Before the run begins it reads 0.
 */
public final class ExperimentClock implements org.loadlab.shell.actor.ShellClock {
    private final double timeScale;
    private volatile LiveClock clock;

    /** @param timeScale scenario seconds per real second, > 0 */
    public ExperimentClock(double timeScale) {
        this.timeScale = timeScale;
    }

    /** Current wall time in microseconds since the epoch. */
    public static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Starts the clock: scenario time 0 is {@code originEpochMicros}. */
    public void begin(long originEpochMicros) {
        long offsetNanos = (epochMicros() - originEpochMicros) * 1_000L;
        clock = new LiveClock(System.nanoTime() - offsetNanos, timeScale);
    }

    /** True once {@link #begin} was called. */
    public boolean started() {
        return clock != null;
    }

    /** Scenario seconds since the origin (0 before the run begins, never negative). */
    @Override
    public double now() {
        LiveClock c = clock;
        return c == null ? 0.0 : Math.max(0.0, c.now());
    }

    /** Scenario seconds per real second. */
    public double timeScale() {
        return timeScale;
    }

    /** Real duration of {@code scenarioSeconds} at this clock's time scale. */
    @Override
    public java.time.Duration realDuration(double scenarioSeconds) {
        return java.time.Duration.ofNanos(Math.max(0L, (long) (scenarioSeconds / timeScale * 1e9)));
    }
}

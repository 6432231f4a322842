package org.loadlab.shell.cluster;

import java.time.Instant;
import org.loadlab.shell.actor.LiveClock;

/**
 * The scenario clock of one experiment on one member. Every member maps scenario time 0 to
 * the same wall-clock instant (sent in {@link Protocol.BeginRun}), so times taken on
 * different JVMs are comparable as far as the hosts' clocks agree (on one machine exactly;
 * across hosts within their NTP offset). Before the run begins it reads 0.
 */
public final class ExperimentClock {
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

    /** The started clock (for a LogicActor whose logic reads the shell's time), null before {@link #begin}. */
    public LiveClock liveClock() {
        return clock;
    }

    /** True once {@link #begin} was called. */
    public boolean started() {
        return clock != null;
    }

    /** Scenario seconds since the origin (0 before the run begins, never negative). */
    public double now() {
        LiveClock c = clock;
        return c == null ? 0.0 : Math.max(0.0, c.now());
    }

    /** Scenario seconds per real second. */
    public double timeScale() {
        return timeScale;
    }

    /** A LiveClock with this time scale for a LogicActor's timers (only its scale matters there). */
    public LiveClock timerClock() {
        return LiveClock.startingNow(timeScale);
    }
}

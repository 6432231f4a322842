package org.loadlab.shell.actor;

/**
 * Scaled wall time shared by all actors of a live run: {@code now()} is the number of
 * scenario seconds since {@code start}, advancing {@code timeScale} times faster than
 * the wall clock (time scale 10 plays 10 scenario seconds per real second).
 *
 * @param startNanos {@code System.nanoTime()} at the start of the run
 * @param timeScale speed-up factor, > 0
 */
public record LiveClock(long startNanos, double timeScale) implements ShellClock {
    /** Validates. @throws IllegalArgumentException if the time scale is not positive */
    public LiveClock {
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("--time-scale must be > 0, was " + timeScale);
        }
    }

    /** A clock starting now. */
    public static LiveClock startingNow(double timeScale) {
        return new LiveClock(System.nanoTime(), timeScale);
    }

    /** Scenario seconds elapsed. */
    @Override
    public double now() {
        return (System.nanoTime() - startNanos) / 1e9 * timeScale;
    }

    /** Real duration of {@code scenarioSeconds}. */
    @Override
    public java.time.Duration realDuration(double scenarioSeconds) {
        return java.time.Duration.ofNanos(Math.max(0L, (long) (scenarioSeconds / timeScale * 1e9)));
    }
}

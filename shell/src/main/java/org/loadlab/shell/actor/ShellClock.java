package org.loadlab.shell.actor;

import java.time.Duration;

/**
 * The time a Pekko shell gives its cores: scenario seconds now, and the real duration of a
 * scenario delay (for timers). A live run plays a {@link LiveClock}; a cluster experiment an
 * experiment clock shared by its members.
 */
public interface ShellClock {
    /** Scenario seconds now. */
    double now();

    /** Real duration of {@code scenarioSeconds} (≥ 0). */
    Duration realDuration(double scenarioSeconds);

    /**
     * Real time now, nanoseconds from an arbitrary origin: the time the actors' timers are due
     * in, which must run with Pekko's scheduler ({@code System.nanoTime()}; a test on Pekko's
     * manual time gives that time instead).
     */
    default long realNanos() {
        return System.nanoTime();
    }
}

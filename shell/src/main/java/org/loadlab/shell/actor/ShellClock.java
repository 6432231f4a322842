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
}

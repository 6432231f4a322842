package org.loadlab.shell.actor;

import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;

/**
 * A {@link ShellClock} on Pekko's manual test time: {@link #advance} moves the scenario clock
 * by the real duration times the time scale and then lets the same real duration pass on the
 * {@link ManualTime} scheduler, so a core that reads {@code env.now()} when its timer fires sees
 * exactly the time the timer was due. Scenario time only moves when a test advances it, and a
 * test advances it only while the actors are idle (a core that reads the clock twice in one
 * handler must see one time).
 */
final class ManualClock implements ShellClock {
    private final ManualTime time;
    private final double timeScale;
    private volatile long elapsedNanos;

    /**
     * @param time the test system's manual scheduler
     * @param timeScale scenario seconds per real second, &gt; 0
     */
    ManualClock(ManualTime time, double timeScale) {
        this.time = time;
        this.timeScale = timeScale;
    }

    /** Scenario seconds since the clock was made. */
    @Override
    public double now() {
        return elapsedNanos / 1e9 * timeScale;
    }

    /** The real duration of {@code scenarioSeconds} at this clock's time scale. */
    @Override
    public Duration realDuration(double scenarioSeconds) {
        return Duration.ofNanos(Math.max(0L, Math.round(scenarioSeconds / timeScale * 1e9)));
    }

    /** The real time that has passed on the manual scheduler, ns: what the actors' timers are due in. */
    @Override
    public long realNanos() {
        return elapsedNanos;
    }

    /** Lets {@code real} pass, expecting no message on {@code probe} meanwhile (Pekko's {@link ManualTime#expectNoMessageFor}). */
    void expectNoMessageFor(Duration real, org.apache.pekko.actor.testkit.typed.javadsl.TestProbe<?> probe) {
        elapsedNanos += real.toNanos();
        time.expectNoMessageFor(real, probe);
    }

    /** Lets {@code real} pass: the scenario clock first, then the scheduler (whose due timers fire). */
    void advance(Duration real) {
        elapsedNanos += real.toNanos(); // only the test thread advances
        time.timePasses(real);
    }
}

package org.loadlab.shell.actor;

import java.util.Locale;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The rule that says a run on the real clock has fallen behind its scaled clock, shared by
 * live mode ({@code simulate --mode live}) and cluster experiments: when the timers of the
 * run's actors (service completions, arrivals, probe timeouts; measured by {@link TimerLag})
 * fire on average later than {@code tolerance} × the scenario's mean service time E[D]/μ̄
 * (in scenario seconds: real lateness × time scale) for {@value #WINDOWS_TO_STOP} windows of
 * {@value #WINDOW_MILLIS} ms in a row, or over a whole run too short for that, the run's
 * response times carry an error of that order and must not be reported as the scenario's.
 *
 * <p>One instance per run; {@link #look} is called once per window by one thread.
 * Source: docs/results.md ("Live mode"), docs/cluster.md ("Time scale").
 */
public final class ScaledClockCheck {
    /** Real time between two looks at the timer lag, milliseconds. */
    public static final long WINDOW_MILLIS = 1000;
    /** Consecutive windows above the tolerance after which a run has fallen behind. */
    public static final int WINDOWS_TO_STOP = 2;
    /**
     * Default tolerated mean lateness of the timers, as a fraction of the scenario's mean
     * service time E[D]/μ̄ (docs/results.md measures what it allows on a 2-core machine).
     */
    public static final double DEFAULT_TOLERANCE = 0.1;

    private final double timeScale;
    private final double serviceSeconds;
    private final double toleranceSeconds;
    private int windowsAbove;

    /**
     * @param timeScale scenario seconds per real second, &gt; 0
     * @param tolerance tolerated mean lateness as a fraction of the mean service time, &gt; 0
     *     (infinite: the run never falls behind)
     * @param scenario the run's scenario (for its mean service time)
     * @throws IllegalArgumentException if {@code timeScale} or {@code tolerance} is not positive
     */
    public ScaledClockCheck(double timeScale, double tolerance, Scenario scenario) {
        if (!(timeScale > 0) || !(tolerance > 0)) {
            throw new IllegalArgumentException("time scale and lag tolerance must be > 0, were " + timeScale + " and " + tolerance);
        }
        this.timeScale = timeScale;
        this.serviceSeconds = meanServiceSeconds(scenario);
        this.toleranceSeconds = tolerance * serviceSeconds;
    }

    /** Mean service time E[D]/μ̄ of a node of {@code s}, scenario seconds. */
    public static double meanServiceSeconds(Scenario s) {
        double mu = s.nodes().expectedCapacity() / ((double) s.nodes().count() * s.nodes().servers());
        return s.demand().mean() / mu;
    }

    /**
     * Looks at one window's lag.
     *
     * @param w the timers handled in the last window
     * @return true once {@value #WINDOWS_TO_STOP} windows in a row were too late (a window
     *     without timers breaks the row)
     */
    public boolean look(TimerLag.Window w) {
        windowsAbove = w.count() > 0 && scenarioSeconds(w.meanNanos()) > toleranceSeconds ? windowsAbove + 1 : 0;
        return windowsAbove >= WINDOWS_TO_STOP;
    }

    /**
     * The verdict over a whole run (also one too short for {@value #WINDOWS_TO_STOP} windows).
     *
     * @param count timers handled over the run
     * @param meanNanos their mean lateness, real nanoseconds
     * @return true if the run's timers were on average too late
     */
    public boolean behindOverRun(long count, double meanNanos) {
        return count > 0 && scenarioSeconds(meanNanos) > toleranceSeconds;
    }

    /**
     * What was too late, for an error message: "its timers fired on average 1.32 ms (0.132
     * scenario s) late over the last second, more than 10% of the mean service time 1 s, so its
     * response times would be wrong".
     *
     * @param meanNanos mean lateness, real nanoseconds
     * @param when over which span ("over the last second", "over the run")
     */
    public String lateness(double meanNanos, String when) {
        return String.format(Locale.ROOT, "its timers fired on average %.3g ms (%.3g scenario s) late %s, more than %.0f%% of"
                        + " the mean service time %.3g s, so its response times would be wrong", meanNanos / 1e6,
                scenarioSeconds(meanNanos), when, 100 * toleranceSeconds / serviceSeconds, serviceSeconds);
    }

    /**
     * A time scale at which the lag measured now would be half the tolerance, if the real
     * lateness stayed the same, rounded down to one significant digit (at least 0.001).
     *
     * @param meanNanos mean lateness measured, real nanoseconds
     */
    public double suggestion(double meanNanos) {
        double realLagSeconds = Math.max(1e-4, meanNanos / 1e9);
        double scale = toleranceSeconds / 2 / realLagSeconds;
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(scale, 1e-3))));
        return Math.max(0.001, Math.floor(scale / magnitude) * magnitude);
    }

    /** {@code x} as a user wrote it: "25" for 25.0, "0.5" for 0.5 (for time scales in messages). */
    public static String plain(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? String.valueOf((long) x) : String.valueOf(x);
    }

    private double scenarioSeconds(double meanNanos) {
        return meanNanos / 1e9 * timeScale;
    }
}

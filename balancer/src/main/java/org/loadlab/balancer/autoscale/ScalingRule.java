package org.loadlab.balancer.autoscale;

/**
 * The autoscaler's hysteresis, apart from any node: two counters fed one mean CPU per check.
 * Above the up threshold (and below the maximum) the up-counter grows by 1, else it loses
 * {@code decay} (floor 0); at {@code upChecks} it asks for a node and restarts at 0. The
 * down-counter does the same below the down threshold (and above the minimum).
 *
 * <p>Source: seed 003 ({@code autoscaler.py} {@code _monitor_loop}), SPEC.md §6.
 */
public final class ScalingRule {
    /** {@link #check} result: add a node. */
    public static final int UP = 1;
    /** {@link #check} result: remove the last added node. */
    public static final int DOWN = -1;
    /** {@link #check} result: nothing. */
    public static final int HOLD = 0;

    private final AutoscalerSettings settings;
    private double up;
    private double down;

    /** @param settings the thresholds, counts and decay */
    public ScalingRule(AutoscalerSettings settings) {
        this.settings = settings;
    }

    /**
     * One check.
     *
     * @param meanCpu mean CPU share of the active nodes, in [0, 1]
     * @param active nodes active now
     * @return {@link #UP}, {@link #DOWN} or {@link #HOLD}
     */
    public int check(double meanCpu, int active) {
        int verdict = HOLD;
        if (meanCpu > settings.scaleUpAbove() && active < settings.maxNodes()) {
            up += 1;
            if (up >= settings.upChecks()) {
                verdict = UP;
                up = 0;
            }
        } else {
            up = Math.max(0, up - settings.decay());
        }
        if (meanCpu < settings.scaleDownBelow() && active > settings.minNodes()) {
            down += 1;
            if (down >= settings.downChecks() && verdict == HOLD) {
                verdict = DOWN;
                down = 0;
            }
        } else {
            down = Math.max(0, down - settings.decay());
        }
        return verdict;
    }

    /** The up-counter now. */
    public double upCounter() {
        return up;
    }

    /** The down-counter now. */
    public double downCounter() {
        return down;
    }
}

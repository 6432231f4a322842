package org.loadlab.node.backend;

/**
 * Safe bounds of a tick interval, so that a periodic model can tell "still the same tick"
 * with two comparisons instead of a division and a floor per call, and still decide exactly.
 *
 * <p>The exact tick of time t for a period P is {@code (long) Math.floor(t / P)} (the division
 * correctly rounded). For a tick k ≥ 0 the half-open interval
 * [{@link #lowerBound lowerBound(k, P)}, {@link #upperBound upperBound(k, P)}) lies inside
 * the set of times whose exact tick is k, a few ulps short of each end: any t in it has
 * exact tick k, and a t outside it must be decided by the exact computation (it may still
 * be tick k, close to a boundary). The caller therefore keeps the exact computation for
 * every t outside the bounds, and its results never differ from computing the tick every
 * time, not even by one ulp at a boundary ({@code TickBoundsTest} checks it around
 * boundaries of many periods).
 *
 * <p>Why the bounds are safe, for P &gt; 0, 0 ≤ k &lt; 2^52 (so k and k + 1 are exact
 * doubles), u = 2^-53 the unit roundoff:
 * <ul>
 *   <li>upper: U = fl(fl((k+1)·P)·(1 − 2^-50)) ≤ (k+1)·P·(1+u)²·(1 − 2^-50) &lt; (k+1)·P·(1 − 2^-51).
 *       For t &lt; U the exact quotient t/P is below (k+1)(1 − 2^-51), which is below the
 *       largest double under k+1, so the rounded quotient is below k+1 and its floor ≤ k;</li>
 *   <li>lower: L = fl(fl(k·P)·(1 + 2^-50)) ≥ k·P·(1−u)²·(1 + 2^-50) ≥ k·P, so for t ≥ L the
 *       exact quotient is ≥ k, and so is the rounded one (rounding is monotone and k exact).</li>
 * </ul>
 * Outside the range where the argument holds (a negative tick, k ≥ 2^52, a period below
 * 2^-900 whose products could be subnormal, an overflowing product) the bounds are empty,
 * and every call takes the exact path.
 */
final class TickBounds {
    private static final double SHRINK = 1.0 - 0x1p-50;
    private static final double GROW = 1.0 + 0x1p-50;
    private static final long MAX_TICK = 1L << 52;
    // Below this period the products could be subnormal, where the relative error bound fails.
    private static final double MIN_PERIOD = 0x1p-900;

    private TickBounds() {
    }

    /**
     * The exact tick of {@code now}: {@code floor(now / period)}.
     *
     * @param now time, seconds
     * @param period period, seconds, &gt; 0
     */
    static long tick(double now, double period) {
        return (long) Math.floor(now / period);
    }

    /**
     * A time at or after which the exact tick is at least {@code tick}.
     *
     * @param tick the tick k
     * @param period the period P, seconds, &gt; 0
     * @return L, seconds; +∞ (an empty interval) outside 0 ≤ k &lt; 2^52 or when k·P overflows
     */
    static double lowerBound(long tick, double period) {
        if (tick < 0 || tick >= MAX_TICK || !(period >= MIN_PERIOD)) {
            return Double.POSITIVE_INFINITY;
        }
        double l = (tick * period) * GROW;
        return l < Double.POSITIVE_INFINITY ? l : Double.POSITIVE_INFINITY;
    }

    /**
     * A time before which the exact tick is at most {@code tick}.
     *
     * @param tick the tick k
     * @param period the period P, seconds, &gt; 0
     * @return U, seconds; −∞ (an empty interval) outside 0 ≤ k &lt; 2^52 or when (k+1)·P overflows
     */
    static double upperBound(long tick, double period) {
        if (tick < 0 || tick >= MAX_TICK || !(period >= MIN_PERIOD)) {
            return Double.NEGATIVE_INFINITY;
        }
        double u = ((tick + 1) * period) * SHRINK;
        return u < Double.POSITIVE_INFINITY ? u : Double.NEGATIVE_INFINITY;
    }
}

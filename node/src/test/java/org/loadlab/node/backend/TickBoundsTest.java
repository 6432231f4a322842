package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link TickBounds}: every time inside a tick's bounds has that exact tick, checked at the
 * doubles right around many boundaries k·P of many periods, where a rounding slip would show.
 */
class TickBoundsTest {
    private static final double[] PERIODS = {0.1, 1.0, 2.0, 0.3, 0.7, 1e-3, 0.05, 1.0 / 3, 0.123456789, 17.5, 1e-9, 1e6};

    @Test
    void timesInsideTheBoundsHaveTheExactTickAroundEveryBoundary() {
        SplittableRandom rng = new SplittableRandom(16);
        int inside = 0;
        for (double period : PERIODS) {
            for (int i = 0; i < 3000; i++) {
                long k = i < 1000 ? i : i < 2000 ? rng.nextLong(1L << 40) : rng.nextLong(1L << 52);
                double lower = TickBounds.lowerBound(k, period);
                double upper = TickBounds.upperBound(k, period);
                // The doubles around both boundaries of tick k, each side.
                for (double edge : new double[] {k * period, (k + 1) * period}) {
                    double t = edge;
                    for (int step = 0; step < 40; step++) {
                        t = Math.nextDown(t);
                    }
                    for (int step = 0; step < 80; step++, t = Math.nextUp(t)) {
                        if (t >= lower && t < upper) {
                            inside++;
                            assertEquals(k, TickBounds.tick(t, period), "t=" + t + " period=" + period + " k=" + k);
                        }
                    }
                }
                double mid = (k + 0.5) * period;
                if (k < 1L << 40) {
                    // The bounds leave out only a few ulps: the middle of a tick is always inside.
                    assertTrue(mid >= lower && mid < upper, "middle of tick " + k + " of " + period);
                }
            }
        }
        assertTrue(inside > 100_000, "the check saw times inside the bounds: " + inside);
    }

    @Test
    void randomTimesInsideTheBoundsHaveTheExactTick() {
        SplittableRandom rng = new SplittableRandom(17);
        for (int i = 0; i < 1_000_000; i++) {
            double period = PERIODS[rng.nextInt(PERIODS.length)];
            double t = rng.nextDouble() * period * 1e6;
            long k = TickBounds.tick(t, period);
            for (long near = k - 1; near <= k + 1; near++) {
                if (t >= TickBounds.lowerBound(near, period) && t < TickBounds.upperBound(near, period)) {
                    assertEquals(near, k, "t=" + t + " period=" + period);
                }
            }
        }
    }

    @Test
    void outsideTheSafeRangeTheBoundsAreEmpty() {
        assertTrue(TickBounds.lowerBound(-1, 0.1) > TickBounds.upperBound(-1, 0.1));
        assertTrue(TickBounds.lowerBound(1L << 52, 0.1) > TickBounds.upperBound(1L << 52, 0.1));
        assertTrue(TickBounds.lowerBound(3, 1e308) > TickBounds.upperBound(3, 1e308)); // (k+1)·P overflows
        assertTrue(TickBounds.lowerBound(3, Double.MIN_VALUE) > TickBounds.upperBound(3, Double.MIN_VALUE));
        assertEquals(0.0, TickBounds.lowerBound(0, 0.1));
    }
}

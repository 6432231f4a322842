package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Closed-form properties of the rate functions (no sampling). */
class RateFunctionTest {

    /** Numerical mean of λ over [a, b) by the midpoint rule. */
    static double numericMean(RateFunction f, double a, double b, int steps) {
        double h = (b - a) / steps;
        double s = 0;
        for (int i = 0; i < steps; i++) {
            s += f.rate(a + (i + 0.5) * h);
        }
        return s / steps;
    }

    @Test
    void constantRate() {
        ConstantRate r = new ConstantRate(6);
        assertEquals(6, r.rate(123.4));
        assertEquals(6, r.maxRate());
        assertEquals(6, r.meanRate());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ConstantRate(0));
        assertEquals("arrival rate must be finite and > 0 requests/s, was 0.0", e.getMessage());
    }

    @Test
    void squareWavePhasesSeed000Bursty() {
        // seed 000 bursty: x3.0 on / x0.3 off, period 45 steps of 0.1 s, starting on; duty 0.5
        SquareWaveRate r = new SquareWaveRate(8, 3.0, 0.3, 4.5, 0.5, true);
        assertEquals(24, r.rate(0), 1e-12);
        assertEquals(24, r.rate(2.24), 1e-12);
        assertEquals(2.4, r.rate(2.25), 1e-12);
        assertEquals(2.4, r.rate(4.49), 1e-12);
        assertEquals(24, r.rate(4.5), 1e-12);
        assertEquals(24, r.rate(450.1), 1e-12);
        assertEquals(24, r.maxRate(), 1e-12);
        assertEquals(8 * 1.65, r.meanRate(), 1e-12);
        assertEquals(r.meanRate(), numericMean(r, 0, 45, 450_000), 1e-3);

        SquareWaveRate off = new SquareWaveRate(8, 3.0, 0.3, 4.5, 1.0 / 3, false);
        assertEquals(2.4, off.rate(0), 1e-12);
        assertEquals(24, off.rate(3.0), 1e-12);
        assertEquals(8 * (3.0 / 3 + 0.3 * 2 / 3), off.meanRate(), 1e-12);
        assertEquals(off.meanRate(), numericMean(off, 0, 45, 450_000), 1e-3);
    }

    @Test
    void squareWaveValidation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SquareWaveRate(1, 3, 0.3, 4.5, 1.5, true));
        assertEquals("square-wave duty cycle (fraction on) must be in [0.0, 1.0], was 1.5", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new SquareWaveRate(1, 3, 0.3, -1, 0.5, true));
        assertTrue(e.getMessage().startsWith("square-wave period must be finite and > 0 seconds, was -1.0"));
        assertThrows(IllegalArgumentException.class, () -> new SquareWaveRate(1, 0, 0, 1, 0.5, true));
    }

    @Test
    void diurnalMeanRateIsExactAverageOverOnePeriod() {
        double[] windows = DiurnalRate.evenWindows(3, 0.02);
        DiurnalRate r = DiurnalRate.seed001(10, 1000, windows);
        assertEquals(r.meanRate(), numericMean(r, 0, 1000, 2_000_000), 5e-4);
        assertEquals(r.meanRate(), numericMean(r, 3000, 4000, 2_000_000), 5e-4); // periodic
        assertEquals(10 * 1.5 * 3, r.maxRate(), 1e-12);
        // random windows too (sine does not cancel there)
        DiurnalRate q = DiurnalRate.seed001(10, 500, DiurnalRate.randomWindows(3, 0.02, new SplittableRandom(5)));
        assertEquals(q.meanRate(), numericMean(q, 0, 500, 2_000_000), 5e-4);
        assertEquals(10, new DiurnalRate(10, 0.5, 100, new double[0], 0.02, 3).meanRate(), 1e-12);
    }

    @Test
    void diurnalShapeAndWindows() {
        DiurnalRate r = new DiurnalRate(10, 0.5, 100, new double[] {0.5}, 0.1, 3);
        assertEquals(10, r.rate(0), 1e-9);
        assertEquals(15, r.rate(25), 1e-9);      // sine peak, outside window
        assertEquals(5, r.rate(75), 1e-9);       // trough
        assertTrue(r.inBurst(50));
        assertTrue(r.inBurst(59.99));
        assertFalse(r.inBurst(60));
        assertFalse(r.inBurst(49.99));
        assertTrue(r.inBurst(150));              // windows repeat every period
        assertEquals(3 * 10 * (1 + 0.5 * Math.sin(2 * Math.PI * 0.55)), r.rate(55), 1e-9);
    }

    @Test
    void windowPlacement() {
        assertArrayEquals(new double[] {1.0 / 6 - 0.01, 0.49, 5.0 / 6 - 0.01}, DiurnalRate.evenWindows(3, 0.02), 1e-12);
        double[] a = DiurnalRate.randomWindows(3, 0.02, new SplittableRandom(11));
        double[] b = DiurnalRate.randomWindows(3, 0.02, new SplittableRandom(11));
        assertArrayEquals(a, b);
        for (int seed = 0; seed < 200; seed++) {
            double[] w = DiurnalRate.randomWindows(5, 0.15, new SplittableRandom(seed));
            for (int i = 0; i < w.length; i++) {
                assertTrue(w[i] >= 0 && w[i] + 0.15 <= 1 + 1e-12);
                if (i > 0) {
                    assertTrue(w[i] >= w[i - 1] + 0.15 - 1e-12, "windows must not overlap");
                }
            }
            new DiurnalRate(1, 0.5, 10, w, 0.15, 3); // accepted by the constructor
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiurnalRate.evenWindows(3, 0.5));
        assertTrue(e.getMessage().contains("was 0.5"), e.getMessage());
    }

    @Test
    void diurnalValidation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DiurnalRate(10, 1.5, 100, new double[0], 0.02, 3));
        assertEquals("diurnal amplitude A must be in [0.0, 1.0], was 1.5", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new DiurnalRate(10, 0.5, 100, new double[] {0.5, 0.51}, 0.02, 3));
        assertTrue(e.getMessage().startsWith("burst window start[1] must be >= the end of window 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new DiurnalRate(10, 0.5, 100, new double[] {0.99}, 0.02, 3));
        assertTrue(e.getMessage().startsWith("burst window 0 must end within the period"), e.getMessage());
    }

    @Test
    void withMeanRateRescalesToTarget() {
        DiurnalRate r = DiurnalRate.seed001(10, 1000, DiurnalRate.evenWindows(3, 0.02)).withMeanRate(37.5);
        assertEquals(37.5, r.meanRate(), 1e-9);
        assertEquals(37.5, numericMean(r, 0, 1000, 1_000_000), 1e-3);
    }

    @Test
    void spikeRate() {
        SpikeRate r = new SpikeRate(new ConstantRate(8), 300, 360, 2);
        assertEquals(8, r.rate(299.99));
        assertEquals(16, r.rate(300));
        assertEquals(16, r.rate(359.99));
        assertEquals(8, r.rate(360));
        assertEquals(16, r.maxRate());
        assertEquals(8, r.meanRate());
        assertEquals(8 * (1 + 60.0 / 600), r.meanRateOver(600), 1e-12);
        assertEquals(8, r.meanRateOver(200), 1e-12);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SpikeRate(new ConstantRate(8), 360, 300, 2));
        assertEquals("spike end must be finite and > spike start (360.0 seconds), was 300.0", e.getMessage());
    }
}

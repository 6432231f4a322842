package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Thinning reproduces ∫λ over windows; square wave and spike counts per phase. */
class NonHomogeneousPoissonArrivalsTest {

    /** Counts arrivals of {@code p} in consecutive windows of {@code width} over [0, horizon). */
    static long[] countPerWindow(ArrivalProcess p, double horizon, double width) {
        long[] counts = new long[(int) Math.round(horizon / width)];
        double previous = 0;
        while (true) {
            double t = p.next();
            assertTrue(t >= previous, "non-decreasing");
            previous = t;
            if (t >= horizon) {
                return counts;
            }
            counts[(int) (t / width)]++;
        }
    }

    /** ∫_a^b λ(t) dt by the midpoint rule. */
    static double integral(RateFunction f, double a, double b) {
        int steps = 20_000;
        double h = (b - a) / steps;
        double s = 0;
        for (int i = 0; i < steps; i++) {
            s += f.rate(a + (i + 0.5) * h);
        }
        return s * h;
    }

    @Test
    void diurnalWithBurstsCountsMatchIntegralPerWindow() {
        double horizon = 1000;
        DiurnalRate rate = DiurnalRate.seed001(200, horizon, DiurnalRate.evenWindows(3, 0.02));
        long[] counts = countPerWindow(new NonHomogeneousPoissonArrivals(rate, new SplittableRandom(3)), horizon, 20);
        long total = 0;
        for (int w = 0; w < counts.length; w++) {
            double expected = integral(rate, w * 20.0, (w + 1) * 20.0);
            // expected >= 2000 per window; 5% is > 3 standard deviations
            assertEquals(expected, counts[w], 0.05 * expected, "window " + w);
            total += counts[w];
        }
        assertEquals(rate.meanRate() * horizon, total, 0.01 * rate.meanRate() * horizon);
        // burst windows really carry about 3x the load: window [480, 500) contains the middle burst [490, 510)
        assertTrue(counts[24] > 1.3 * counts[23]);
    }

    @Test
    void squareWaveCountsPerPhase() {
        SquareWaveRate rate = new SquareWaveRate(100, 3.0, 0.3, 4.5, 0.5, true);
        NonHomogeneousPoissonArrivals p = new NonHomogeneousPoissonArrivals(rate, new SplittableRandom(9));
        long on = 0;
        long off = 0;
        double horizon = 900;
        for (double t = p.next(); t < horizon; t = p.next()) {
            if (rate.isOn(t)) {
                on++;
            } else {
                off++;
            }
        }
        assertEquals(100 * 3.0 * 450, on, 0.02 * 135_000);
        assertEquals(100 * 0.3 * 450, off, 0.04 * 13_500);
    }

    @Test
    void spikeCountsInsideAndOutside() {
        SpikeRate rate = new SpikeRate(new ConstantRate(100), 300, 360, 2);
        long[] perSecond = countPerWindow(new NonHomogeneousPoissonArrivals(rate, new SplittableRandom(21)), 600, 1);
        long inside = Arrays.stream(perSecond, 300, 360).sum();
        long outside = Arrays.stream(perSecond).sum() - inside;
        assertEquals(12_000, inside, 0.04 * 12_000);
        assertEquals(54_000, outside, 0.02 * 54_000);
    }

    @Test
    void deterministicPerSeed() {
        RateFunction rate = DiurnalRate.seed001(5, 100, DiurnalRate.evenWindows(3, 0.02));
        double[] a = PoissonArrivalsTest.take(new NonHomogeneousPoissonArrivals(rate, new SplittableRandom(1)), 500);
        double[] b = PoissonArrivalsTest.take(new NonHomogeneousPoissonArrivals(rate, new SplittableRandom(1)), 500);
        double[] c = PoissonArrivalsTest.take(new NonHomogeneousPoissonArrivals(rate, new SplittableRandom(2)), 500);
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, c));
    }

    @Test
    void rateAboveMaxRateIsReported() {
        RateFunction liar = new RateFunction() {
            @Override
            public double rate(double t) {
                return 2;
            }

            @Override
            public double maxRate() {
                return 1;
            }

            @Override
            public double meanRate() {
                return 2;
            }
        };
        NonHomogeneousPoissonArrivals p = new NonHomogeneousPoissonArrivals(liar, new SplittableRandom(1));
        IllegalStateException e = assertThrows(IllegalStateException.class, p::next);
        assertTrue(e.getMessage().contains("above its maxRate 1.0 requests/s"), e.getMessage());
    }
}

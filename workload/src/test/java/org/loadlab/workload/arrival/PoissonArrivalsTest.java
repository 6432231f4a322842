package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Homogeneous Poisson arrivals: rate, inter-arrival CV, determinism, validation. */
class PoissonArrivalsTest {

    static double[] take(ArrivalProcess p, int n) {
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = p.next();
        }
        return t;
    }

    @Test
    void empiricalRateAndCoefficientOfVariation() {
        double lambda = 250.0;
        PoissonArrivals p = new PoissonArrivals(lambda, new SplittableRandom(42));
        int n = 200_000;
        double previous = 0;
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < n; i++) {
            double t = p.next();
            double gap = t - previous;
            assertTrue(gap >= 0, "arrival times must be non-decreasing");
            sum += gap;
            sumSq += gap * gap;
            previous = t;
        }
        double rate = n / previous;
        assertEquals(lambda, rate, 0.02 * lambda, "empirical rate");
        double mean = sum / n;
        double sd = Math.sqrt(sumSq / n - mean * mean);
        assertEquals(1.0, sd / mean, 0.02, "CV of inter-arrival times");
        assertEquals(lambda, p.meanRate());
    }

    @Test
    void sameSeedSameSequenceDifferentSeedDifferent() {
        double[] a = take(new PoissonArrivals(10, new SplittableRandom(7)), 1000);
        double[] b = take(new PoissonArrivals(10, new SplittableRandom(7)), 1000);
        double[] c = take(new PoissonArrivals(10, new SplittableRandom(8)), 1000);
        assertTrue(Arrays.equals(a, b));
        assertFalse(Arrays.equals(a, c));
    }

    @Test
    void rejectsBadRateNamingParameterValueAndRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PoissonArrivals(-3.0, new SplittableRandom(1)));
        assertEquals("arrival rate must be finite and > 0 requests/s, was -3.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PoissonArrivals(Double.NaN, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new PoissonArrivals(Double.POSITIVE_INFINITY, new SplittableRandom(1)));
        assertThrows(NullPointerException.class, () -> new PoissonArrivals(1, null));
    }
}

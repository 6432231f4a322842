package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Two-state MMPP: long-run mean rate, burstiness, determinism, validation. */
class MmppArrivalsTest {

    @Test
    void longRunMeanRate() {
        MmppArrivals p = new MmppArrivals(50, 5, 2, 8, true, new SplittableRandom(17));
        assertEquals(14.0, p.meanRate(), 1e-12); // (50*2 + 5*8) / 10
        int n = 4_000_000; // about 28,000 on-off cycles: relative sd of the rate estimate ~0.5%
        double t = 0;
        for (int i = 0; i < n; i++) {
            double next = p.next();
            assertTrue(next >= t);
            t = next;
        }
        assertEquals(14.0, n / t, 0.02 * 14.0);
    }

    @Test
    void interArrivalsAreBurstierThanPoisson() {
        MmppArrivals p = new MmppArrivals(50, 0, 2, 8, true, new SplittableRandom(4));
        double previous = 0;
        double sum = 0;
        double sumSq = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            double t = p.next();
            double gap = t - previous;
            sum += gap;
            sumSq += gap * gap;
            previous = t;
        }
        double mean = sum / n;
        double cv = Math.sqrt(sumSq / n - mean * mean) / mean;
        assertTrue(cv > 1.5, "CV of an on-off source must exceed 1, was " + cv);
        assertEquals(10.0, n / previous, 0.05 * 10.0); // 50 * 2 / 10
    }

    @Test
    void deterministicPerSeed() {
        double[] a = PoissonArrivalsTest.take(new MmppArrivals(10, 1, 1, 1, false, new SplittableRandom(3)), 1000);
        double[] b = PoissonArrivalsTest.take(new MmppArrivals(10, 1, 1, 1, false, new SplittableRandom(3)), 1000);
        double[] c = PoissonArrivalsTest.take(new MmppArrivals(10, 1, 1, 1, false, new SplittableRandom(4)), 1000);
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, c));
    }

    @Test
    void validation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MmppArrivals(0, 0, 1, 1, true, new SplittableRandom(1)));
        assertEquals("MMPP arrival rates must not both be 0 requests/s, were on 0.0 and off 0.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new MmppArrivals(1, 0, -2, 1, true, new SplittableRandom(1)));
        assertEquals("MMPP mean on time must be finite and > 0 seconds, was -2.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new MmppArrivals(-1, 0, 1, 1, true, new SplittableRandom(1)));
        assertEquals("MMPP on-state arrival rate must be finite and >= 0 requests/s, was -1.0", e.getMessage());
    }
}

package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Truncation by count and by end time. */
class LimitedArrivalsTest {

    @Test
    void stopsAfterMaxRequests() {
        LimitedArrivals p = new LimitedArrivals(new PoissonArrivals(100, new SplittableRandom(1)), 30_000,
                Double.POSITIVE_INFINITY);
        for (int i = 0; i < 30_000; i++) {
            assertTrue(Double.isFinite(p.next()));
        }
        assertEquals(Double.POSITIVE_INFINITY, p.next());
        assertEquals(Double.POSITIVE_INFINITY, p.next());
        assertEquals(30_000, p.count());
        assertEquals(100, p.meanRate());
    }

    @Test
    void stopsAtEndTime() {
        LimitedArrivals p = new LimitedArrivals(new PoissonArrivals(100, new SplittableRandom(2)), Long.MAX_VALUE, 600);
        double last = 0;
        for (double t = p.next(); t != Double.POSITIVE_INFINITY; t = p.next()) {
            assertTrue(t < 600);
            last = t;
        }
        assertTrue(last > 599);
        assertEquals(60_000, p.count(), 0.02 * 60_000);
        assertEquals(Double.POSITIVE_INFINITY, p.next());
    }

    @Test
    void zeroRequestsIsImmediatelyExhausted() {
        LimitedArrivals p = new LimitedArrivals(new PoissonArrivals(1, new SplittableRandom(2)), 0, 10);
        assertEquals(Double.POSITIVE_INFINITY, p.next());
    }

    @Test
    void validation() {
        ArrivalProcess src = new PoissonArrivals(1, new SplittableRandom(2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LimitedArrivals(src, -1, 10));
        assertEquals("maximum number of requests must be >= 0, was -1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LimitedArrivals(src, 1, 0));
        assertEquals("end time must be > 0 seconds (or +Infinity for none), was 0.0", e.getMessage());
    }
}

package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.workload.trace.TokenDemandModel;
import org.loadlab.workload.trace.Trace;
import org.loadlab.workload.trace.TraceCompression;
import org.loadlab.workload.trace.TraceReader;

/** Trace replay: compression, looping, attached demands, rate targeting on the Azure trace. */
class TraceArrivalsTest {

    private static final Trace SMALL = new Trace("small", new double[] {0, 1, 3, 6}, new int[] {10, 20, 30, 40},
            new int[] {1, 2, 3, 4});

    @Test
    void replaysCompressedOffsetsOnceThenExhausts() {
        TraceArrivals p = new TraceArrivals(SMALL, 2, false, new TokenDemandModel(1, 0, 25));
        assertTrue(Double.isNaN(p.attachedDemand()));
        assertEquals(0.0, p.next());
        assertEquals(10.0, p.attachedDemand(), 1e-12); // demand ∝ context tokens, mean 25
        assertEquals(0.5, p.next());
        assertEquals(20.0, p.attachedDemand(), 1e-12);
        assertEquals(1.5, p.next());
        assertEquals(3.0, p.next());
        assertEquals(40.0, p.attachedDemand(), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, p.next());
        assertTrue(Double.isNaN(p.attachedDemand()));
        assertEquals(Double.POSITIVE_INFINITY, p.next());
        assertEquals(1.0, p.meanRate(), 1e-12); // (4-1)/6 * 2
    }

    @Test
    void loopsOneMeanGapAfterTheLastRecord() {
        TraceArrivals p = new TraceArrivals(SMALL, 2, true);
        double[] expected = {0, 0.5, 1.5, 3, 4, 4.5, 5.5, 7, 8};
        for (double e : expected) {
            assertEquals(e, p.next(), 1e-12);
            assertTrue(Double.isNaN(p.attachedDemand()));
        }
        assertEquals(4.0, p.loopLengthSeconds(), 1e-12);
    }

    @Test
    void compressionHitsTargetRateOnAzureTrace() {
        Trace trace = TraceReader.readResource(TraceReader.AZURE_CONV);
        double target = 40.0;
        double c = TraceCompression.compressionFor(trace, target);
        TraceArrivals p = new TraceArrivals(trace, c, true, TokenDemandModel.defaults());
        assertEquals(target, p.meanRate(), 1e-9);
        int n = trace.size() * 5;
        double t = 0;
        double demandSum = 0;
        for (int i = 0; i < n; i++) {
            double next = p.next();
            assertTrue(next >= t);
            t = next;
            demandSum += p.attachedDemand();
        }
        // after k full passes the last arrival is at (k-1)L + span/c, so n/(t + one mean gap) is exact
        assertEquals(target, n / (t + 1 / target), 1e-6 * target);
        assertEquals(1.0, demandSum / n, 1e-9);
    }

    @Test
    void validation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TraceArrivals(SMALL, 0, true));
        assertEquals("trace compression factor must be finite and > 0, was 0.0", e.getMessage());
        Trace flat = new Trace("flat", new double[] {0, 0}, new int[] {1, 1}, new int[] {1, 1});
        e = assertThrows(IllegalArgumentException.class, () -> new TraceArrivals(flat, 1, true));
        assertTrue(e.getMessage().startsWith("trace flat must span > 0 seconds"), e.getMessage());
    }
}

package org.loadlab.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Token-based demand: proportionality, mean equals target, zero floor; compression factor. */
class TokenDemandModelTest {

    @Test
    void meanEqualsTargetOnAzureTraces() {
        for (String name : new String[] {TraceReader.AZURE_CODE, TraceReader.AZURE_CONV}) {
            Trace t = TraceReader.readResource(name);
            double[] d = new TokenDemandModel(0.0002, 0.02, 2.5).demands(t);
            double sum = 0;
            for (double v : d) {
                assertTrue(v > 0);
                sum += v;
            }
            assertEquals(2.5, sum / d.length, 1e-9, name);
        }
    }

    @Test
    void demandIsPrefillPlusDecodeScaled() {
        Trace t = new Trace("t", new double[] {0, 1, 2}, new int[] {1000, 0, 500}, new int[] {10, 50, 0});
        double[] d = TokenDemandModel.defaults().demands(t);
        // raw: 0.2 + 0.2 = 0.4, 1.0, 0.1 -> mean 0.5
        assertEquals(0.8, d[0], 1e-12);
        assertEquals(2.0, d[1], 1e-12);
        assertEquals(0.2, d[2], 1e-12);
    }

    @Test
    void zeroTokensAreFlooredAtOneTokenCost() {
        TokenDemandModel m = TokenDemandModel.defaults();
        assertEquals(0.0002, m.rawDemand(0, 0));
        Trace t = new Trace("t", new double[] {0, 1}, new int[] {0, 0}, new int[] {0, 0});
        double[] d = m.demands(t);
        assertEquals(1.0, d[0], 1e-12);
        assertEquals(1.0, d[1], 1e-12);
        assertEquals(0.02, new TokenDemandModel(0, 0.02, 1).rawDemand(100, 0));
    }

    @Test
    void validation() {
        assertEquals("prefill cost must be finite and >= 0 seconds/token, was -1.0",
                assertThrows(IllegalArgumentException.class, () -> new TokenDemandModel(-1, 0.02, 1)).getMessage());
        assertEquals("prefill and decode costs must not both be 0 seconds/token, were 0.0 and 0.0",
                assertThrows(IllegalArgumentException.class, () -> new TokenDemandModel(0, 0, 1)).getMessage());
        assertEquals("target mean demand must be finite and > 0 work units, was 0.0",
                assertThrows(IllegalArgumentException.class, () -> new TokenDemandModel(1, 1, 0)).getMessage());
    }

    @Test
    void compressionFactorHitsTarget() {
        Trace t = TraceReader.readResource(TraceReader.AZURE_CODE);
        double c = TraceCompression.compressionFor(t, 25.7);
        assertEquals(25.7 / t.meanRate(), c, 1e-12);
        assertEquals(25.7, c * t.meanRate(), 1e-9);
        assertTrue(c > 9.9 && c < 10.1, "code trace at ~2.57 requests/s needs ~10x, was " + c);
        assertEquals("target arrival rate must be finite and > 0 requests/s, was -1.0",
                assertThrows(IllegalArgumentException.class, () -> TraceCompression.compressionFor(t, -1)).getMessage());
        Trace single = new Trace("one", new double[] {0}, new int[] {1}, new int[] {1});
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TraceCompression.compressionFor(single, 1))
                .getMessage().startsWith("trace one must span > 0 seconds with >= 2 records"));
    }

    @Test
    void traceValidation() {
        assertEquals("trace t offset[2] must be finite and >= offset[1] (sorted), was 0.5",
                assertThrows(IllegalArgumentException.class, () -> new Trace("t", new double[] {0, 1, 0.5},
                        new int[3], new int[3])).getMessage());
        assertEquals("trace t offset[0] must be 0 seconds, was 1.0",
                assertThrows(IllegalArgumentException.class, () -> new Trace("t", new double[] {1},
                        new int[1], new int[1])).getMessage());
    }
}

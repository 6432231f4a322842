package org.loadlab.analysis.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The herding metric: the largest one-second share of routed requests one node received (issue 14). */
class PeakNodeShareTest {
    @Test
    void theLargestShareOfACompleteWindowBetweenWarmupAndTheLastArrival() {
        PeakNodeShare p = new PeakNodeShare(3);
        for (int i = 0; i < 10; i++) {
            p.routed(0.05 * i, i % 2); // window 0: 5 and 5
        }
        for (int i = 0; i < 10; i++) {
            p.routed(1.05 + 0.05 * i, i < 9 ? 2 : 0); // window 1: 9 of 10 to node 2
        }
        for (int i = 0; i < 4; i++) {
            p.routed(2.1 + 0.1 * i, 1); // window 2: all to node 1, but the run ends at 2.4
        }
        assertEquals(0.9, p.peak(0, 2.4), 1e-12, "the last window is not complete: left out");
        PeakNodeShare single = new PeakNodeShare(3);
        single.routed(0.1, 0);
        single.routed(0.2, 0);
        assertEquals(1.0, single.peak(0, 1.0), 1e-12, "a window ending exactly at the last arrival counts");
    }

    @Test
    void windowsBeforeTheWarmupDoNotCountAndEmptyRunsHaveNone() {
        PeakNodeShare p = new PeakNodeShare(2);
        p.routed(0.5, 0);
        for (int i = 0; i < 4; i++) {
            p.routed(3.1 + 0.1 * i, i % 2);
        }
        p.routed(5.0, 0);
        assertEquals(0.5, p.peak(2.0, 5.0), 1e-12);
        assertTrue(Double.isNaN(new PeakNodeShare(2).peak(0, 10)));
    }

    @Test
    void theRecorderReportsItInEveryRunsMetrics() {
        RunRecorder r = new RunRecorder(4, 0);
        for (int i = 0; i < 40; i++) {
            r.arrived(i / 8.0);
            r.routed(i / 8.0, i % 4);
        }
        RunMetrics m = r.finish(5.0);
        assertEquals(0.25, m.maxNodeShare1s(), 1e-12, "round robin over four nodes");
    }
}

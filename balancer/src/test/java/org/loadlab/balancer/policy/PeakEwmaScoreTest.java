package org.loadlab.balancer.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Peak-EWMA (issue 14): jumps to a peak, blends lower samples by e^(-dt/tau), decays toward 0 when read. */
class PeakEwmaScoreTest {
    private static final double TAU = 10;

    @Test
    void aPeakReplacesTheAverageAtOnce() {
        PeakEwmaScore s = new PeakEwmaScore(TAU, 0);
        s.observe(0, 0.2, 0);
        assertEquals(0.2, s.latency(0, 0), 1e-12);
        s.observe(0, 1.5, 0.001);
        assertEquals(1.5, s.latency(0, 0.001), 1e-12, "higher than the average: taken as is");
    }

    @Test
    void readingDecaysTheAverageWithItsDecayTime() {
        PeakEwmaScore s = new PeakEwmaScore(TAU, 0);
        s.observe(3, 1.0, 5);
        assertEquals(Math.exp(-1), s.latency(3, 5 + TAU), 1e-12, "one decay time later: 1/e");
        assertEquals(Math.exp(-2), s.latency(3, 5 + 2 * TAU), 1e-12, "read in steps, the decay composes");
    }

    @Test
    void aLowerSampleIsBlendedByTheTimeSinceTheLastUpdate() {
        PeakEwmaScore s = new PeakEwmaScore(TAU, 0);
        s.observe(1, 1.0, 0);
        s.observe(1, 0.5, 2);
        double w = Math.exp(-2 / TAU);
        assertEquals(w * 1.0 + (1 - w) * 0.5, s.latency(1, 2), 1e-12);
    }

    @Test
    void theCostIsLatencyTimesRequestsInFlightPlusOneAndPenalisesTheUnmeasured() {
        PeakEwmaScore s = new PeakEwmaScore(TAU, 0);
        s.observe(0, 0.4, 0);
        assertEquals(0.4 * 3, s.cost(0, 2, 0), 1e-12);
        assertEquals(0, s.cost(1, 0, 0), 1e-12, "unmeasured and idle: free to try");
        assertEquals(PeakEwmaScore.PENALTY + 1, s.cost(1, 1, 0), 1e-3, "unmeasured with a request out: penalised (Finagle)");
        PeakEwmaScore prior = new PeakEwmaScore(TAU, 0.3);
        prior.onNodeBack(2, 7);
        assertEquals(0.3 * 2, prior.cost(2, 1, 7), 1e-12, "a joining node starts at the prior");
    }
}

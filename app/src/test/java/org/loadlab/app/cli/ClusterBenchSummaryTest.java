package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * cluster-bench's summary calls S saturation only when the sweep found the knee. With small
 * settings ({@code --max-steps 1 --start-rate 2000}) it printed "saturation S = 2029 req/s" and
 * "at 2S: 1.97 S", though the cluster had kept up with every rate it was offered.
 */
class ClusterBenchSummaryTest {
    @Test
    void aSweepThatKeptUpAtItsLastStepSaysSIsNotSaturation() {
        assertTrue(ClusterBenchCommand.keptUp(2029, 2000));
        assertFalse(ClusterBenchCommand.keptUp(30000, 40000));
        assertEquals("S = 2029 req/s, NOT saturation: the sweep's last step still kept up or still completed clearly more"
                        + " than those before it (2000 offered; raise --max-steps or --start-rate)",
                ClusterBenchCommand.saturationLabel(2029, true, 2000));
        assertEquals("saturation S = 38379 req/s", ClusterBenchCommand.saturationLabel(38379, false, 43000));
    }

    /**
     * Two sweeps of 2026-12-07. With 7 steps, 2 JVMs: the last step (60,236 offered) completed
     * 57,733 req/s, shedding 4%, against 43,067 at the step before, and was called saturation,
     * though 2S then completed 1.23 S. With 9 steps, 4 JVMs: 50,866 req/s after 48,077 and 46,935,
     * shedding 58%: past the knee, a few percent up by the machine's noise.
     */
    @Test
    void aLastStepStillClearlyGrowingIsNotTheKneeButNoiseBeyondItIs() {
        assertTrue(ClusterBenchCommand.clearlyGrew(57733, 43067));
        assertFalse(ClusterBenchCommand.clearlyGrew(50866, 48077));
    }

    private static ClusterBenchCommand.Run half(double p99Millis) {
        return new ClusterBenchCommand.Run(4, "half", 27000, 1000, "finished", 27000, 270000, 0, 0, 0, 0, 1200,
                p99Millis * 1000, true);
    }

    /**
     * Four 4-JVM runs of 2026-12-08 gave p99s of 3.99, 8.38, 13.54 and 5.88 ms at S/2, each from
     * one experiment: the summary now reports the median of several, with each run's p99.
     */
    @Test
    void theSummaryGivesTheMedianRunAtHalfTheSaturationRateAndEveryRunsP99() {
        List<ClusterBenchCommand.Run> runs = List.of(half(13.54), half(4.21), half(5.03));
        assertEquals(5.03, ClusterBenchCommand.medianByDecisionP99(runs).decisionP99Micros() / 1000, 1e-9);
        assertEquals("median of 3 runs: p99 13.54, 4.21, 5.03 ms", ClusterBenchCommand.halfRunsLabel(runs));
        assertEquals(13.54, ClusterBenchCommand.medianByDecisionP99(List.of(half(4.0), half(13.54))).decisionP99Micros() / 1000,
                1e-9, "an even count takes the slower of the middle two");
        assertEquals("one run", ClusterBenchCommand.halfRunsLabel(List.of(half(4.0))));
    }
}

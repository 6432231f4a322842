package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}

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
        assertEquals("S = 2029 req/s, NOT saturation: the sweep still kept up at its last step (2000 offered; raise"
                + " --max-steps or --start-rate)", ClusterBenchCommand.saturationLabel(2029, true, 2000));
        assertEquals("saturation S = 38379 req/s", ClusterBenchCommand.saturationLabel(38379, false, 43000));
    }
}

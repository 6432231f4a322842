package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tune asmf} as a user calls it: what it says it does, where it wrote the ranking, the
 * flag it names, and when a term of its score cannot separate the configurations.
 */
class TuneCommandTest {
    @TempDir
    Path tmp;

    @Test
    void anUnknownScenarioIsNamedByTheTuneFlag() {
        String[] r = CliCapture.run("tune", "asmf", "--scenarios", "nosuch", "--out", tmp.resolve("t").toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("--scenarios = 'nosuch': no such built-in scenario or file"), r[2]);
        assertFalse(r[2].contains("--scenario ="), r[2]);
    }

    @Test
    void aWaitThatIsTheSameForEveryConfigurationIsSaid() {
        // Profile nodes never queue: every configuration waits 0 s on the autonomous scenario.
        CliCapture.Printed p = CliCapture.runCapturingSystemOut("tune", "asmf", "--scenarios", "autonomous", "--configs", "2",
                "--seeds", "101", "--duration-scale", "0.05", "--workers", "1", "--out", tmp.resolve("t").toString());
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("warning: wait (s) = 0.000 for every configuration: it does not separate"), p.out());
        assertFalse(p.out().contains("warning: throughput"), p.out());
    }

    @Test
    void theSmallestTuningCountsInTheSingular() {
        Path out = tmp.resolve("tuning");
        CliCapture.Printed r = CliCapture.runCapturingSystemOut("tune", "asmf", "--configs", "1", "--seeds", "1", "--scenarios",
                "asmf-poisson-medium", "--duration-scale", "0.05", "--workers", "1", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Tuning asmf: 1 configuration x 1 scenario x 1 seed = 1 run on 1 worker(s)\n"), r.out());
        assertTrue(r.out().contains("\n1 run in "), r.out());
        assertTrue(Files.exists(out.resolve("tuning.csv")) && Files.exists(out.resolve("tuned-variants.conf")));
    }
}

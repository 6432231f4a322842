package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tune names the flag the user typed and says when a term of its score cannot separate the configurations. */
class TuneCommandTest {

    @Test
    void anUnknownScenarioIsNamedByTheTuneFlag(@TempDir Path tmp) {
        String[] r = CliCapture.run("tune", "asmf", "--scenarios", "nosuch", "--out", tmp.resolve("t").toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("--scenarios = 'nosuch': no such built-in scenario or file"), r[2]);
        assertFalse(r[2].contains("--scenario ="), r[2]);
    }

    @Test
    void aWaitThatIsTheSameForEveryConfigurationIsSaid(@TempDir Path tmp) {
        // Profile nodes never queue: every configuration waits 0 s on the autonomous scenario.
        CliCapture.Printed p = CliCapture.runCapturingSystemOut("tune", "asmf", "--scenarios", "autonomous", "--configs", "2",
                "--seeds", "101", "--duration-scale", "0.05", "--workers", "1", "--out", tmp.resolve("t").toString());
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("warning: wait (s) = 0.000 for every configuration: it does not separate"), p.out());
        assertFalse(p.out().contains("warning: throughput"), p.out());
    }
}

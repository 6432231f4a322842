package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tune asmf} as a user calls it: what it says it does and where it wrote the ranking. */
class TuneCommandTest {
    @TempDir
    Path tmp;

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

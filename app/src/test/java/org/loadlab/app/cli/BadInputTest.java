package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Wrong flags and scenarios give exit code 2 and a message naming the field, the value and what is allowed. */
class BadInputTest {
    @TempDir
    Path tmp;

    private String[] run(String... args) {
        CommandLine cli = LoadLabCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new String[] {String.valueOf(code), err.toString()};
    }

    @Test
    void unknownPolicyOnTheCommandLine() {
        String[] r = run("simulate", "--scenario", "quickstart", "--policies", "p2c,p3c", "--out", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("policies[1]") && r[1].contains("'p3c'") && r[1].contains("allowed: random"), r[1]);
        assertFalse(Files.exists(tmp.resolve("results.csv")), "nothing is written for bad input");
    }

    @Test
    void unknownScenarioNamesTheBuiltIns() {
        String[] r = run("simulate", "--scenario", "quikstart");
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("'quikstart'") && r[1].contains("quickstart, azure-llm-code"), r[1]);
    }

    @Test
    void badSeedsAndModeAndSet() {
        String[] seeds = run("simulate", "--scenario", "quickstart", "--seeds", "120:101");
        assertEquals("2", seeds[0]);
        assertTrue(seeds[1].contains("seeds") && seeds[1].contains("120:101"), seeds[1]);
        String[] mode = run("simulate", "--scenario", "quickstart", "--mode", "fast");
        assertEquals("2", mode[0]);
        assertTrue(mode[1].contains("--mode = 'fast'") && mode[1].contains("sim, live"), mode[1]);
        String[] set = run("simulate", "--scenario", "quickstart", "--set", "nodes.count");
        assertEquals("2", set[0]);
        assertTrue(set[1].contains("--set 'nodes.count'") && set[1].contains("key=value"), set[1]);
        String[] negative = run("simulate", "--scenario", "quickstart", "--set", "nodes.count=-4");
        assertEquals("2", negative[0]);
        assertTrue(negative[1].contains("nodes.count = -4"), negative[1]);
    }

    @Test
    void liveModeRefusesAPartitionBeforeAnyRunStarts() {
        Path out = tmp.resolve("out");
        String[] r = run("simulate", "--scenario", "quickstart", "--mode", "live", "--out", out.toString(),
                "--set", "events=[{type = partition, at = 5, until = 9, nodes = [1]}]");
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("--mode live") && r[1].contains("partition at 5.0 s")
                && r[1].contains("without --mode live"), r[1]);
        assertFalse(Files.exists(out), "nothing runs and nothing is written");
    }

    @Test
    void unknownFlagIsAUsageError() {
        String[] r = run("simulate", "--scenario", "quickstart", "--polices", "p2c");
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("--polices"), r[1]);
    }

    @Test
    void validateReportsEveryProblemOfAFile() throws Exception {
        Path f = tmp.resolve("bad.conf");
        Files.writeString(f, "nodes { count = 0, cout = 3 }\narrivals.rate = -2\n");
        String[] r = run("validate", f.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("nodes.count = 0"), r[1]);
        assertTrue(r[1].contains("nodes.cout: unknown key"), r[1]);
        assertTrue(r[1].contains("arrivals.rate = -2"), r[1]);
    }
}

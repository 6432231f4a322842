package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate describes what the scenario runs, as simulate's header does. */
class ValidateCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aLoadSharingScenarioHasPeersAndNoBalancer() {
        CliCapture.Printed p = CliCapture.runCapturingSystemOut("validate", "load-sharing");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("load-sharing: valid (40 nodes, peer load sharing (no balancer), poisson arrivals"), p.out());
        assertFalse(p.out().contains("balancer(s)") || p.out().contains("probe"), p.out());
    }

    @Test
    void aBalancerScenarioNamesItsBalancersAndInformationModel() {
        CliCapture.Printed p = CliCapture.runCapturingSystemOut("validate", "quickstart");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("quickstart: valid (20 nodes, 1 balancer, probe information model, poisson arrivals"), p.out());
    }

    @Test
    void aCampaignFileIsCheckedAsACampaign() throws Exception {
        // Read as a scenario it gave "scenarios: unknown key" and "reference = "p2c": must be a block of keys".
        Path file = Files.writeString(tmp.resolve("mini.conf"), "name = mini\nseeds = [101, 102]\n"
                + "scenarios = [{ scenario = quickstart, set { duration = 60, warmup = 5 } }]\npolicies = [random, p2c]\nreference = p2c\n");
        CliCapture.Printed ok = CliCapture.runCapturingSystemOut("validate", file.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains(file + ": valid campaign mini-") && ok.out().contains("(4 runs; run it with ./loadlab campaign run"),
                ok.out());
        Path bad = Files.writeString(tmp.resolve("bad.conf"), "name = bad\nscenarios = [quickstart]\npolicies = [random, p9c]\n");
        CliCapture.Printed no = CliCapture.runCapturingSystemOut("validate", bad.toString());
        assertEquals(2, no.code(), no.err());
        assertTrue(no.err().contains("campaign " + bad + " is invalid") && no.err().contains("p9c"), no.err());
        assertFalse(no.err().contains("scenarios: unknown key"), no.err());
    }

    @Test
    void aDirectoryOrAMissingFileIsNamedAsValidatesArgument() {
        // Was "--scenario = 'DIR': is a directory ...": validate has no --scenario, it takes FILE.
        CliCapture.Printed dir = CliCapture.runCapturingSystemOut("validate", tmp.toString());
        assertEquals(2, dir.code(), dir.err());
        assertTrue(dir.err().startsWith("error: FILE = '" + tmp + "': is a directory, not a scenario or campaign file; give a"
                + " scenario or campaign file (HOCON) or a built-in name; built-in: quickstart"), dir.err());
        assertFalse(dir.err().contains("--scenario"), dir.err());
        CliCapture.Printed absent = CliCapture.runCapturingSystemOut("validate", tmp.resolve("absent.conf").toString());
        assertEquals(2, absent.code(), absent.err());
        assertTrue(absent.err().startsWith("error: FILE = '" + tmp.resolve("absent.conf") + "': no such built-in scenario or file"),
                absent.err());
        CliCapture.Printed empty = CliCapture.runCapturingSystemOut("validate", "");
        assertEquals(2, empty.code(), empty.err());
        assertTrue(empty.err().startsWith("error: FILE = '': empty; give a scenario or campaign file (HOCON)"), empty.err());
        // simulate still names its own flag.
        CliCapture.Printed simulate = CliCapture.runCapturingSystemOut("simulate", "--scenario", tmp.toString());
        assertTrue(simulate.err().contains("--scenario = '" + tmp + "': is a directory, not a scenario file"), simulate.err());
    }
}

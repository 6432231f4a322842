package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.balancer.policy.PolicyCatalog;
import picocli.CommandLine;

/**
 * Flags that would only fail (or do nothing) after the work are refused before it: exit
 * code 2, a message naming the flag, the value and why; nothing is created. Each case is one
 * a newcomer met from the README.
 */
class UpFrontChecksTest {
    @TempDir
    Path tmp;

    /** Exit code, the command line's stderr and what went to {@code System.out} and {@code System.err}. */
    private static CliCapture.Printed run(String... args) {
        return CliCapture.runCapturingSystemOutAndErr(args);
    }

    /** Everything printed as an error or warning, for a failed assertion's message. */
    private static String allErr(CliCapture.Printed r) {
        return r.err() + r.systemErr();
    }

    @Test
    void anOutThatIsAFileIsRefusedBeforeAStudyOrTuningRuns() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        long t0 = System.nanoTime();
        CliCapture.Printed study = run("study", "herding", "--seeds", "101:102", "--out", file.toString());
        assertEquals(2, study.code(), allErr(study));
        assertTrue(study.err().contains("--out = '" + file + "': is a file"), study.err());
        assertFalse(study.out().contains("seeds"), "the study did not run: " + study.out());
        CliCapture.Printed tune = run("tune", "asmf", "--configs", "1", "--seeds", "101", "--out", file.toString());
        assertEquals(2, tune.code(), allErr(tune));
        assertTrue(tune.err().contains("--out = '" + file + "': is a file"), tune.err());
        assertFalse(tune.out().contains("Tuning asmf"), "the tuning did not start: " + tune.out());
        CliCapture.Printed campaign = run("campaign", "run", "policy-sweep", "--seeds", "101", "--out", file.toString());
        assertEquals(2, campaign.code(), allErr(campaign));
        assertTrue(campaign.err().contains("--out = '" + file + "': is a file"), campaign.err());
        assertFalse(campaign.out().contains("Campaign policy-sweep"), "no run started: " + campaign.out());
        CliCapture.Printed bench = run("cluster-bench", "--out", tmp.toString());
        assertEquals(2, bench.code(), allErr(bench));
        assertTrue(bench.err().contains("--out = '" + tmp + "': is a directory; give a file name"), bench.err());
        assertTrue((System.nanoTime() - t0) / 1e9 < 20, "refused at once, not after the work");
    }

    @Test
    void aDecisionLogWhereNothingIsLoggedIsRefused() throws Exception {
        Path logs = tmp.resolve("logs");
        Path out = tmp.resolve("out");
        CliCapture.Printed reference = run("simulate", "--scenario", "asmf-poisson-small", "--decision-log", logs.toString(),
                "--out", out.toString());
        assertEquals(2, reference.code(), allErr(reference));
        assertTrue(reference.err().contains("--decision-log = '" + logs + "': decision logs record balancer decisions")
                && reference.err().contains("model = reference"), reference.err());
        CliCapture.Printed sharing = run("simulate", "--scenario", "load-sharing", "--policies", "sender-random",
                "--decision-log", logs.toString(), "--out", out.toString());
        assertEquals(2, sharing.code(), allErr(sharing));
        assertTrue(sharing.err().contains("--decision-log") && sharing.err().contains("load-sharing protocols have none")
                && sharing.err().contains("sender-random"), sharing.err());
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        CliCapture.Printed onAFile = run("simulate", "--scenario", "quickstart", "--decision-log", file.toString(),
                "--out", out.toString());
        assertEquals(2, onAFile.code(), allErr(onAFile));
        assertTrue(onAFile.err().contains("--decision-log = '" + file + "': is a file"), onAFile.err());
        assertFalse(onAFile.out().contains("Scenario quickstart"), "refused before the header: " + onAFile.out());
        assertFalse(Files.exists(out), "no --out directory is left behind");
        assertFalse(Files.exists(logs), "no decision-log directory is left behind");
    }

    @Test
    void timeScaleWithoutLiveModeIsRefused() {
        CliCapture.Printed r = run("simulate", "--scenario", "quickstart", "--time-scale", "5", "--out", tmp.resolve("out").toString());
        assertEquals(2, r.code(), allErr(r));
        assertTrue(r.err().contains("--time-scale = 5: --time-scale applies to --mode live only"), r.err());
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    @Test
    void opeOnADirectorySaysItTakesDecisionLogFiles() {
        CliCapture.Printed r = run("ope", tmp.toString(), "--policy", "p2c");
        assertEquals(2, r.code(), allErr(r));
        assertTrue(r.err().contains("LOG = " + tmp + ": is a directory; ope takes decision-log files (decisions-*.csv)"), "ERR[" + r.err() + "] STDERR[" + r.systemErr() + "] OUT[" + r.out() + "]");
    }

    @Test
    void benchChecksThePolicyBeforeItsHeader() {
        CliCapture.Printed r = run("bench", "--policy", "jsq", "--nodes", "100", "--requests", "1000");
        assertEquals(2, r.code(), allErr(r));
        assertTrue(r.err().contains("--policy = 'jsq': not a known policy; allowed: " + PolicyCatalog.names()), r.err());
        assertFalse(r.out().contains("Benchmark:"), "no header before the refusal: " + r.out());
    }

    @Test
    void benchNamesTheModelFlagAndItsAllowedValues() {
        CliCapture.Printed r = run("bench", "--model", "foo", "--nodes", "100", "--requests", "1000");
        assertEquals(2, r.code(), allErr(r));
        assertTrue(r.err().contains("--model = 'foo': not an information model; allowed: probe, cached, oracle"), r.err());
        assertFalse(r.err().contains("information.model"), "the flag, not the scenario key: " + r.err());
        assertFalse(r.out().contains("Benchmark:"), "no header before the refusal: " + r.out());
    }

    @Test
    void benchNamesTheNodesFlagAndTheWholeRangeAtBothEnds() {
        for (String n : List.of("1", "2147483647")) {
            CliCapture.Printed r = run("bench", "--nodes", "100," + n, "--requests", "1000");
            assertEquals(2, r.code(), allErr(r));
            assertTrue(r.err().contains("--nodes contains " + n + ": each size must be in [2, 1000000]"), r.err());
            assertFalse(r.out().contains("Benchmark:"), "no header before the refusal: " + r.out());
        }
    }

    @Test
    void benchBoundsRequestsAndRepeatByItsOwnFlags() {
        // --requests 99999999999999 was refused as "scenario quickstart is invalid: series-interval = 1.0 ...",
        // a key the user never set; --repeat 1000000 was accepted and ran for days.
        CliCapture.Printed requests = run("bench", "--requests", "99999999999999", "--nodes", "100");
        assertEquals(2, requests.code(), allErr(requests));
        assertTrue(requests.err().contains("--requests = 99999999999999: must be in [1, 100000000]"), requests.err());
        assertFalse(requests.err().contains("series-interval"), requests.err());
        CliCapture.Printed zero = run("bench", "--requests", "0", "--nodes", "100");
        assertTrue(zero.code() == 2 && zero.err().contains("--requests = 0: must be in [1, 100000000]"), allErr(zero));
        for (String r : List.of("1000000", "21", "0", "-1")) {
            CliCapture.Printed repeat = run("bench", "--repeat", r, "--nodes", "100", "--requests", "1000");
            assertEquals(2, repeat.code(), allErr(repeat));
            assertTrue(repeat.err().contains("--repeat = " + r + ": must be in [1, 20]"), repeat.err());
            assertFalse(repeat.out().contains("Benchmark:"), "no header before the refusal: " + repeat.out());
        }
    }

    @Test
    void benchRefusesASizeListedTwiceOrNone() {
        CliCapture.Printed twice = run("bench", "--nodes", "100,200,100", "--requests", "1000");
        assertEquals(2, twice.code(), allErr(twice));
        assertTrue(twice.err().contains("--nodes = '100,200,100': 100 is listed twice; give each size once"), twice.err());
        assertFalse(twice.out().contains("Benchmark:"), "no header before the refusal: " + twice.out());
        // "--nodes ," was an IndexOutOfBoundsException reported as an unexpected failure.
        CliCapture.Printed none = run("bench", "--nodes", ",", "--requests", "1000");
        assertEquals(2, none.code(), allErr(none));
        assertTrue(none.err().contains("--nodes names no size; give one or more sizes in [2, 1000000]"), none.err());
        assertFalse(allErr(none).contains("unexpected failure"), allErr(none));
    }

    @Test
    void benchLengthensTheSeriesIntervalRatherThanRefuseAKeyNobodySet() {
        // 300,000 requests at rho*n = 0.02 requests/s last 1.5e7 s: 1.5e7 points at the scenario's 1 s interval
        // were refused (series-interval); bench reports no series, so it records fewer points instead.
        CliCapture.Printed r = run("bench", "--nodes", "2", "--utilisation", "0.01", "--requests", "300000");
        assertEquals(0, r.code(), allErr(r));
        assertTrue(r.out().contains("Benchmark:") && r.out().contains("     300000 "), r.out());
        // A series-interval the user sets is kept, and then its refusal names the user's own key.
        CliCapture.Printed set = run("bench", "--nodes", "2", "--utilisation", "0.01", "--requests", "300000",
                "--set", "series-interval=0.5");
        assertEquals(2, set.code(), allErr(set));
        assertTrue(set.err().contains("series-interval = 0.5"), set.err());
    }

    @Test
    void anEmptyPolicyListNamesEveryCatalogPolicy() throws Exception {
        CliCapture.Printed r = run("simulate", "--scenario", "quickstart", "--set", "policies=[]", "--out", tmp.toString());
        assertEquals(2, r.code(), allErr(r));
        for (PolicyCatalog.Entry e : PolicyCatalog.entries()) {
            assertTrue(r.err().contains(e.name()), "the allowed names come from the catalog; missing " + e.name() + ": " + r.err());
        }
        assertTrue(r.err().contains("lin-ts") && r.err().contains("weighted-random"), r.err());
        Path campaign = Files.writeString(tmp.resolve("none.conf"), "name = none\nscenarios = [quickstart]\npolicies = []\n");
        CliCapture.Printed c = run("campaign", "run", campaign.toString(), "--out", tmp.resolve("c").toString());
        assertEquals(2, c.code(), allErr(c));
        for (PolicyCatalog.Entry e : PolicyCatalog.entries()) {
            assertTrue(c.err().contains(e.name()), "a campaign's empty list names the catalog too; missing " + e.name() + ": " + c.err());
        }
    }

    @Test
    void aSweptCampaignSetKeyWarnsAndAnInvalidValueIsStillRefused() {
        CliCapture.Printed invalid = run("campaign", "run", "policy-sweep", "--seeds", "101", "--set", "arrivals.utilisation=2",
                "--out", tmp.resolve("c").toString());
        assertEquals(2, invalid.code(), allErr(invalid));
        assertTrue(invalid.err().contains("arrivals.utilisation = 2.0"), invalid.err());
        assertFalse(Files.exists(tmp.resolve("c")), "nothing created");
        // A valid value: the warning comes with the plan, before any run (here /proc stops it at once).
        CliCapture.Printed valid = run("campaign", "run", "policy-sweep", "--seeds", "101", "--set", "arrivals.utilisation=0.3",
                "--set", "duration=100", "--out", "/proc/loadlab-campaign");
        assertEquals(2, valid.code(), allErr(valid));
        assertTrue(valid.systemErr().contains("warning: --set arrivals.utilisation has no effect: the campaign sweeps"
                + " arrivals.utilisation"), valid.systemErr());
        assertFalse(valid.systemErr().contains("--set duration"), "an unswept key is no warning: " + valid.systemErr());
    }

    @Test
    void everyCommandDescriptionFormatsAndStartsWithACompleteSentence() {
        for (Map.Entry<String, CommandLine> c : LoadLabCli.commandLine().getSubcommands().entrySet()) {
            // picocli formats every description with String.format: a bare % warns on every usage message.
            formats(c.getKey(), c.getValue());
            String[] description = c.getValue().getCommandSpec().usageMessage().description();
            assertTrue(description.length > 0, c.getKey() + " has a description");
            String first = description[0];
            assertTrue(first.endsWith(".") || first.endsWith(".)"), c.getKey() + ": the first line, which the command list"
                    + " shows, is a complete sentence: '" + first + "'");
            for (int i = 1; i < description.length; i++) {
                assertFalse(!description[i].isEmpty() && !description[i - 1].isEmpty()
                        && !description[i - 1].endsWith(".") && !description[i - 1].endsWith(":"),
                        c.getKey() + ": a line break inside a sentence: '" + description[i - 1] + "' / '" + description[i] + "'");
            }
        }
    }

    private static void formats(String name, CommandLine c) {
        List<String> lines = new java.util.ArrayList<>(List.of(c.getCommandSpec().usageMessage().description()));
        c.getCommandSpec().options().forEach(o -> lines.addAll(List.of(o.description())));
        for (String line : lines) {
            try {
                String.format(java.util.Locale.ROOT, line);
            } catch (java.util.IllegalFormatException e) {
                throw new AssertionError(name + ": description '" + line + "' is not a format string (escape % as %%)", e);
            }
        }
        c.getSubcommands().forEach((n, sub) -> formats(name + " " + n, sub));
    }
}

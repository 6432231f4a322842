package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        // The message names the flag the user typed, not the scenario key it becomes (policies[1]).
        String[] r = run("simulate", "--scenario", "quickstart", "--policies", "p2c,p3c", "--out", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("--policies = 'p2c,p3c': 'p3c' is not a known policy; allowed: random, round-robin")
                && r[1].contains("load-sharing protocols (no balancer): none"), r[1]);
        assertFalse(r[1].contains("policies["), r[1]);
        assertFalse(Files.exists(tmp.resolve("results.csv")), "nothing is written for bad input");
        String[] one = run("simulate", "--scenario", "quickstart", "--policies", "p9c", "--out", tmp.toString());
        assertEquals("2", one[0]);
        assertTrue(one[1].startsWith("error: --policies = 'p9c': 'p9c' is not a known policy; allowed: random"), one[1]);
        String[] two = run("simulate", "--scenario", "quickstart", "--policies", "p9c,p2c,rando");
        assertEquals("2", two[0]);
        assertTrue(two[1].contains("--policies = 'p9c,p2c,rando': 'p9c', 'rando' are not known policies; allowed: random"), two[1]);
        String[] twice = run("simulate", "--scenario", "quickstart", "--policies", "p2c, p2c");
        assertEquals("2", twice[0]);
        assertTrue(twice[1].contains("--policies = 'p2c, p2c': 'p2c' is listed twice"), twice[1]);
        String[] none = run("simulate", "--scenario", "quickstart", "--policies", ",");
        assertEquals("2", none[0]);
        assertTrue(none[1].contains("--policies = ',': names no policy; allowed: random"), none[1]);
        // A policy the scenario cannot run (a check across keys) names the flag too.
        String[] reference = run("simulate", "--scenario", "asmf-poisson-small", "--policies", "lin-ts");
        assertEquals("2", reference[0]);
        assertTrue(reference[1].contains("--policies = 'lin-ts': 'lin-ts' is not one of the reference model's policies"),
                reference[1]);
        assertFalse(reference[1].contains("policies["), reference[1]);
        for (String[] bad : List.of(r, one, two, twice, none, reference)) {
            noJavaNames(bad[1]);
        }
        assertFalse(Files.exists(tmp.resolve("results.csv")), "nothing is written for bad input");
    }

    @Test
    void opeRefusesAnSlaTheLatencyRewardWouldIgnore() throws Exception {
        Path log = Files.writeString(tmp.resolve("decisions-lin-ts-101.csv"), org.loadlab.experiment.ope.DecisionLogFile.HEADER
                + "\n1,0.1,0.1,0.2,0,0.5,lin_ts,200,0:0:0:0.1;1:0:0:0.1\n");
        // --sla 5 with --reward latency ran and gave the same figures as without it
        String[] r = run("ope", log.toString(), "--policy", "p2c", "--reward", "latency", "--sla", "5");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].startsWith("error: --sla = 5.0: only --reward sla reads it"), r[1]);
        String[] ok = run("ope", log.toString(), "--policy", "p2c", "--reward", "latency");
        assertEquals("0", ok[0], ok[1]);
    }

    @Test
    void opeRefusesALogGivenTwice() throws Exception {
        Path log = Files.writeString(tmp.resolve("decisions-lin-ts-101.csv"), org.loadlab.experiment.ope.DecisionLogFile.HEADER
                + "\n1,0.1,0.1,0.2,0,0.5,lin_ts,200,0:0:0:0.1;1:0:0:0.1\n");
        Path same = tmp.resolve(".").resolve("decisions-lin-ts-101.csv");
        // it was pooled twice into "all logs": each decision counted twice, the intervals narrower for nothing
        String[] r = run("ope", log.toString(), same.toString(), "--policy", "p2c");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].startsWith("error: LOG = " + same + ": is given twice (also as " + log + ")"), r[1]);
    }

    @Test
    void opeRefusesALogThatIsNotTextWithOneLineAndExitCode2() throws Exception {
        Path log = tmp.resolve("decisions-lin-ts-101.csv");
        Files.write(log, new byte[] {0, 1, 2, (byte) 0xff, (byte) 0xfe});
        // it was "error: Input length = 1" with exit code 1: neither the file nor what is wrong
        String[] r = run("ope", log.toString(), "--policy", "p2c");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].startsWith("error: LOG = " + log + " is not a decision log: it is not UTF-8 text"), r[1]);
        assertEquals(1, r[1].strip().lines().count(), r[1]);
    }

    @Test
    void studyNamesTheNearestStudyAndRefusesSeedsForHashRemapping() {
        String[] typo = run("study", "herdin", "--out", tmp.toString());
        assertEquals("2", typo[0], typo[1]);
        assertTrue(typo[1].contains("error: study 'herdin' does not exist; did you mean herding? allowed: herding, cold-start"),
                typo[1]);
        // hash-remapping is deterministic and takes no seeds: they were ignored (and "seeds [1, 2, 3]" printed)
        String[] seeds = run("study", "hash-remapping", "--seeds", "1:3", "--out", tmp.toString());
        assertEquals("2", seeds[0], seeds[1]);
        assertTrue(seeds[1].contains("error: --seeds = '1:3': study hash-remapping takes no seeds"), seeds[1]);
        assertFalse(Files.exists(tmp.resolve("hash-remapping.csv")), "nothing is written for bad input");
    }

    @Test
    void tuneGivesTheReasonForTheSideOfTheDurationScaleRangeThatWasCrossed() {
        String[] low = run("tune", "asmf", "--duration-scale", "0.01");
        assertEquals("2", low[0], low[1]);
        assertTrue(low[1].contains("--duration-scale = 0.01: must be in [0.05, 1] (shorter runs end before"), low[1]);
        // 2 was refused because "shorter runs end before the queues ... settle": the wrong reason
        String[] high = run("tune", "asmf", "--duration-scale", "2");
        assertEquals("2", high[0], high[1]);
        assertTrue(high[1].contains("--duration-scale = 2.0: must be in [0.05, 1] (it only shortens runs"), high[1]);
        assertFalse(high[1].contains("shorter runs"), high[1]);
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
        assertTrue(seeds[1].contains("--seeds = '120:101': block 120:101 ends before it starts"), seeds[1]);
        // "--seeds 1,1" used to run seed 1 once, silently, while "--policies p2c,p2c" is refused.
        String[] twice = run("simulate", "--scenario", "quickstart", "--seeds", "1,1", "--out", tmp.toString());
        assertEquals("2", twice[0]);
        assertTrue(twice[1].contains("--seeds = '1,1': seed 1 is given twice; give each seed once (blocks A:B must not overlap)"),
                twice[1]);
        String[] overlap = run("simulate", "--scenario", "quickstart", "--seeds", "1:5,3", "--out", tmp.toString());
        assertEquals("2", overlap[0]);
        assertTrue(overlap[1].contains("--seeds = '1:5,3': seed 3 is given twice (in 1:5 and as 3)"), overlap[1]);
        for (String[] cmd : List.of(new String[] {"study", "herding", "--seeds", "101,101", "--out", tmp.toString()},
                new String[] {"tune", "asmf", "--seeds", "101,101", "--out", tmp.resolve("t").toString()},
                new String[] {"campaign", "run", "policy-sweep", "--seeds", "101,101", "--out", tmp.resolve("c").toString()})) {
            String[] other = run(cmd);
            assertEquals("2", other[0], String.join(" ", cmd));
            assertTrue(other[1].contains("--seeds = '101,101': seed 101 is given twice"), String.join(" ", cmd) + ": " + other[1]);
        }
        assertFalse(Files.exists(tmp.resolve("results.csv")), "nothing is written for bad input");
        String[] mode = run("simulate", "--scenario", "quickstart", "--mode", "fast");
        assertEquals("2", mode[0]);
        assertTrue(mode[1].contains("--mode = 'fast'") && mode[1].contains("sim, live"), mode[1]);
        String[] set = run("simulate", "--scenario", "quickstart", "--set", "nodes.count");
        assertEquals("2", set[0]);
        assertTrue(set[1].contains("--set 'nodes.count'") && set[1].contains("key=value"), set[1]);
        String[] negative = run("simulate", "--scenario", "quickstart", "--set", "nodes.count=-4");
        assertEquals("2", negative[0]);
        assertTrue(negative[1].contains("nodes.count = -4"), negative[1]);
        // study and tune name the flag and its value once ("--seeds = '5:1': seeds = '5:1': ..." before).
        for (String[] args : List.of(new String[] {"study", "herding", "--seeds", "5:1", "--out", tmp.toString()},
                new String[] {"tune", "asmf", "--seeds", "5:1", "--configs", "1"})) {
            String[] r = run(args);
            assertEquals("2", r[0], r[1]);
            assertTrue(r[1].contains("error: --seeds = '5:1': block 5:1 ends before it starts"), r[1]);
            assertFalse(r[1].contains("seeds = '5:1': seeds"), r[1]);
        }
    }

    @Test
    void liveModeRefusesAPartitionBeforeAnyRunStarts() {
        Path out = tmp.resolve("out");
        String[] r = run("simulate", "--scenario", "quickstart", "--mode", "live", "--out", out.toString(),
                "--set", "events=[{type = partition, at = 5, until = 9, nodes = [1]}]");
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("--mode = 'live'") && r[1].contains("partition at 5.0 s")
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

    /** No message a user sees names a Java exception class. */
    private static void noJavaNames(String text) {
        assertFalse(text.matches("(?s).*\\b[A-Za-z]+(Exception|Error)\\b.*"), "a Java exception name reached the user: " + text);
    }

    @Test
    void noCommandPrintsUsageAndFails() {
        String[] r = run();
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("Usage: loadlab") && r[1].contains("simulate") && r[1].contains("name a command"), r[1]);
        String[] campaign = run("campaign");
        assertEquals("2", campaign[0]);
        assertTrue(campaign[1].contains("run, resume, status or list"), campaign[1]);
    }

    @Test
    void mistypedNamesGetTheNearestValidOne() {
        String[] option = run("simulate", "--scenaro", "quickstart");
        assertEquals("2", option[0]);
        assertTrue(option[1].contains("unknown option '--scenaro'; did you mean --scenario?"), option[1]);
        assertFalse(option[1].toLowerCase(java.util.Locale.ROOT).contains("missing required option"),
                "the typo, not its consequence: " + option[1]);
        String[] command = run("simulat", "--scenario", "quickstart");
        assertEquals("2", command[0]);
        assertTrue(command[1].contains("unknown command 'simulat'; did you mean simulate?"), command[1]);
        String[] sub = run("campaign", "rn", "policy-sweep");
        assertTrue(sub[1].contains("did you mean run?"), sub[1]);
        String[] seeds = run("simulate", "--scenario", "quickstart", "--seed", "3");
        assertTrue(seeds[1].contains("did you mean --seeds?"), seeds[1]);
    }

    @Test
    void everyErrorStartsWithLowerCaseError() {
        // picocli's own messages (missing or invalid values, an unknown help topic) and LoadLab's, alike:
        // "error: " and then a lower-case word, a flag or a quote, never "Error:" or "error: Missing ...".
        List<String[]> cases = List.of(new String[] {"validate"}, new String[] {"simulate", "--seeds"},
                new String[] {"bench", "--nodes", "x"}, new String[] {"compare"}, new String[] {"help", "foo"},
                new String[] {"ope", "x.csv"}, new String[] {"loadgen", "--rate", "x"}, new String[] {"tune", "foo"},
                new String[] {"simulate", "--scenario", "quikstart"}, new String[] {"bench", "--repeat", "0"},
                new String[] {"campaign"}, new String[] {});
        for (String[] args : cases) {
            String[] r = run(args);
            String what = "loadlab " + String.join(" ", args) + ": " + r[1];
            assertEquals("2", r[0], what);
            String first = r[1].lines().filter(l -> l.contains("rror")).findFirst().orElse("");
            assertTrue(first.matches("error: [a-z-'`].*"), what);
            assertFalse(r[1].contains("Error:"), what);
        }
    }

    @Test
    void hiddenCommandsAreNeitherListedNorSuggested() {
        // messaging-baseline is plumbing: the JVMs cluster-bench starts (127.0.0.1 only, a machine-read result line).
        String[] help = CliCapture.run("--help");
        assertEquals("0", help[0]);
        assertTrue(help[1].contains("cluster-bench") && !help[1].contains("messaging-baseline"), help[1]);
        for (String typo : List.of("messaging", "messaging-baselin", "mesaging-baseline")) {
            String[] r = run(typo);
            assertEquals("2", r[0]);
            assertTrue(r[1].contains("unknown command '" + typo + "'") && r[1].contains("(commands: simulate,"), r[1]);
            assertFalse(r[1].contains("messaging-baseline"), "a hidden command is offered: " + r[1]);
        }
        // Still there for cluster-bench: it runs and checks its flags.
        String[] direct = run("messaging-baseline", "--port", "1");
        assertEquals("2", direct[0]);
        assertTrue(direct[1].contains("a pinger needs --echo-ports"), direct[1]);
    }

    /**
     * cluster-bench names the flag at fault before any JVM starts: one line used to list every
     * condition, --start-rate 0 ran, and --window 0 or --base-port 70000 ended in "an unexpected
     * failure" from the baseline's child JVM.
     */
    @Test
    void clusterBenchNamesTheFlagAtFaultBeforeAnyJvmStarts() {
        String[][] cases = {
            {"--step", "1", "--step = 1.0: allowed a factor above 1"},
            {"--max-steps", "0", "--max-steps = 0: allowed 1 or more"},
            {"--bound", "-1", "--bound = -1: allowed 0 (no admission bound) or more"},
            {"--warmup", "-1", "--warmup = -1.0: allowed 0 or more seconds"},
            {"--duration", "2", "--duration = 2.0: allowed more seconds than --warmup (3.0)"},
            {"--start-rate", "0", "--start-rate = 0.0: allowed a rate above 0 requests/s"},
            {"--nodes", "1", "--nodes = 1: allowed 2 or more"},
            {"--half-runs", "0", "--half-runs = 0: allowed 1..9 experiments at half the saturation rate"},
            {"--window", "0", "--window = 0: allowed 1 or more"},
            {"--base-port", "70000", "--base-port = 70000: allowed 1..65091 (the benchmark uses ports up to --base-port + 444"
                    + " for --jvms 4)"},
            {"--http-port", "65535", "--http-port = 65535: allowed 1..65531"},
        };
        for (String[] c : cases) {
            String[] r = run("cluster-bench", c[0], c[1]);
            assertEquals("2", r[0], c[0] + " " + c[1] + ": " + r[1]);
            assertTrue(r[1].startsWith("error: " + c[2]), r[1]);
            noJavaNames(r[1]);
        }
    }

    @Test
    void anUnwritableOrInvalidOutIsRefusedBeforeAnyRun() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        String[] below = run("simulate", "--scenario", "quickstart", "--out", file.resolve("sub").toString());
        assertEquals("2", below[0]);
        assertTrue(below[1].contains("--out = '" + file.resolve("sub") + "'") && below[1].contains("is a file"), below[1]);
        String[] proc = run("simulate", "--scenario", "quickstart", "--out", "/proc/loadlab-results");
        assertEquals("2", proc[0]);
        assertTrue(proc[1].contains("--out = '/proc/loadlab-results': cannot write there"), proc[1]);
        noJavaNames(proc[1]);
        String[] campaign = run("campaign", "run", "policy-sweep", "--seeds", "1", "--out", "/proc/loadlab-campaign");
        assertEquals("2", campaign[0]);
        assertTrue(campaign[1].contains("--out = '/proc/loadlab-campaign': cannot write there"), campaign[1]);
        noJavaNames(campaign[1]);
    }

    @Test
    void liveModeWithTheReferenceModelIsRefusedUpFront() {
        String[] r = run("simulate", "--scenario", "asmf-poisson-small", "--mode", "live", "--out", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("--mode = 'live'") && r[1].contains("model = reference") && r[1].contains("without --mode live"), r[1]);
        noJavaNames(r[1]);
        String[] scale = run("simulate", "--scenario", "quickstart", "--mode", "live", "--time-scale", "1e9");
        assertEquals("2", scale[0]);
        assertTrue(scale[1].contains("--time-scale = 1e9: must be a number in (0, 10000.0]"), scale[1]);
    }

    @Test
    void aJobThatCannotFitTheHeapIsRefusedWithTheEstimateAndTheFlags() {
        // Runs are written one by one, so the running runs count: two runs of 10^6 nodes and the
        // finished ones waiting to be written need about 3 GB, more than the tests' 2 GB heap.
        String[] r = run("simulate", "--scenario", "quickstart", "--set", "nodes.count=1000000", "--seeds", "1:400",
                "--workers", "2", "--out", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("2000 runs of 1000000 nodes need about") && r[1].contains("of heap")
                && r[1].contains("LOADLAB_JAVA_OPTS") && r[1].contains("--workers 1"), r[1]);
        assertFalse(Files.exists(tmp.resolve("results.csv")));
    }

    @Test
    void oneRunThatCannotFitTheHeapIsOneRun() {
        // 10^6 nodes and 10^7 points (10^5 s at 10 ms): one run needs about 2.3 GB, the nodes most of it.
        String[] r = run("simulate", "--scenario", "quickstart", "--set", "nodes.count=1000000", "--set", "duration=0", "--set",
                "requests=100000", "--set", "arrivals.rate=1", "--set", "series-interval=0.01", "--policies", "p2c",
                "--seeds", "1", "--out", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("quickstart: 1 run of 1000000 nodes needs about"), r[1]);
        assertTrue(r[1].endsWith("or run fewer at once (--workers 1, a smaller nodes.count)\n"), r[1]);
    }

    @Test
    void aJobWhoseTimeSeriesDoNotFitTheHeapIsToldToRecordFewerPoints() {
        // duration = 0: 10^6 requests at 16 requests/s last 62,500 s, 8.9 million points of 7 ms; 3 of
        // them kept at once need 2.7 GB, while the 20 nodes need 22 kB: the series, not nodes.count.
        String[] r = run("simulate", "--scenario", "quickstart", "--set", "duration=0", "--set", "requests=1000000",
                "--set", "series-interval=0.007", "--policies", "p2c", "--seeds", "1:3", "--workers", "2", "--out", tmp.toString());
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("quickstart: 3 runs of 20 nodes need about"), r[1]);
        assertTrue(r[1].endsWith("or record fewer time-series points (a longer series-interval: 0.007 s gives 8928571 points per run;"
                + " with duration = 0 a run lasts until its requests end), or run fewer at once (--workers 1)\n"), r[1]);
        assertFalse(r[1].contains("nodes.count"), r[1]);
    }

    @Test
    void aCampaignThatCannotFitTheHeapIsRefusedBeforeItsFirstRun() {
        String[] r = run("campaign", "run", "policy-sweep", "--set", "nodes.count=1000000", "--out", tmp.resolve("c").toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("360 runs need about") && r[1].contains("LOADLAB_JAVA_OPTS"), r[1]);
        assertFalse(Files.exists(tmp.resolve("c")), "nothing created");
    }

    @Test
    void localClusterFlagsAreCheckedBeforeAnyMemberStarts() {
        String[] scenario = run("local-cluster", "--experiment", "nosuch");
        assertEquals("2", scenario[0]);
        assertTrue(scenario[1].contains("--experiment = 'nosuch': no such built-in scenario or file; built-in: quickstart"), scenario[1]);
        String[] heap = run("local-cluster", "--member-heap", "lots");
        assertEquals("2", heap[0]);
        assertTrue(heap[1].contains("--member-heap = 'lots': not a size") && heap[1].contains("384m"), heap[1]);
        String[] port = run("local-cluster", "--http-port", "70000");
        assertEquals("2", port[0]);
        assertTrue(port[1].contains("--http-port = 70000: allowed: 1..65535"), port[1]);
        String[] base = run("local-cluster", "--base-port", "65534", "--nodes", "3");
        assertTrue(base[1].contains("--base-port = 65534: allowed: 1..65532"), base[1]);
        String[] reference = run("local-cluster", "--experiment", "asmf-poisson-small");
        assertTrue(reference[1].contains("model = reference"), reference[1]);
        String[] policy = run("local-cluster", "--experiment", "quickstart", "--policy", "p3c");
        assertEquals("2", policy[0]);
        assertTrue(policy[1].contains("--policy = 'p3c': 'p3c' is not a known policy; allowed: random"), policy[1]);
        assertFalse(policy[1].contains("policies["), "names the flag, not the scenario key: " + policy[1]);
        String[] policies = run("local-cluster", "--experiment", "quickstart", "--policy", "p2c,lin-ts");
        assertEquals("2", policies[0]);
        assertTrue(policies[1].contains("--policy = 'p2c,lin-ts': takes one policy; allowed: random"), policies[1]);
        // What the gateway refuses with a 400 is refused before the members start, too (it took their ~25 s start).
        String[] oracle = run("local-cluster", "--experiment", "quickstart", "--experiment-set", "information.model=oracle");
        assertEquals("2", oracle[0]);
        assertTrue(oracle[1].contains("--experiment = 'quickstart': cluster mode has no oracle view of remote nodes"
                + " (information.model = oracle; allowed: probe, cached)"), oracle[1]);
        String[] many = run("local-cluster", "--experiment", "quickstart", "--experiment-set", "nodes.count=6000");
        assertEquals("2", many[0]);
        assertTrue(many[1].contains("too many nodes") && many[1].contains("nodes.count = 6000; allowed: 1..5000"), many[1]);
        String[] crash = run("local-cluster", "--experiment", "quickstart", "--experiment-set",
                "events=[{type=crash, at=5, nodes=[1]}]");
        assertEquals("2", crash[0]);
        assertTrue(crash[1].contains("'crash' is a simulated membership event"), crash[1]);
        for (String[] r : List.of(scenario, heap, port, base, reference, policy, policies, oracle, many, crash)) {
            noJavaNames(r[1]);
        }
    }

    /**
     * A mistyped LoadLab setting (--set) and a port past 65535 stop a member before it starts;
     * the typo used to be taken silently and the member ran with the default.
     */
    @Test
    void clusterSettingsAndPortsAreCheckedBeforeAMemberStarts() {
        String[] typo = run("cluster", "--role", "all", "--port", "0", "--set", "loadlab.cluster.jit-warmupp = 1s");
        assertEquals("2", typo[0]);
        assertTrue(typo[1].contains("--set loadlab.cluster.jit-warmupp: no such setting; the settings of loadlab.cluster are: ")
                && typo[1].contains("jit-warmup, "), typo[1]);
        String[] local = run("local-cluster", "--nodes", "1", "--set", "loadlab.metrics.kamonn = off");
        assertEquals("2", local[0]);
        assertTrue(local[1].contains("--set loadlab.metrics.kamonn: no such setting; the settings of loadlab.metrics are: ")
                && local[1].contains("kamon"), local[1]);
        String[] notHocon = run("local-cluster", "--nodes", "1", "--set", "loadlab.cluster.stop-timeout = {");
        assertEquals("2", notHocon[0]);
        assertTrue(notHocon[1].contains("--set 'loadlab.cluster.stop-timeout = {': not a setting (KEY = VALUE in HOCON)"),
                notHocon[1]);
        String[] port = run("cluster", "--role", "node", "--port", "99999");
        assertEquals("2", port[0]);
        assertTrue(port[1].contains("--port = 99999: allowed: 0..65535"), port[1]);
        String[] seed = run("cluster", "--role", "node", "--port", "0", "--seed-nodes", "127.0.0.1:99999");
        assertEquals("2", seed[0]);
        assertTrue(seed[1].contains("--seed-nodes = '127.0.0.1:99999': neither host:port nor pekko://loadlab@host:port"), seed[1]);
        // A value out of range used to be taken: a gateway that answered every POST /experiments with 429.
        String[] none = run("cluster", "--role", "all", "--port", "0", "--set", "loadlab.cluster.max-running-experiments = 0");
        assertEquals("2", none[0]);
        assertTrue(none[1].contains("loadlab.cluster.max-running-experiments = 0: allowed a whole number of 1 or more"), none[1]);
        String[] flush = run("local-cluster", "--nodes", "1", "--set", "loadlab.cluster.flush-interval = 0s");
        assertEquals("2", flush[0]);
        assertTrue(flush[1].contains("loadlab.cluster.flush-interval = \"0s\": allowed a duration above 0"), flush[1]);
        // A JVM option the members' JVM refuses used to start them all, and end in "an unexpected failure".
        String[] jvm = run("local-cluster", "--nodes", "1", "--member-jvm-opt=-XX:+UseNoSuchGC");
        assertEquals("2", jvm[0]);
        assertTrue(jvm[1].contains("--member-jvm-opt = '-XX:+UseNoSuchGC': the members' JVM refuses it (Unrecognized VM option"
                + " 'UseNoSuchGC'"), jvm[1]);
        // A gateway beyond loopback without a token started its actor system and then exited 1.
        String[] open = run("cluster", "--role", "gateway", "--port", "0", "--http-host", "0.0.0.0", "--http-port", "0",
                "--set", "loadlab.metrics.kamon=off", "--set", "loadlab.cluster.http.require-token=auto");
        assertEquals("2", open[0]);
        assertTrue(open[1].contains("--http-host = '0.0.0.0': beyond loopback the control API needs a bearer token"), open[1]);
        for (String[] r : List.of(typo, local, notHocon, port, seed, none, flush, jvm, open)) {
            noJavaNames(r[1]);
        }
    }

    @Test
    void anEmptyScenarioFileWarnsThatTheDefaultsRun() throws Exception {
        Path empty = Files.writeString(tmp.resolve("empty.conf"), "# nothing here yet\n");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream before = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        String[] r;
        try {
            r = run("validate", empty.toString());
        } finally {
            System.setErr(before);
        }
        assertEquals("0", r[0], r[1]);
        String warning = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(warning.contains("warning: scenario file " + empty + " is empty") && warning.contains("defaults"), warning);
    }

    @Test
    void badCampaignSetIsNamed() {
        String[] r = run("campaign", "run", "policy-sweep", "--seeds", "1", "--set", "nodes.cont=3", "--out", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("nodes.cont: unknown key"), r[1]);
        noJavaNames(r[1]);
    }
}

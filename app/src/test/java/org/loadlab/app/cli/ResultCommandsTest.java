package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plot DIR}, {@code compare A B} and {@code campaign list} as a user calls them: their
 * files open and hold the expected series, and wrong directories or metrics are exit 2.
 */
class ResultCommandsTest {
    @TempDir
    Path tmp;

    private static CliCapture.Printed run(String... args) {
        return CliCapture.runCapturingSystemOut(args);
    }

    @AfterEach
    void clear() {
        System.clearProperty("loadlab.campaigns.root");
    }

    private Path simulate(String name, String... sets) {
        Path dir = tmp.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of("simulate", "--scenario", "quickstart", "--policies", "random,p2c",
                "--seeds", "1:3", "--set", "duration=60", "--set", "warmup=5", "--out", dir.toString()));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        CliCapture.Printed r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return dir;
    }

    @Test
    void plotDrawsTheCdfQueueAndSharePerPolicy() throws Exception {
        Path dir = simulate("sim");
        // Left by an earlier run into the same directory (another scenario): replaced, not kept.
        Files.createDirectories(dir.resolve("plots"));
        Files.writeString(dir.resolve("plots/cdf-old-scenario.png"), "stale");
        Files.writeString(dir.resolve("plots/notes.txt"), "the user's own file");
        CliCapture.Printed r = run("plot", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("3 plots of 6 runs"), r.out());
        for (String png : List.of("cdf-quickstart.png", "queue-quickstart.png", "share-quickstart.png")) {
            assertNotNull(ImageIO.read(dir.resolve("plots").resolve(png).toFile()), png);
        }
        assertTrue(Files.notExists(dir.resolve("plots/cdf-old-scenario.png")), "the old run's chart is gone");
        assertTrue(Files.exists(dir.resolve("plots/notes.txt")), "files plot did not draw are left alone");
    }

    @Test
    void plotOfOneRunSaysOneRun() throws Exception {
        Path dir = tmp.resolve("one");
        CliCapture.Printed sim = run("simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1", "--set",
                "duration=30", "--set", "warmup=5", "--out", dir.toString());
        assertEquals(0, sim.code(), sim.err());
        assertTrue(sim.out().contains("1 run in "), sim.out());
        CliCapture.Printed r = run("plot", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("3 plots of 1 run in " + dir.resolve("plots") + ":"), r.out());
    }

    @Test
    void compareShowsBothSidesWithPairedTests() throws Exception {
        Path a = simulate("a");
        Path b = simulate("b", "information.model=cached");
        Path out = tmp.resolve("cmp");
        CliCapture.Printed r = run("compare", a.toString(), b.toString(), "--out", out.toString(), "--metrics", "response_mean_s,max_queue");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("mean response time (s), lower is better") && r.out().contains("max queue length"), r.out());
        String p2c = r.out().lines().filter(l -> l.contains(" p2c ")).findFirst().orElseThrow();
        assertTrue(p2c.contains("  3  "), "3 seeds paired: " + p2c);
        List<String> csv = Files.readAllLines(out.resolve("compare.csv"));
        assertEquals(1 + 2 * 2, csv.size(), "header + 2 policies x 2 metrics");
        assertNotNull(ImageIO.read(out.resolve("plots/compare-response_mean_s.png").toFile()));
    }

    @Test
    void wrongDirectoriesAndMetricsAreBadInput() throws Exception {
        CliCapture.Printed missing = run("plot", tmp.resolve("nowhere").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("DIR = '" + tmp.resolve("nowhere") + "': no such directory"), missing.err());
        Files.createDirectories(tmp.resolve("empty"));
        CliCapture.Printed empty = run("compare", tmp.resolve("empty").toString(), tmp.resolve("empty").toString());
        assertEquals(2, empty.code());
        assertTrue(empty.err().contains("holds neither results.json") && empty.err().contains("A = '"), empty.err());
        Path a = simulate("m");
        CliCapture.Printed metric = run("compare", a.toString(), a.toString(), "--metrics", "latency");
        assertEquals(2, metric.code());
        assertTrue(metric.err().contains("--metrics = 'latency': 'latency' is not a metric; allowed: throughput_rps"), metric.err());
        // Named as --policies are: the value as typed, a name given twice, no name at all.
        CliCapture.Printed twice = run("compare", a.toString(), a.toString(), "--metrics", "max_queue,max_queue");
        assertEquals(2, twice.code());
        assertTrue(twice.err().contains("--metrics = 'max_queue,max_queue': 'max_queue' is listed twice; name each metric once"),
                twice.err());
        CliCapture.Printed none = run("compare", a.toString(), a.toString(), "--metrics", ",");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("--metrics = '': names no metric; allowed: throughput_rps"), none.err());
        // report names its DIR the same way: missing, a file, a simulate directory.
        CliCapture.Printed noReport = run("report", tmp.resolve("nowhere").toString());
        assertEquals(2, noReport.code());
        assertTrue(noReport.err().contains("DIR = '" + tmp.resolve("nowhere") + "': no such directory; give a campaign directory"),
                noReport.err());
        CliCapture.Printed simulateDir = run("report", a.toString());
        assertEquals(2, simulateDir.code());
        assertTrue(simulateDir.err().contains("DIR = '" + a + "': is a `loadlab simulate` directory, not a campaign's; draw it with"
                + " `loadlab plot " + a + "`"), simulateDir.err());
        CliCapture.Printed emptyDir = run("report", tmp.resolve("empty").toString());
        assertEquals(2, emptyDir.code());
        assertTrue(emptyDir.err().contains("DIR = '" + tmp.resolve("empty") + "': is not a finished campaign directory"), emptyDir.err());
    }

    @Test
    void campaignListShowsBuiltInsAndCampaignsRunWithOut() throws Exception {
        System.setProperty("loadlab.campaigns.root", tmp.resolve("root").toString());
        Path dir = tmp.resolve("elsewhere");
        Path file = Files.writeString(tmp.resolve("tiny.conf"), "name = tiny\nseeds = \"1:2\"\n"
                + "scenarios = [{ scenario = quickstart, set { duration = 30, warmup = 0 } }]\npolicies = [random, p2c]\n");
        CliCapture.Printed ran = run("campaign", "run", file.toString(), "--out", dir.toString(), "--set", "nodes.count=5");
        assertEquals(0, ran.code(), ran.err());
        CliCapture.Printed list = run("campaign", "list");
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains("Built-in campaigns") && list.out().contains("policy-sweep"), list.out());
        assertTrue(list.out().contains("tiny-") && list.out().contains("finished") && list.out().contains(dir.toString()), list.out());
    }

    @Test
    void compareSkipsAMetricThatIsZeroInEveryRunAndSaysSo() throws Exception {
        Path a = simulate("za");
        Path out = tmp.resolve("zcmp");
        Files.createDirectories(out.resolve("plots"));
        Files.writeString(out.resolve("plots/compare-requests_rejected.png"), "an earlier comparison's chart");
        CliCapture.Printed r = run("compare", a.toString(), a.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Zero in every run on both sides, so not plotted: requests_rejected."), r.out());
        assertTrue(Files.notExists(out.resolve("plots/compare-requests_rejected.png")));
        assertNotNull(ImageIO.read(out.resolve("plots/compare-response_mean_s.png").toFile()));
    }

    @Test
    void aSimulateDirectoryIsComparedAtItsPointOfACampaign() throws Exception {
        System.setProperty("loadlab.campaigns.root", tmp.resolve("root").toString());
        Path campaign = tmp.resolve("sweep");
        Path file = Files.writeString(tmp.resolve("sweep.conf"), "name = sweep\nseeds = \"1:3\"\n"
                + "scenarios = [{ scenario = quickstart, set { duration = 60, warmup = 5 } }]\n"
                + "sweep { \"arrivals.utilisation\" = [0.5, 0.8] }\npolicies = [random, p2c]\n");
        assertEquals(0, run("campaign", "run", file.toString(), "--out", campaign.toString()).code());
        Path a = simulate("at08"); // quickstart's own utilisation is 0.8
        CliCapture.Printed r = run("compare", a.toString(), campaign.toString(), "--out", tmp.resolve("c1").toString(),
                "--metrics", "response_mean_s");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("at the campaign point of its own scenario values {arrivals.utilisation=0.8}"), r.out());
        String p2c = r.out().lines().filter(l -> l.contains(" p2c ")).findFirst().orElseThrow();
        assertTrue(p2c.contains("arrivals.utilisation=0.8") && p2c.contains("  3  "), "3 seeds paired: " + p2c);
        assertTrue(p2c.contains("+0.0%"), "the same scenario and seeds give the same runs: " + p2c);
        // A point the campaign does not have: exit 1, and the output says what each side has.
        Path other = simulate("at07", "arrivals.utilisation=0.7");
        CliCapture.Printed none = run("compare", other.toString(), campaign.toString(), "--out", tmp.resolve("c2").toString());
        assertEquals(1, none.code(), none.out());
        assertTrue(none.out().contains("A has scenario(s) quickstart; point(s) {arrivals.utilisation=0.7}; policies p2c, random"),
                none.out());
        assertTrue(none.out().contains("B has scenario(s) quickstart; point(s) {arrivals.utilisation=0.5},"
                + " {arrivals.utilisation=0.8}"), none.out());
    }
}

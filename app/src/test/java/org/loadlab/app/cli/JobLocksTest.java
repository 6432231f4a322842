package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that writes into a directory the user names takes the same job lock as
 * {@code simulate --out} ({@link SimulateOutputLockTest}): while another job holds it, the
 * command is refused (exit 2, naming the flag or parameter, the path and the holder) and leaves
 * the directory as it was. The holder here is a lock of this process, as a job of another
 * process would hold it.
 */
class JobLocksTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void root() {
        System.setProperty("loadlab.campaigns.root", tmp.resolve("root").toString());
    }

    @AfterEach
    void clear() {
        System.clearProperty("loadlab.campaigns.root");
    }

    private static CliCapture.Printed run(String... args) {
        return CliCapture.runCapturingSystemOut(args);
    }

    private Path simulate(String name) {
        Path dir = tmp.resolve(name);
        CliCapture.Printed r = run("simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1", "--set", "duration=30",
                "--set", "warmup=5", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        return dir;
    }

    /** Every file under {@code dir} (relative path) with its size and time, to show nothing was disturbed. */
    private static Map<String, String> contents(Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                m.put(dir.relativize(f).toString(), Files.size(f) + " " + Files.getLastModifiedTime(f));
            }
        }
        return m;
    }

    /**
     * Runs {@code args} while this process holds {@code dir}'s lock file {@code lockFile}, and
     * checks the refusal: exit 2, {@code what: another LoadLab job ... (pid P, holding FILE);
     * wait until that job has finished...}, and every file under {@code dir} as it was.
     *
     * @return the refusal's text after "wait until that job has finished"
     */
    private static String refusedWhileHeld(Path dir, String lockFile, String what, String... args) throws Exception {
        Files.createDirectories(dir);
        try (DirLock held = DirLock.acquire(dir, "the test's holder", DirLock.job(lockFile, "--out", null))) {
            Map<String, String> before = contents(dir);
            CliCapture.Printed r = run(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
            String start = "error: " + what + ": another LoadLab job is writing its results there (pid " + ProcessHandle.current().pid()
                    + ", holding " + dir.resolve(lockFile) + "); wait until that job has finished";
            String err = r.err().strip();
            assertTrue(err.startsWith(start), err);
            assertEquals(before, contents(dir), "nothing under " + dir + " was touched");
            return err.substring(start.length());
        }
    }

    @Test
    void plotWaitsForTheJobWritingItsDirectory() throws Exception {
        Path dir = simulate("sim");
        assertEquals("", refusedWhileHeld(dir, DirLock.JOB_FILE, "DIR = '" + dir + "'", "plot", dir.toString()));
        assertEquals(0, run("plot", dir.toString()).code(), "free again once the holder is done");
    }

    @Test
    void compareRefusesAnOutputDirectoryInUse() throws Exception {
        Path a = simulate("a");
        Path out = tmp.resolve("cmp");
        assertEquals(", or give this one another --out", refusedWhileHeld(out, DirLock.JOB_FILE, "--out = '" + out + "'",
                "compare", a.toString(), a.toString(), "--out", out.toString()));
    }

    @Test
    void tuneRefusesAnOutputDirectoryInUse() throws Exception {
        Path out = tmp.resolve("tuning");
        assertEquals(", or give this one another --out", refusedWhileHeld(out, DirLock.JOB_FILE, "--out = '" + out + "'",
                "tune", "asmf", "--configs", "1", "--seeds", "1", "--scenarios", "asmf-poisson-medium", "--duration-scale", "0.05",
                "--workers", "1", "--out", out.toString()));
    }

    @Test
    void aStudyIsRefusedWhileTheSameStudyWritesItsDirectory() throws Exception {
        Path out = tmp.resolve("studies");
        assertEquals(", or give this one another --out", refusedWhileHeld(out, ".loadlab-study-herding.lock",
                "--out = '" + out + "'", "study", "herding", "--seeds", "101", "--out", out.toString()));
    }

    @Test
    void simulateRefusesADecisionLogDirectoryInUseAndLogsIntoItsOwnOut() throws Exception {
        Path logs = tmp.resolve("logs");
        Path out = tmp.resolve("out");
        assertEquals(", or give this one another --decision-log", refusedWhileHeld(logs, DirLock.JOB_FILE,
                "--decision-log = '" + logs + "'", "simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1",
                "--set", "duration=30", "--set", "warmup=5", "--out", out.toString(), "--decision-log", logs.toString()));
        // --decision-log may be --out itself: one lock, not a refusal by the job's own lock.
        CliCapture.Printed same = run("simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1", "--set",
                "duration=30", "--set", "warmup=5", "--out", out.toString(), "--decision-log", out.toString());
        assertEquals(0, same.code(), same.err());
        assertTrue(Files.exists(out.resolve("decisions-p2c-1.csv")) && Files.exists(out.resolve("results.csv")));
    }

    @Test
    void aCampaignDirectoryIsWrittenByOneJobAtATime() throws Exception {
        Path file = tmp.resolve("tiny.conf");
        Files.writeString(file, "name = tiny\nseeds = \"1\"\n"
                + "scenarios = [{ scenario = quickstart, set { duration = 30, warmup = 0, nodes.count = 5 } }]\n"
                + "policies = [sticky-lazy]\n");
        Path dir = tmp.resolve("campaign");
        CliCapture.Printed ran = run("campaign", "run", file.toString(), "--out", dir.toString());
        assertEquals(0, ran.code(), ran.err());
        String id = new ObjectMapper().readTree(dir.resolve("campaign.json").toFile()).path("id").asText();
        String what = "--out = '" + dir + "'";
        String status = ", or follow it with `loadlab campaign status " + id + " --out " + dir + "`";
        assertEquals(status, refusedWhileHeld(dir, DirLock.JOB_FILE, what, "campaign", "run", file.toString(), "--out", dir.toString()));
        assertEquals(status, refusedWhileHeld(dir, DirLock.JOB_FILE, what, "campaign", "resume", id, "--out", dir.toString()));
        assertEquals("", refusedWhileHeld(dir, DirLock.JOB_FILE, "DIR = '" + dir + "'", "report", dir.toString()));
        assertEquals("", refusedWhileHeld(dir, DirLock.JOB_FILE, "DIR = '" + dir + "'", "sticky-lazy-check", dir.toString()));
        assertEquals(0, run("report", dir.toString()).code(), "free again once the holder is done");
    }
}

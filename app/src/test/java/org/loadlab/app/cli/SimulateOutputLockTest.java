package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code simulate} jobs into one output directory: the second is refused before it
 * touches anything there (exit 2, naming the directory, the holder and what to do), and a lock
 * file left by a job that died does not block the next one.
 */
class SimulateOutputLockTest {
    @TempDir
    Path tmp;

    private static CliCapture.Printed simulate(Path dir) {
        return CliCapture.runCapturingSystemOut("simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1",
                "--set", "duration=30", "--set", "warmup=5", "--out", dir.toString());
    }

    /** Every file of {@code dir} with its bytes, to show nothing was disturbed. */
    private static Map<String, String> contents(Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                m.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        return m;
    }

    @Test
    void aSecondJobIsRefusedWhileAnotherOfThisProcessHoldsTheDirectory() throws Exception {
        Path dir = tmp.resolve("out");
        assertEquals(0, simulate(dir).code(), "an earlier job's results");
        // What a job still at work has in the directory besides the last job's results.
        Files.writeString(dir.resolve("results.csv.part"), "the first job's runs so far");
        String what = "--out = '" + dir + "'";
        try (DirLock held = DirLock.acquire(dir, what, DirLock.RESULTS)) {
            Map<String, String> before = contents(dir);
            CliCapture.Printed second = simulate(dir);
            assertEquals(2, second.code(), second.out() + second.err());
            assertEquals("error: " + what + ": another LoadLab job is writing its results there (pid " + ProcessHandle.current().pid()
                    + ", holding " + dir.resolve(DirLock.RESULTS.file()) + "); wait until that job has finished, or give this one"
                    + " another --out", second.err().strip());
            assertEquals("", second.out(), "refused before the header is printed");
            assertEquals(before, contents(dir), "nothing in the directory was touched");
        }
        CliCapture.Printed after = simulate(dir);
        assertEquals(0, after.code(), "the lock is free once its holder closes it: " + after.err());
        assertEquals(0, simulate(dir).code(), "and a finished job frees it too");
    }

    @Test
    void aJobOfAnotherProcessKeepsTheDirectoryUntilItIsKilled() throws Exception {
        Path dir = tmp.resolve("long");
        Path log = tmp.resolve("first.log");
        // A job that runs until it is killed (one run of 10^6 simulated seconds).
        Process first = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), LoadLabCli.class.getName(),
                "simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1", "--workers", "1",
                "--set", "duration=1000000", "--set", "series-interval=1000", "--out", dir.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // The parts are opened one after another (nodes.csv.part last) and their headers
            // flushed as buffers fill: wait until the directory is at rest, else the first job's
            // own writes would look like the second job's.
            Path lastPart = dir.resolve("nodes.csv.part");
            AtomicReference<Map<String, String>> seen = new AtomicReference<>(Map.of());
            Awaitility.await("the first job to open its parts").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        if (!first.isAlive()) {
                            return true;
                        }
                        Map<String, String> now = Files.exists(lastPart) ? contents(dir) : Map.of();
                        return !now.isEmpty() && now.equals(seen.getAndSet(now));
                    });
            assertTrue(first.isAlive(), Files.readString(log));
            Map<String, String> before = contents(dir);
            CliCapture.Printed second = simulate(dir);
            assertEquals(2, second.code(), second.out() + second.err());
            assertTrue(second.err().startsWith("error: --out = '" + dir + "': another LoadLab job is writing its results there (pid "
                    + first.pid() + ", holding " + dir.resolve(DirLock.RESULTS.file()) + "); wait until"), second.err());
            assertEquals(before, contents(dir), "the first job's files are as it left them");
            assertTrue(first.isAlive(), "the first job goes on");

            first.destroyForcibly(); // SIGKILL: no shutdown hook, the lock file stays behind
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
            assertTrue(Files.readString(dir.resolve(DirLock.RESULTS.file())).startsWith("pid " + first.pid()), "a stale lock file");
            CliCapture.Printed next = simulate(dir);
            assertEquals(0, next.code(), "a dead job's lock file does not block: " + next.err());
            assertTrue(Files.readString(dir.resolve(DirLock.RESULTS.file())).startsWith("pid " + ProcessHandle.current().pid()));
        } finally {
            first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aLockFileLeftBehindWithAnotherPidDoesNotBlock() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("stale"));
        Files.writeString(dir.resolve(DirLock.RESULTS.file()), "pid 2147483646\n");
        CliCapture.Printed r = simulate(dir);
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.exists(dir.resolve("results.csv")));
    }
}

package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loadlab.app.cli.CliCapture.run;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadlab gateway} refuses what it cannot use before its actor system starts, in one
 * line naming the flag, the value and what is allowed (exit 2): a {@code --state-dir} that is
 * a file, below a file or not writable, one another gateway holds, a {@code --port} in use.
 * A real gateway process then shows the lock across processes and that SIGTERM stops it
 * quietly.
 */
class GatewayCommandTest {
    @TempDir
    Path tmp;

    private static void refused(String[] r, String expected) {
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].startsWith("error: " + expected), r[2]);
        assertEquals(1, r[2].strip().lines().count(), "one line, no stack trace: " + r[2]);
    }

    @Test
    void aStateDirThatCannotHoldTheJournalIsRefusedAtOnce() throws Exception {
        Path file = Files.writeString(tmp.resolve("somefile"), "x");
        refused(run("gateway", "--port", "0", "--state-dir", file.toString()),
                "--state-dir = '" + file + "': is a file; give a directory");
        refused(run("gateway", "--port", "0", "--state-dir", file.resolve("sub").toString()),
                "--state-dir = '" + file.resolve("sub") + "': " + file + " is a file");
        refused(run("gateway", "--port", "0", "--state-dir", "/proc/loadlab-gateway"),
                "--state-dir = '/proc/loadlab-gateway': cannot write there");
        Path dir = Files.createDirectories(tmp.resolve("state"));
        Files.writeString(dir.resolve("journal"), "x");
        refused(run("gateway", "--port", "0", "--state-dir", dir.toString()),
                "--state-dir = '" + dir + "': " + dir.resolve("journal") + " is a file");
    }

    @Test
    void aNegativeOrEndlessMaxLifetimeIsRefused() {
        for (String bad : new String[] {"-1", "NaN", "Infinity"}) {
            Path dir = tmp.resolve("state-" + bad);
            refused(run("gateway", "--port", "0", "--state-dir", dir.toString(), "--max-lifetime", bad),
                    "--max-lifetime = " + Double.parseDouble(bad) + ": allowed 0 (run until stopped) or a positive number of seconds");
            assertFalse(Files.exists(dir), "nothing was created");
        }
    }

    @Test
    void aRequestTimeoutTheGatewaysOwnTenSecondsAlwaysPreEmptsIsRefused() {
        // with 20 s the gateway started and answered every slow request 504 gateway_timeout at 10 s: the key had no effect
        Path dir = tmp.resolve("state-timeout");
        refused(run("gateway", "--port", "0", "--state-dir", dir.toString(), "--max-lifetime", "1", "--set",
                "balancers.request-timeout=20"),
                "balancers.request-timeout = 20.0: the gateway answers 504 itself 10.0 s after receipt, so this timeout would"
                        + " never end a request; allowed 0 (none) or a number of seconds below 10.0");
        assertFalse(Files.exists(dir), "nothing was created");
    }

    @Test
    void aHostThatDoesNotResolveIsRefusedNamingTheFlag() {
        refused(run("gateway", "--port", "0", "--state-dir", tmp.resolve("s").toString(), "--host", "nosuch.invalid"),
                "--host = nosuch.invalid: the name does not resolve; allowed a loopback address");
    }

    @Test
    void aScenarioWithoutProfileNodesIsRefusedNamingTheScenariosTheGatewayServes() {
        for (String name : new String[] {"quickstart", "load-sharing"}) {
            Path dir = tmp.resolve("state-" + name);
            String[] r = run("gateway", "--port", "0", "--state-dir", dir.toString(), "--scenario", name);
            refused(r, "--scenario = '" + name + "': the gateway serves seed 003's system, whose nodes report CPU and queue"
                    + " (nodes.model = profiles); " + name + " has nodes.model = queue");
            assertTrue(r[2].contains("; allowed autonomous, autonomous-chaos"), r[2]);
            assertEquals(name.equals("load-sharing"), r[2].contains("no balancer"), r[2]);
            assertFalse(Files.exists(dir), "nothing was created");
        }
    }

    @Test
    void aPortInUseIsRefusedBeforeTheActorSystemStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            Path dir = tmp.resolve("state");
            refused(run("gateway", "--port", String.valueOf(port), "--state-dir", dir.toString()),
                    "--port = " + port + ": port " + port + " is in use on 127.0.0.1");
            assertFalse(Files.exists(dir), "nothing was created");
        }
    }

    @Test
    void aSecondGatewayOnTheSameStateDirIsRefusedAndSigtermStopsTheFirstQuietly() throws Exception {
        Path dir = tmp.resolve("state");
        Path log = tmp.resolve("gateway.log");
        int port = ClusterAcceptanceTest.freeRange(1);
        Process first = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), LoadLabCli.class.getName(),
                "gateway", "--port", String.valueOf(port), "--state-dir", dir.toString(), "--max-lifetime", "120",
                "--set", "autoscaler.enabled = false"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Awaitility.await("the first gateway to serve").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> !first.isAlive() || Files.readString(log).contains("Gateway on"));
            assertTrue(first.isAlive(), Files.readString(log));
            String[] second = run("gateway", "--port", "0", "--state-dir", dir.toString(), "--max-lifetime", "5");
            refused(second, "--state-dir = '" + dir + "': in use by another gateway (pid " + first.pid() + ", holding "
                    + dir.resolve(DirLock.GATEWAY.file()) + ")");
            String[] third = run("gateway", "--port", String.valueOf(port), "--state-dir", tmp.resolve("other").toString(),
                    "--max-lifetime", "5");
            refused(third, "--port = " + port + ": port " + port + " is in use on 127.0.0.1");

            first.destroy(); // SIGTERM
            assertTrue(first.waitFor(60, TimeUnit.SECONDS), "stopped");
            assertEquals(143, first.exitValue(), "the JVM's code for SIGTERM");
            String output = Files.readString(log);
            assertEquals(1, output.strip().lines().count(), "only the start line, nothing logged at the stop: " + output);
            try (DirLock free = DirLock.acquire(dir, "--state-dir = '" + dir + "'", DirLock.GATEWAY)) {
                assertTrue(Files.readString(dir.resolve(DirLock.GATEWAY.file())).startsWith("pid " + ProcessHandle.current().pid()));
            }
        } finally {
            first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}

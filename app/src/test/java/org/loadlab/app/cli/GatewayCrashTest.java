package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Crash-safe experiments: a one-member cluster (every role) runs an experiment and is killed
 * with SIGKILL mid-run; a new gateway started on the same results directory (its H2 journal)
 * lists the experiment as interrupted with its last checkpoint — the results so far — and
 * runs it again by id. Separately, {@code local-cluster} exits 1 when one of its members dies.
 */
class GatewayCrashTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process java(Path log, String... args) throws Exception {
        return java(Map.of(), log, args);
    }

    private Process java(Map<String, String> env, Path log, String... args) throws Exception {
        return java(List.of(), env, log, args);
    }

    /** A child JVM running {@code loadlab args}, its command prefixed with {@code prefix} (e.g. setsid). */
    private Process java(List<String> prefix, Map<String, String> env, Path log, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), LoadLabCli.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private Process member(Map<String, String> env, Path dir, int port, int http, String log) throws Exception {
        return java(env, dir.resolve(log), "cluster", "--role", "all", "--port", String.valueOf(port), "--seed-nodes",
                "127.0.0.1:" + port, "--http-port", String.valueOf(http), "--set", "loadlab.metrics.kamon = off",
                "--set", "loadlab.cluster.jit-warmup = 0s", "--set", "loadlab.cluster.checkpoint-interval = 1s",
                "--set", "loadlab.cluster.max-lifetime = 90s",
                "--set", "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\"");
    }

    record Reply(int status, JsonNode body) {
    }

    static Reply call(int port, String method, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    }

    static String create(int http, String body) {
        Reply r = Awaitility.await("POST /experiments to be taken (member Up, journal open)").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .until(() -> call(http, "POST", "/experiments", body), x -> x.status() != 503);
        assertEquals(201, r.status(), String.valueOf(r.body()));
        return r.body().get("id").asText();
    }

    @Test
    void afterASigkillTheNextGatewayListsTheExperimentInterruptedWithItsResultsSoFarAndRerunsIt() throws Exception {
        crashAndRerun(Map.of()); // the H2 journal under the results directory
    }

    /**
     * The same on PostgreSQL, when one is given: {@code .ci/run} starts a throwaway instance
     * (Debian's package) and sets {@code LOADLAB_TEST_JDBC_URL} (a maintenance database) and
     * {@code LOADLAB_TEST_JDBC_USER}; each run gets a database of its own.
     */
    @Test
    void afterASigkillTheJournalOnPostgresqlHasTheExperimentToo() throws Exception {
        String url = System.getenv("LOADLAB_TEST_JDBC_URL");
        org.junit.jupiter.api.Assumptions.assumeTrue(url != null && !url.isBlank(),
                "no PostgreSQL given (LOADLAB_TEST_JDBC_URL; .ci/run starts one)");
        String user = System.getenv().getOrDefault("LOADLAB_TEST_JDBC_USER", "loadlab");
        String password = System.getenv().getOrDefault("LOADLAB_TEST_JDBC_PASSWORD", "");
        String db = "loadlab_crash_" + System.nanoTime();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, user, password);
             java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + db);
        }
        String dbUrl = url.substring(0, url.lastIndexOf('/') + 1) + db;
        crashAndRerun(Map.of("LOADLAB_JDBC_URL", dbUrl, "LOADLAB_JDBC_USER", user, "LOADLAB_JDBC_PASSWORD", password));
    }

    private void crashAndRerun(Map<String, String> env) throws Exception {
        Path dir = Files.createTempDirectory("loadlab-crash");
        int port = ClusterAcceptanceTest.freeRange(1);
        int http = ClusterAcceptanceTest.freeRange(1);
        Process first = member(env, dir, port, http, "first.log");
        String id = create(http, "{\"scenario\":\"quickstart\",\"policy\":\"p2c\",\"seed\":7,\"set\":{\"nodes.count\":4,"
                + "\"duration\":10,\"warmup\":0,\"demand.mean\":0.1,\"arrivals.utilisation\":0.5}}");
        Awaitility.await("the experiment to have completed 40 requests").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> call(http, "GET", "/experiments/" + id, null).body().get("progress").get("completed").asLong() >= 40);
        Thread.sleep(1500); // at least one checkpoint (every second) after that
        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: no graceful stop, nothing more journaled

        Process second = member(env, dir, port, http, "second.log");
        JsonNode listed = Awaitility.await("the new gateway to list the experiment (logs in " + dir + ")")
                .atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .until(() -> call(http, "GET", "/experiments", null).body().get("experiments"), l -> l.size() == 1);
        assertEquals(id, listed.get(0).get("id").asText());
        assertEquals("interrupted", listed.get(0).get("status").asText());
        JsonNode s = call(http, "GET", "/experiments/" + id, null).body();
        assertEquals("interrupted", s.get("status").asText(), s.toString());
        assertTrue(s.get("journaled").asBoolean());
        assertTrue(s.get("progress").get("completed").asLong() >= 40, "its results so far: " + s.get("progress"));
        assertTrue(s.get("metricsSoFar").get("responseCount").asLong() >= 40, s.get("metricsSoFar").toString());
        assertEquals(409, call(http, "DELETE", "/experiments/" + id, null).status(), "nothing to stop");

        Reply rerun = call(http, "POST", "/experiments/" + id + "/rerun", null);
        assertEquals(201, rerun.status(), String.valueOf(rerun.body()));
        String again = rerun.body().get("id").asText();
        JsonNode done = Awaitility.await("the rerun to end").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
                .until(() -> call(http, "GET", "/experiments/" + again, null).body(),
                        b -> List.of("finished", "failed", "stopped").contains(b.get("status").asText()));
        assertEquals("finished", done.get("status").asText(), done.toString());
        assertEquals(7, done.get("seed").asLong(), "the same definition: seed");
        assertEquals("quickstart", done.get("scenario").asText());
        assertEquals(4, done.get("results").get("metrics").get("nodeRequestShare").size(), "the same definition: 4 nodes");
        assertEquals(2, call(http, "GET", "/experiments", null).body().get("experiments").size());
        assertEquals(404, call(http, "POST", "/experiments/nope/rerun", null).status());

        // A third gateway recovers both, each under its own id with its own state (their
        // entities' answers once all came back named after the last id: one listed, the
        // others 404, one served under another's id).
        second.destroy(); // SIGTERM: the rerun's end was journaled when it finished
        assertTrue(second.waitFor(30, TimeUnit.SECONDS), "the second gateway stops on SIGTERM");
        member(env, dir, port, http, "third.log");
        JsonNode both = Awaitility.await("the third gateway to list both experiments (logs in " + dir + ")")
                .atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .until(() -> call(http, "GET", "/experiments", null).body().get("experiments"), l -> l.size() == 2);
        java.util.Map<String, String> statusById = new java.util.HashMap<>();
        both.forEach(e -> statusById.put(e.get("id").asText(), e.get("status").asText()));
        assertEquals(java.util.Map.of(id, "interrupted", again, "finished"), statusById, both.toString());
        for (String x : List.of(id, again)) {
            JsonNode one = call(http, "GET", "/experiments/" + x, null).body();
            assertEquals(x, one.get("id").asText(), one.toString());
            assertEquals(statusById.get(x), one.get("status").asText(), one.toString());
        }
    }

    /** A quickstart experiment that runs for two minutes unless stopped (4 nodes, about 20 requests/s). */
    private static final String LONG_RUN = "{\"scenario\":\"quickstart\",\"policy\":\"p2c\",\"seed\":7,\"set\":{\"nodes.count\":4,"
            + "\"duration\":120,\"warmup\":0,\"demand.mean\":0.1,\"arrivals.utilisation\":0.5}}";

    private static void awaitCompleted(int http, String id, long requests) {
        Awaitility.await("experiment " + id + " to have completed " + requests + " requests").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> call(http, "GET", "/experiments/" + id, null).body().get("progress").get("completed").asLong() >= requests);
    }

    /** The four result files of experiment {@code id}, each present and not empty, and its run-info.json. */
    private static JsonNode resultFiles(Path results, String id) throws Exception {
        for (String f : List.of("results.csv", "results.json", "timeseries.csv", "run-info.json")) {
            Path file = results.resolve(id).resolve(f);
            assertTrue(Files.isRegularFile(file) && Files.size(file) > 0, "result file " + file);
        }
        return JSON.readTree(results.resolve(id).resolve("run-info.json").toFile());
    }

    /**
     * A graceful stop of the gateway (SIGTERM, what {@code docker stop} and Ctrl-C do) stops its
     * running experiment as DELETE does: merged, its result files written, journaled as stopped
     * with its results so far. It used to leave it interrupted with a checkpoint up to 5 s old
     * and no files (what a SIGKILL still does, above).
     */
    @Test
    void aSigtermStopsTheRunningExperimentWritesItsFilesAndJournalsItStopped() throws Exception {
        Path dir = Files.createTempDirectory("loadlab-sigterm");
        int port = ClusterAcceptanceTest.freeRange(1);
        int http = ClusterAcceptanceTest.freeRange(1);
        Process first = member(Map.of(), dir, port, http, "first.log");
        String id = create(http, LONG_RUN);
        awaitCompleted(http, id, 40);
        first.destroy(); // SIGTERM
        assertTrue(first.waitFor(40, TimeUnit.SECONDS), "the gateway exits after its stop");
        assertEquals(143, first.exitValue(), "the JVM's code for SIGTERM");
        String log = Files.readString(dir.resolve("first.log"));
        assertTrue(log.contains("loadlab: gateway shutdown: experiment " + id + " stopped; its results so far are in "
                + dir.resolve("results").resolve(id) + "; journaled as stopped"), log);
        JsonNode info = resultFiles(dir.resolve("results"), id);
        assertEquals("stopped by the gateway's shutdown (SIGTERM or Ctrl-C)", info.get("end_reason").asText());
        assertTrue(info.get("accounting").get("ok").asBoolean(), info.get("accounting").toString());

        member(Map.of(), dir, port, http, "second.log");
        JsonNode listed = Awaitility.await("the new gateway to list the experiment (logs in " + dir + ")")
                .atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .until(() -> call(http, "GET", "/experiments", null).body().get("experiments"), l -> l.size() == 1);
        assertEquals("stopped", listed.get(0).get("status").asText(), listed.toString());
        JsonNode s = call(http, "GET", "/experiments/" + id, null).body();
        assertEquals("stopped", s.get("status").asText(), "journaled as stopped, not interrupted: " + s);
        assertTrue(s.get("journaled").asBoolean());
        assertEquals(dir.resolve("results").resolve(id).toString(), s.get("results").get("dir").asText());
        assertTrue(s.get("results").get("metrics").get("requestsCompleted").asLong() >= 40, s.get("results").toString());
        assertTrue(s.get("accounting").get("ok").asBoolean(), s.get("accounting").toString());
        assertEquals(409, call(http, "DELETE", "/experiments/" + id, null).status(), "nothing to stop");
    }

    /**
     * What the gateway cannot do in time it says: its node member is frozen (SIGSTOP, a long
     * GC pause) when the gateway gets SIGTERM, so the stop waits for that member's last
     * observations (stop-timeout 8 s) longer than the shutdown may take (shutdown-timeout 2 s);
     * the gateway names the experiment on stderr and what is left undone.
     */
    @Test
    void aStopThatCannotFinishInTimeIsNamedOnStderr() throws Exception {
        Path dir = Files.createTempDirectory("loadlab-sigterm-late");
        int port = ClusterAcceptanceTest.freeRange(2);
        int http = ClusterAcceptanceTest.freeRange(1);
        String results = "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\"";
        List<String> common = List.of("--seed-nodes", "127.0.0.1:" + port, "--set", "loadlab.metrics.kamon = off",
                "--set", "loadlab.cluster.jit-warmup = 0s", "--set", "loadlab.cluster.max-lifetime = 120s", "--set", results,
                "--set", "pekko.cluster.split-brain-resolver.stable-after = 60s",
                // Leaving cannot converge while the node member is frozen: give up after 2 s, not Pekko's 10 s (exit time is not tested).
                "--set", "pekko.coordinated-shutdown.phases.cluster-exiting.timeout = 2s");
        List<String> gw = new ArrayList<>(List.of("cluster", "--role", "balancer,gateway", "--port", String.valueOf(port),
                "--http-port", String.valueOf(http), "--set", "loadlab.cluster.shutdown-timeout = 2s",
                "--set", "loadlab.cluster.stop-timeout = 8s"));
        gw.addAll(common);
        Process gateway = java(dir.resolve("gateway.log"), gw.toArray(String[]::new));
        List<String> nd = new ArrayList<>(List.of("cluster", "--role", "node", "--port", String.valueOf(port + 1)));
        nd.addAll(common);
        Process node = java(dir.resolve("node.log"), nd.toArray(String[]::new));
        String id = create(http, LONG_RUN);
        awaitCompleted(http, id, 20);
        assertEquals(0, new ProcessBuilder("kill", "-STOP", String.valueOf(node.pid())).start().waitFor());
        try {
            gateway.destroy(); // SIGTERM
            assertTrue(gateway.waitFor(90, TimeUnit.SECONDS), "the gateway exits");
        } finally {
            new ProcessBuilder("kill", "-CONT", String.valueOf(node.pid())).start().waitFor();
        }
        String log = Files.readString(dir.resolve("gateway.log"));
        assertTrue(log.contains("loadlab: gateway shutdown: experiment " + id + " could not be stopped within 2.0 s"
                + " (loadlab.cluster.shutdown-timeout"), log);
        assertTrue(log.contains("left interrupted in the journal with its last checkpoint"), log);
    }

    /**
     * Ctrl-C on {@code local-cluster} (SIGINT to the whole process group, as a terminal sends
     * it): the members ignore it, and local-cluster stops the gateway first and the node member
     * only once the gateway has exited, so the gateway collects the node member's last
     * observations and journals the experiment as stopped with its files. Signalled all at once,
     * the node member could leave while the gateway was still collecting from it.
     */
    @Test
    void ctrlCOnLocalClusterStopsTheGatewayFirstSoTheExperimentKeepsItsNodes() throws Exception {
        Path dir = Files.createTempDirectory("loadlab-lc-stop");
        int base = ClusterAcceptanceTest.freeRange(2);
        int http = ClusterAcceptanceTest.freeRange(1);
        Path results = dir.resolve("results");
        boolean ownGroup = Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"));
        // setsid: a process group of its own to send the terminal's SIGINT to; env: SIGINT at its default even when
        // this JVM's parent ignores it (a background job), as a terminal's foreground job has it.
        Process lc = java(ownGroup ? List.of("setsid", "env", "--default-signal=INT") : List.of(), Map.of(),
                dir.resolve("local-cluster.log"), "local-cluster", "--nodes", "1", "--base-port", String.valueOf(base),
                "--http-port", String.valueOf(http), "--member-heap", "256m",
                "--member-jvm-opt=-XX:+UseSerialGC", "--member-jvm-opt=-XX:TieredStopAtLevel=1", "--stop-after", "150",
                "--set", "loadlab.metrics.kamon = off", "--set", "loadlab.cluster.jit-warmup = 0s",
                "--set", "loadlab.cluster.results-dir = \"" + results.toString().replace("\\", "/") + "\"");
        Awaitility.await("local-cluster to report its members Up (log " + dir.resolve("local-cluster.log") + ")")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> Files.readString(dir.resolve("local-cluster.log")).contains("members Up"));
        String id = create(http, LONG_RUN);
        awaitCompleted(http, id, 40);
        if (ownGroup) {
            assertEquals(0, new ProcessBuilder("kill", "-INT", "--", "-" + lc.pid()).start().waitFor(), "kill -INT to the group");
        } else {
            lc.destroy();
        }
        assertTrue(lc.waitFor(60, TimeUnit.SECONDS), "local-cluster stops");
        String log = Files.readString(dir.resolve("local-cluster.log"));
        assertEquals(ownGroup ? 130 : 143, lc.exitValue(), log);
        assertTrue(log.contains("[gateway] loadlab: gateway shutdown: experiment " + id + " stopped; its results so far are in"),
                log);
        JsonNode info = resultFiles(results, id);
        for (JsonNode e : info.get("events")) {
            assertTrue(!e.get("event").asText().startsWith("member-"), "no member left or went unreachable before the stop: "
                    + info.get("events"));
        }
        JsonNode books = info.get("accounting");
        assertTrue(books.get("ok").asBoolean(), books.toString());
        assertEquals(0, books.get("lost").asLong(), "nothing lost with a node member: " + books);
        assertEquals(0, books.path("unresolvedByReason").path("balancer-silent").asLong(), books.toString());
        assertTrue(log.indexOf("[gateway] loadlab: gateway shutdown") < log.indexOf("[node-1] loadlab: pekko://"),
                "the node member stops after the gateway's stop: " + log);
    }

    /** The process's command line from /proc (ProcessHandle.Info has none for a long class path). */
    static String commandLine(ProcessHandle h) {
        try {
            return Files.readString(Path.of("/proc", String.valueOf(h.pid()), "cmdline")).replace('\0', ' ');
        } catch (java.io.IOException e) {
            return h.info().commandLine().orElse("");
        }
    }

    @Test
    void localClusterExitsNonZeroWhenAMemberDies() throws Exception {
        Path dir = Files.createTempDirectory("loadlab-lc-exit");
        int base = ClusterAcceptanceTest.freeRange(2);
        int http = ClusterAcceptanceTest.freeRange(1);
        int prometheus = ClusterAcceptanceTest.freeRange(2);
        Process lc = java(dir.resolve("local-cluster.log"), "local-cluster", "--nodes", "1", "--base-port", String.valueOf(base),
                "--http-port", String.valueOf(http), "--prometheus-port", String.valueOf(prometheus), "--member-heap", "256m",
                "--member-jvm-opt=-XX:+UseSerialGC", "--member-jvm-opt=-XX:TieredStopAtLevel=1",
                "--stop-after", "80", "--set", "loadlab.metrics.kamon = off",
                // The gateway's leave cannot converge with the killed member unreachable: 2 s, not Pekko's 10 s (not what is tested).
                "--set", "pekko.coordinated-shutdown.phases.cluster-exiting.timeout = 2s", "--set",
                "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\"");
        Awaitility.await("local-cluster to report its members Up (log " + dir.resolve("local-cluster.log") + ")")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> Files.readString(dir.resolve("local-cluster.log")).contains("members Up"));
        ProcessHandle node = lc.descendants().filter(h -> commandLine(h).contains("node --host"))
                .findFirst().orElseThrow(() -> new AssertionError("no node member among " + lc.descendants().map(GatewayCrashTest::commandLine).toList()));
        node.destroyForcibly(); // SIGKILL a member
        assertTrue(lc.waitFor(20, TimeUnit.SECONDS), "local-cluster stops when a member dies");
        assertEquals(1, lc.exitValue());
        assertTrue(Files.readString(dir.resolve("local-cluster.log")).contains("member node-1 (node, port " + (base + 1)
                + ") exited unexpectedly"), Files.readString(dir.resolve("local-cluster.log")));
    }
}

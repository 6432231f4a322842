package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults for real, between JVMs in network namespaces this test creates ({@link Netns}: five
 * namespaces on a private bridge, nothing else touched): five members, member 3 the
 * balancer+gateway and the others node members. While an experiment runs, members {1, 2} are
 * cut from {3, 4, 5} for 60 s: keep-majority downs the minority (its JVMs exit), the majority
 * routes around the removed nodes and the experiment completes with every request accounted
 * for; after the heal, members 1 and 2 restart on the same addresses and ports, rejoin, and
 * the next experiment uses them. Then member 5 is frozen (SIGSTOP) for 12 s, longer than the
 * resolver's stable-after: it is downed, and when it resumes it finds itself removed and
 * exits. Each fault's timings and losses are printed as the failure table of docs/cluster.md.
 *
 * <p>Tagged {@code faults}: not part of the default test run (about 4 minutes, needs root and
 * iproute2); run with {@code mvn -B test -Pfaults -pl app -am}. Skipped where network
 * namespaces cannot be created.
 */
@Tag("faults")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetworkFaultsTest {
    private static final String TOKEN = "faults-test-token";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final int PORT = 2551;
    private static Netns net;
    private static Path dir;
    private static final Map<Integer, Process> members = new LinkedHashMap<>();
    private static final List<String> table = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Netns.available(), "network namespaces cannot be created here (needs root, CAP_NET_ADMIN, iproute2)");
        net = Netns.create(5);
        dir = Files.createTempDirectory("loadlab-netns");
        for (int i = 1; i <= 5; i++) {
            startMember(i);
        }
        Awaitility.await("5 members Up (logs in " + dir + ")").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions().until(() -> upMembers() == 5);
    }

    @AfterAll
    static void stop() {
        for (Process p : members.values()) {
            p.destroyForcibly();
        }
        for (Process p : members.values()) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (net != null) {
            net.close();
        }
        if (!table.isEmpty()) {
            System.out.println("| fault | detected (unreachable) | removed | JVMs downed | experiment | requests lost / rejected / unresolved |");
            System.out.println("|---|---|---|---|---|---|");
            table.forEach(System.out::println);
        }
    }

    static void startMember(int i) throws Exception {
        List<String> cmd = new ArrayList<>(net.in(i));
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                LoadLabCli.class.getName(), "cluster", "--role", i == 3 ? "balancer,gateway" : "node", "--host", net.address(i),
                "--port", String.valueOf(PORT), "--seed-nodes", net.address(3) + ":" + PORT, "--http-host", net.address(3),
                "--http-port", "8080", "--set", "loadlab.metrics.kamon = off", "--set", "loadlab.cluster.http.token = \"" + TOKEN + "\"",
                "--set", "pekko.cluster.split-brain-resolver.stable-after = 5s", "--set", "loadlab.cluster.max-lifetime = 400s",
                "--set", "loadlab.cluster.jit-warmup = 3s",
                "--set", "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\""));
        Path log = dir.resolve("member-" + i + (members.containsKey(i) ? "-restarted" : "") + ".log");
        members.put(i, new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start());
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + net.address(3) + ":8080" + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    static JsonNode post(String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + net.address(3) + ":8080" + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode b = JSON.readTree(r.body());
        if (r.statusCode() != 201) {
            throw new IllegalStateException(r.statusCode() + " " + b);
        }
        return b;
    }

    static int upMembers() throws Exception {
        int up = 0;
        for (JsonNode m : get("/cluster").get("members")) {
            up += m.get("status").asText().equals("Up") && m.get("reachable").asBoolean() ? 1 : 0;
        }
        return up;
    }

    static String experiment(double duration, long seed) {
        String body = "{\"scenario\":\"quickstart\",\"policy\":\"p2c\",\"seed\":" + seed + ",\"set\":{\"nodes.count\":8,"
                + "\"duration\":" + duration + ",\"warmup\":2,\"demand.mean\":0.1,\"arrivals.utilisation\":0.6,"
                + "\"drain-timeout\":10}}";
        return Awaitility.await("POST /experiments").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions().until(() -> post("/experiments", body), b -> b.has("id")).get("id").asText();
    }

    static JsonNode awaitEnd(String id, int seconds) {
        return Awaitility.await("experiment " + id + " to end (logs in " + dir + ")").atMost(Duration.ofSeconds(seconds))
                .pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() -> get("/experiments/" + id),
                        s -> List.of("finished", "failed", "stopped").contains(s.get("status").asText()));
    }

    /** Seconds from {@code t0} (scenario = real seconds here) to the first event of {@code kind} about {@code member}. */
    static double eventAfter(JsonNode status, String kind, String member, double t0) {
        for (JsonNode e : status.get("events")) {
            if (e.get("event").asText().equals(kind) && e.get("member").asText().contains(member)) {
                return e.get("atSeconds").asDouble() - t0;
            }
        }
        return Double.NaN;
    }

    static String books(JsonNode s) {
        JsonNode a = s.get("accounting");
        return a.get("lost").asLong() + " / " + a.get("rejected").asLong() + " / " + a.get("unresolved").asLong()
                + " of " + a.get("arrived").asLong();
    }

    @Test
    @Order(1)
    void aMinorityCutFor60sIsDownedTheMajorityCarriesOnAndTheRestartedMembersAreUsedAgain() throws Exception {
        String a = experiment(100, 31);
        JsonNode running = Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions().until(() -> get("/experiments/" + a), s -> s.get("status").asText().equals("running")
                        && s.get("progress").get("scenarioSeconds").asDouble() > 8);
        assertEquals(5, running.get("assignment").size(), "the gateway and four node members: " + running.get("assignment"));
        double cutAt = get("/experiments/" + a).get("progress").get("scenarioSeconds").asDouble();
        long cutNanos = System.nanoTime();
        net.cut(Set.of(1, 2));
        double[] exitedAfter = new double[3];
        for (int i : List.of(1, 2)) {
            Process p = members.get(i);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keep-majority downs member " + i + " of the minority");
            exitedAfter[i] = (System.nanoTime() - cutNanos) / 1e9;
        }
        JsonNode during = get("/experiments/" + a);
        double unreachable = eventAfter(during, "member-unreachable", net.address(1), cutAt);
        double removed = eventAfter(during, "member-removed", net.address(1), cutAt);
        long left = TimeUnit.SECONDS.toNanos(60) - (System.nanoTime() - cutNanos);
        Thread.sleep(Math.max(0, left / 1_000_000)); // the cut lasts 60 s
        net.heal();
        startMember(1);
        startMember(2);
        Awaitility.await("the restarted members to rejoin").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions().until(() -> upMembers() == 5);
        double rejoinedAfter = (System.nanoTime() - cutNanos) / 1e9;
        JsonNode sa = awaitEnd(a, 120);
        assertEquals("finished", sa.get("status").asText(), sa.toString());
        assertTrue(sa.get("accounting").get("ok").asBoolean(), sa.get("accounting").toString());
        assertTrue(Files.exists(Path.of(sa.get("results").get("dir").asText()).resolve("results.json")));
        table.add(String.format(Locale.ROOT, "| partition {1,2} / {3,4,5} for 60 s (network namespaces) | %.1f s | %.1f s | "
                        + "members 1, 2 exit %.1f s / %.1f s after the cut; restarted after the heal, Up again %.1f s after the cut | "
                        + "finished on the majority's 4 nodes | %s |", unreachable, removed, exitedAfter[1], exitedAfter[2],
                rejoinedAfter, books(sa)));

        String b = experiment(15, 32);
        JsonNode sb = awaitEnd(b, 90);
        assertEquals("finished", sb.get("status").asText(), sb.toString());
        for (int i : List.of(1, 2)) {
            String m = "pekko://loadlab@" + net.address(i) + ":" + PORT;
            assertTrue(sb.get("assignment").has(m), "the restarted member " + i + " is used by the next experiment: "
                    + sb.get("assignment"));
            assertTrue(sb.get("assignment").get(m).get("nodes").size() > 0);
        }
        JsonNode shares = sb.get("results").get("metrics").get("nodeRequestShare");
        for (JsonNode share : shares) {
            assertTrue(share.asDouble() > 0.03, "every node served, on the restarted members too: " + shares);
        }
        table.add("| member restarted on the same address and port | — | — | — | the next experiment places nodes on it and they"
                + " serve | " + books(sb) + " |");
    }

    @Test
    @Order(2)
    void aMemberFrozenLongerThanStableAfterIsDownedAndExitsWhenItResumes() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> upMembers() == 5);
        String c = experiment(40, 33);
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> get("/experiments/" + c), s -> s.get("status").asText().equals("running")
                        && s.get("progress").get("scenarioSeconds").asDouble() > 8);
        double stopAt = get("/experiments/" + c).get("progress").get("scenarioSeconds").asDouble();
        Process five = members.get(5);
        new ProcessBuilder("kill", "-STOP", String.valueOf(five.pid())).start().waitFor();
        Thread.sleep(12_000);
        new ProcessBuilder("kill", "-CONT", String.valueOf(five.pid())).start().waitFor();
        long resumed = System.nanoTime();
        assertTrue(five.waitFor(60, TimeUnit.SECONDS), "the frozen member finds itself downed and exits");
        double exited = (System.nanoTime() - resumed) / 1e9;
        JsonNode sc = awaitEnd(c, 90);
        assertEquals("finished", sc.get("status").asText(), sc.toString());
        assertTrue(sc.get("accounting").get("ok").asBoolean(), sc.get("accounting").toString());
        table.add(String.format(Locale.ROOT, "| SIGSTOP of member 5 for 12 s (a long GC pause) | %.1f s | %.1f s | member 5 "
                        + "exits %.1f s after SIGCONT (it was downed) | finished on the other nodes | %s |",
                eventAfter(sc, "member-unreachable", net.address(5), stopAt), eventAfter(sc, "member-removed", net.address(5), stopAt),
                exited, books(sc)));
        startMember(5); // leave the cluster whole for whatever runs next
    }
}

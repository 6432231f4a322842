package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;

/**
 * One core, every mode, for faults: a node member frozen for a few seconds (SIGSTOP: the
 * failure detector marks it unreachable, then reachable again, as a partition would) and
 * another killed (SIGKILL: unreachable, then removed by the split-brain resolver) while a
 * cluster of four JVMs runs p2c with the guardrails on; then the same scenario simulated,
 * with a {@code partition} and a {@code crash} event at the same times and the membership
 * delays the cluster showed. The balancer core decides the same way in both: the same
 * membership news, requests lost at the removed node, re-decisions and masks in the same
 * range (the cluster is one noisy run; the simulation gives the spread over seeds).
 */
class SimulatedFaultsMatchTheClusterTest {
    private static final int NODE_MEMBERS = 3;
    private static final String SETTINGS = "\"nodes.count\":9,\"duration\":36,\"warmup\":0,\"demand.mean\":0.2,"
            + "\"arrivals.utilisation\":0.6,\"information.probe-timeout\":0.5,\"guardrails.enabled\":true";
    private static LocalCluster cluster;
    private static Path dir;
    private static int basePort;

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("loadlab-faults");
        basePort = ClusterAcceptanceTest.freeRange(NODE_MEMBERS + 1);
        int prometheus = ClusterAcceptanceTest.freeRange(NODE_MEMBERS + 1);
        int http = ClusterAcceptanceTest.freeRange(1);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> memberArgs = List.of(
                // Long enough that a member frozen for 7 s is not downed (unreachable after ~4 s, then 8 s
                // stable), short enough for the killed one.
                "--set", "pekko.cluster.split-brain-resolver.stable-after = 8s",
                "--set", "loadlab.cluster.max-lifetime = 170s",
                "--set", "loadlab.cluster.jit-warmup = 4s",
                "--set", "loadlab.metrics.kamon = off",
                "--set", "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\"");
        cluster = LocalCluster.start(NODE_MEMBERS, basePort, http, prometheus, cp,
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), memberArgs, dir);
        assertTrue(cluster.awaitUp(Duration.ofSeconds(120)), NODE_MEMBERS + 1 + " members Up; logs in " + dir);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String start(String body) throws Exception {
        LocalCluster.Response[] r = {cluster.send("POST", "/experiments", body)};
        // The members' hosts may still be registering with the Receptionist (503 until they are).
        Awaitility.await("POST /experiments accepted").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> r[0].status() != 503 || (r[0] = cluster.send("POST", "/experiments", body)).status() != 503);
        assertEquals(201, r[0].status(), String.valueOf(r[0].body()));
        return r[0].body().get("id").asText();
    }

    private static JsonNode await(String id, List<String> states, int seconds) {
        JsonNode[] s = new JsonNode[1];
        Awaitility.await("experiment " + id + " " + states + "; logs in " + dir).atMost(Duration.ofSeconds(seconds))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> (s[0] = cluster.get("/experiments/" + id)) != null && states.contains(s[0].get("status").asText()));
        return s[0];
    }

    private static double scenarioSeconds(String id) {
        return cluster.get("/experiments/" + id).get("progress").get("scenarioSeconds").asDouble();
    }

    private static double awaitScenarioTime(String id, double t) {
        double[] now = new double[1];
        Awaitility.await("experiment " + id + " at scenario time " + t + "; logs in " + dir).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50)).until(() -> (now[0] = scenarioSeconds(id)) >= t);
        return now[0];
    }

    private static void signal(String member, String signal) throws Exception {
        for (LocalCluster.Member m : cluster.members()) {
            if (m.name().equals(member)) {
                Process p = new ProcessBuilder("kill", "-" + signal, String.valueOf(m.process().pid())).start();
                assertEquals(0, p.waitFor(), "kill -" + signal + " " + member);
            }
        }
    }

    /** The scenario time of the first event {@code type} of {@code member} (port), NaN if none. */
    private static double eventTime(JsonNode status, String type, int port) {
        for (JsonNode e : status.get("events")) {
            if (e.get("event").asText().equals(type) && e.get("member").asText().endsWith(":" + port)) {
                return e.get("atSeconds").asDouble();
            }
        }
        return Double.NaN;
    }

    private static List<Integer> nodesOf(JsonNode status, int port) {
        List<Integer> nodes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) status.get("assignment")::fields) {
            if (e.getKey().endsWith(":" + port)) {
                e.getValue().get("nodes").forEach(n -> nodes.add(n.asInt()));
            }
        }
        return nodes;
    }

    private static long counter(JsonNode metrics, String name) {
        JsonNode c = metrics.get("counters").get(name);
        return c == null ? 0 : c.asLong();
    }

    @Test
    void aPartitionAndACrashGiveTheSameDecisionSemanticsInSimulationAndOnTheCluster() throws Exception {
        String id = start("{\"scenario\":\"quickstart\",\"policy\":\"p2c\",\"seed\":21,\"set\":{"
                + SETTINGS + "}}");
        JsonNode running = await(id, List.of("running"), 60);
        int frozenPort = basePort + 1;
        int killedPort = basePort + 2;
        List<Integer> frozen = nodesOf(running, frozenPort);
        List<Integer> killed = nodesOf(running, killedPort);
        assertEquals(3, frozen.size(), running.get("assignment").toString());

        double stopAt = awaitScenarioTime(id, 6);
        signal("node-1", "STOP");
        // Frozen for 7 s: Pekko's failure detector marks it unreachable after about 4 s on an idle
        // machine and 5.6 s was seen with the other test JVM busy; it must happen while frozen.
        double contAt = awaitScenarioTime(id, stopAt + 7);
        signal("node-1", "CONT");
        double killAt = awaitScenarioTime(id, 16);
        cluster.kill("node-2");
        JsonNode done = await(id, List.of("finished", "failed", "stopped"), 120);
        assertEquals("finished", done.get("status").asText(), done.toString());

        double unreachableFrozen = eventTime(done, "member-unreachable", frozenPort) - stopAt;
        double unreachableKilled = eventTime(done, "member-unreachable", killedPort) - killAt;
        double removedKilled = eventTime(done, "member-removed", killedPort) - killAt;
        assertTrue(unreachableFrozen > 0 && unreachableFrozen < contAt - stopAt, "the frozen member became unreachable: " + done.get("events"));
        assertTrue(removedKilled > unreachableKilled, "the killed member was removed: " + done.get("events"));
        JsonNode cm = done.get("results").get("metrics");

        // The same faults, simulated with the delays the cluster's failure detector and resolver showed.
        double unreachableAfter = (unreachableFrozen + unreachableKilled) / 2;
        Scenario s = TestScenarios.load("quickstart", concat(SETTINGS.replace("\"", "").replace(":", "=").split(","),
                String.format(Locale.ROOT, "membership.unreachable-after = %.3f", unreachableAfter),
                String.format(Locale.ROOT, "membership.removed-after = %.3f", removedKilled),
                String.format(Locale.ROOT, "events = [{type = partition, at = %.3f, until = %.3f, nodes = %s},"
                        + " {type = crash, at = %.3f, nodes = %s}]", stopAt, contAt, frozen, killAt, killed)));
        List<RunMetrics> sims = new ArrayList<>();
        for (long seed = 1; seed <= 5; seed++) {
            sims.add(SimulationRunner.run(new RunSpec(s, "p2c", seed)).metrics());
        }

        String[] compared = {BalancerLogic.MEMBERSHIP_UNREACHABLE, BalancerLogic.MEMBERSHIP_REMOVED,
                BalancerLogic.LOST_ON_REMOVAL, BalancerLogic.REDECISIONS, BalancerLogic.GUARDRAIL_EJECTIONS};
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "faults: unreachable after %.2f s (frozen) / %.2f s (killed), removed after %.2f s%n", unreachableFrozen,
                unreachableKilled, removedKilled));
        for (String name : compared) {
            long[] v = sims.stream().mapToLong(m -> m.counters().getOrDefault(name, 0L)).toArray();
            table.append(String.format(Locale.ROOT, "%-24s cluster %4d   simulation %s%n", name, counter(cm, name),
                    java.util.Arrays.toString(v)));
        }
        System.out.print(table);

        // Membership news: every frozen and killed node was unreachable once, the killed ones removed, in both.
        for (RunMetrics m : sims) {
            assertEquals(frozen.size() + killed.size(), m.counters().get(BalancerLogic.MEMBERSHIP_UNREACHABLE), table.toString());
            assertEquals(killed.size(), m.counters().get(BalancerLogic.MEMBERSHIP_REMOVED), table.toString());
        }
        // On a loaded two-core machine the failure detector may also flag a healthy member for a moment (a GC or
        // scheduling pause): every fault must be seen; a false alarm more is the real cluster, not a difference.
        assertTrue(counter(cm, BalancerLogic.MEMBERSHIP_UNREACHABLE) >= frozen.size() + killed.size(), table.toString());
        assertEquals(killed.size(), counter(cm, BalancerLogic.MEMBERSHIP_REMOVED), table.toString());

        // Requests lost at the removed node: what was routed there between the kill and its unreachability.
        assertInRange(BalancerLogic.LOST_ON_REMOVAL, counter(cm, BalancerLogic.LOST_ON_REMOVAL), sims, true, table);
        assertEquals(counter(cm, BalancerLogic.LOST_ON_REMOVAL), cm.get("requestsLost").asLong(), "every lost request counted once");
        // Decisions made again because both sampled nodes were silent, and silent nodes masked, in both modes.
        // (rare here: the guardrails mask a silent node after two missed probes, so few samples meet two of them).
        assertInRange(BalancerLogic.REDECISIONS, counter(cm, BalancerLogic.REDECISIONS), sims, false, table);
        assertInRange(BalancerLogic.GUARDRAIL_EJECTIONS, counter(cm, BalancerLogic.GUARDRAIL_EJECTIONS), sims, true, table);
        assertEquals(cm.get("requestsArrived").asLong(), cm.get("requestsCompleted").asLong()
                + cm.get("requestsRejected").asLong() + cm.get("requestsLost").asLong(), "every request resolved: " + cm);
    }

    /**
     * The cluster's count lies within the simulated seeds' range widened by a factor of 3 (and
     * 3 counts) either way: the cluster is one run on a loaded machine, with JIT and GC pauses.
     *
     * @param seen true if the simulation must see it at all
     */
    private static void assertInRange(String name, long cluster, List<RunMetrics> sims, boolean seen, StringBuilder table) {
        long min = sims.stream().mapToLong(m -> m.counters().getOrDefault(name, 0L)).min().orElse(0);
        long max = sims.stream().mapToLong(m -> m.counters().getOrDefault(name, 0L)).max().orElse(0);
        assertTrue(!seen || max > 0, name + ": the simulation sees it too\n" + table);
        assertTrue(cluster >= min / 3 - 3 && cluster <= max * 3 + 3, name + " on the cluster (" + cluster
                + ") outside the simulation's range [" + min + ", " + max + "] widened 3x\n" + table);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

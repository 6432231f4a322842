package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.scenario.ScenarioLoader;

/**
 * Load sharing on the cluster: the slides' experiment (built-in scenario {@code load-sharing},
 * seed 002) with its 40 peer nodes spread over two node JVMs, polling and transferring by
 * message across JVMs, agrees with the simulation of the same scenario and seed — cut to 200
 * scenario seconds at ρ 0.7 and run at 10 scenario seconds per real second. Without sharing
 * ({@code none}) the two see the same arrivals and demands, so their mean responses agree
 * closely; with the receiver-initiated protocol they agree within the noise of a short run,
 * and both show what the slides show: sharing cuts the mean response time (by more than a
 * third at this load: about 3.0 s without, 1.7 s with).
 */
// solo: its runs keep a clock scaled 10x (the fell-behind guard) and are compared with the simulation
@Tag("solo")
class LoadSharingClusterTest {
    private static LocalCluster cluster;
    private static Path dir;
    private static final List<String> OVERRIDES = List.of("duration=200", "warmup=20", "arrivals.utilisation=0.7");

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("loadlab-sharing");
        int base = ClusterAcceptanceTest.freeRange(3);
        int prometheus = ClusterAcceptanceTest.freeRange(3);
        int http = ClusterAcceptanceTest.freeRange(1);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        cluster = LocalCluster.start(2, base, http, prometheus, cp, List.of("-Xmx256m", "-XX:+UseSerialGC"),
                List.of("--set", "loadlab.metrics.kamon = off", "--set", "loadlab.cluster.max-lifetime = 170s",
                        "--set", "loadlab.cluster.jit-warmup = 3s",
                        "--set", "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\""),
                dir);
        assertTrue(cluster.awaitUp(Duration.ofSeconds(90)), "3 members Up; logs in " + dir);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static JsonNode runOnCluster(String protocol) throws Exception {
        StringBuilder set = new StringBuilder();
        for (String o : OVERRIDES) {
            String[] kv = o.split("=");
            set.append(set.length() == 0 ? "" : ",").append('"').append(kv[0]).append("\":").append(kv[1]);
        }
        String body = "{\"scenario\":\"load-sharing\",\"policy\":\"" + protocol + "\",\"seed\":101,\"timeScale\":10,\"set\":{"
                + set + "}}";
        LocalCluster.Response r = Awaitility.await("POST /experiments to be taken (not 503: hosts registering)")
                .atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> cluster.send("POST", "/experiments", body), x -> x.status() != 503);
        assertEquals(201, r.status(), String.valueOf(r.body()));
        String id = r.body().get("id").asText();
        JsonNode s = Awaitility.await("experiment " + id + " to end (logs in " + dir + ")").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500)).until(() -> cluster.get("/experiments/" + id),
                        x -> x != null && List.of("finished", "failed", "stopped").contains(x.get("status").asText()));
        assertEquals("finished", s.get("status").asText(), s.toString());
        assertTrue(s.get("accounting").get("ok").asBoolean(), s.get("accounting").toString());
        return s;
    }

    private static RunMetrics simulate(String protocol) {
        ScenarioLoader loader = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
        return SimulationRunner.run(new RunSpec(loader.load("load-sharing", OVERRIDES), protocol, 101)).metrics();
    }

    @Test
    void theSlidesExperimentAcrossJvmsAgreesWithTheSimulation() throws Exception {
        JsonNode none = runOnCluster("none");
        JsonNode receiver = runOnCluster("receiver");
        RunMetrics simNone = simulate("none");
        RunMetrics simReceiver = simulate("receiver");
        JsonNode mn = none.get("results").get("metrics");
        JsonNode mr = receiver.get("results").get("metrics");
        System.out.printf(Locale.ROOT, "load sharing, 40 peers on 2 node JVMs, rho 0.7: mean response none %.3f s (simulation"
                        + " %.3f), receiver %.3f s (simulation %.3f); transfers per task %.3f (simulation %.3f); polls %d (simulation"
                        + " %d)%n", mn.get("responseMean").asDouble(), simNone.responseMean(), mr.get("responseMean").asDouble(),
                simReceiver.responseMean(), mr.get("counters").get("transfers").asDouble() / mr.get("requestsArrived").asDouble(),
                (double) simReceiver.counters().get("transfers") / simReceiver.requestsArrived(),
                mr.get("counters").get("polls").asLong(), simReceiver.counters().get("polls"));

        assertEquals(simNone.requestsArrived(), mn.get("requestsArrived").asLong(), "the same arrivals reach the nodes");
        assertEquals(0, mn.path("counters").path("transfers").asLong(), "none transfers nothing");
        assertTrue(Math.abs(mn.get("responseMean").asDouble() - simNone.responseMean()) < 0.12 * simNone.responseMean(),
                "none: the same arrivals and demands, so nearly the same mean response");
        assertTrue(mr.get("counters").get("transfers").asLong() > 0, "receivers took tasks from senders on other JVMs");
        assertTrue(mr.get("counters").get("polls").asLong() > 0);
        assertTrue(Math.abs(mr.get("responseMean").asDouble() - simReceiver.responseMean()) < 0.25 * simReceiver.responseMean(),
                "receiver: within the noise of a short run");
        assertTrue(mr.get("responseMean").asDouble() < 0.67 * mn.get("responseMean").asDouble(), "sharing cuts the response");
        assertTrue(simReceiver.responseMean() < 0.67 * simNone.responseMean());
        assertEquals(2, receiver.get("assignment").size(), "both node JVMs host peers (the gateway drives the workload)");
    }
}

package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster experiment whose timers cannot keep up with its time scale fails instead of
 * reporting response times that are not the scenario's (the rule live mode applies,
 * {@code ScaledClockCheck}); one that keeps up finishes, and both say in run-info.json how
 * late their timers fired. One {@code all} member in this JVM.
 *
 * <p>Quickstart's mean service time is 1 s: its tolerance is 0.1 scenario s. Timers fire on
 * the scheduler's 1 ms ticks, about 0.5 ms late on average even on an idle machine: 0.5
 * scenario s at time scale 1,000, five times the tolerance. At time scale 5 they would have
 * to be 20 ms late on average.
 */
class FallBehindClusterTest {
    private static ClusterMember member;
    private static Path results;

    @BeforeAll
    static void start() throws Exception {
        results = Files.createTempDirectory("loadlab-fall-behind");
        int port = TwoMemberClusterTest.freePort();
        member = ClusterMember.start(new MemberOptions(List.of("all"), "127.0.0.1", port, List.of("127.0.0.1:" + port), null,
                null, null, List.of("loadlab.metrics.kamon = off", "loadlab.cluster.jit-warmup = 0s",
                "loadlab.cluster.results-dir = \"" + results.toString().replace("\\", "/") + "\"")).config(), ControlEdge.NONE);
    }

    @AfterAll
    static void stop() {
        if (member != null) {
            member.leave("test done").toCompletableFuture().join();
            member.awaitTermination();
        }
    }

    @SuppressWarnings("unchecked")
    private static String create(double timeScale, String... overrides) throws Exception {
        Gateway.ExperimentRequest req = new Gateway.ExperimentRequest("quickstart", null, List.of(overrides), "random", 101L,
                timeScale);
        GatewayReply created = org.awaitility.Awaitility.await("the host to register").atMost(java.time.Duration.ofSeconds(30))
                .pollInterval(java.time.Duration.ofMillis(250))
                .until(() -> ask(to -> new Gateway.Create(req, to)),
                        r -> !(r instanceof GatewayReply.Problem p && p.kind() == GatewayReply.Kind.NOT_READY));
        assertTrue(created instanceof GatewayReply.Created, created.toString());
        return (String) ((Map<String, Object>) ((GatewayReply.Created) created).data()).get("id");
    }

    private static GatewayReply ask(java.util.function.Function<org.apache.pekko.actor.typed.ActorRef<GatewayReply>,
            Gateway.Command> make) throws Exception {
        return org.apache.pekko.actor.typed.javadsl.AskPattern.ask(member.gateway(), make::apply, java.time.Duration.ofSeconds(10),
                member.system().scheduler()).toCompletableFuture().get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> awaitEnd(String id) {
        return org.awaitility.Awaitility.await("experiment " + id + " to end").atMost(java.time.Duration.ofSeconds(60))
                .pollInterval(java.time.Duration.ofMillis(200))
                .until(() -> (Map<String, Object>) ((GatewayReply.Ok) ask(to -> new Gateway.Get(id, to))).data(),
                        x -> List.of("finished", "failed", "stopped").contains(x.get("status")));
    }

    private static JsonNode runInfo(String id) throws Exception {
        return new ObjectMapper().readTree(results.resolve(id).resolve("run-info.json").toFile());
    }

    @Test
    void aRunFarBehindItsScaledClockStopsAndFailsWithItsResultsWritten() throws Exception {
        long t0 = System.nanoTime();
        // 10,000 scenario s: 10 s of real time, stopped after the first two late windows.
        String id = create(1000, "nodes.count=12", "duration=10000", "warmup=0");
        Map<String, Object> s = awaitEnd(id);
        double wall = (System.nanoTime() - t0) / 1e9;
        assertEquals("failed", s.get("status"), s.toString());
        String error = String.valueOf(s.get("error"));
        assertTrue(error.contains("fell behind the scaled clock: at timeScale 1000 its timers fired on average"), error);
        assertTrue(error.contains("Run it with a smaller timeScale (about "), error);
        assertTrue(wall < 9, "stopped early, not after the whole 10 s: " + wall + " s");
        JsonNode info = runInfo(id);
        assertEquals("fell behind the scaled clock", info.get("end_reason").asText());
        assertTrue(info.get("timers").asLong() > 0, info.toString());
        assertTrue(info.get("timer_lag_mean_ms").asDouble() * 1000 / 1000 > 0.1, "over 0.1 scenario s late: " + info);
        assertTrue(Files.exists(results.resolve(id).resolve("results.json")), "its results so far are written");
    }

    @Test
    void aRunThatKeepsUpFinishesAndReportsItsLag() throws Exception {
        String id = create(5, "nodes.count=12", "duration=10", "warmup=0");
        Map<String, Object> s = awaitEnd(id);
        assertEquals("finished", s.get("status"), String.valueOf(s.get("error")));
        JsonNode info = runInfo(id);
        assertTrue(info.get("timers").asLong() > 100, info.toString());
        double lagMs = info.get("timer_lag_mean_ms").asDouble();
        assertTrue(lagMs >= 0 && lagMs < 20, "within the tolerance (20 ms real at time scale 5): " + lagMs);
        assertTrue(info.get("timer_lag_max_ms").asDouble() >= lagMs, info.toString());
    }
}

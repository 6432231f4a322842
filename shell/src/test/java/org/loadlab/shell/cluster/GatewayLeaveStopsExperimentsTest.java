package org.loadlab.shell.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A gateway member that leaves on its own (what standard input closing and max-lifetime do:
 * {@link ClusterMember#leave}, CoordinatedShutdown in this JVM) stops its running experiment
 * first, as DELETE does, while its node member is still there: the experiment's files are
 * written with the leave's reason, and a new gateway on the same results directory finds it
 * journaled as stopped, not interrupted. SIGTERM of a gateway JVM is GatewayCrashTest's (app).
 */
class GatewayLeaveStopsExperimentsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<ClusterMember> members = new ArrayList<>();

    @AfterEach
    void stop() {
        for (ClusterMember m : members) {
            m.leave("test done").toCompletableFuture().join();
            m.awaitTermination();
        }
    }

    private ClusterMember member(List<String> roles, int port, int seedPort, Path results) {
        ClusterMember m = ClusterMember.start(new MemberOptions(roles, "127.0.0.1", port, List.of("127.0.0.1:" + seedPort), null,
                null, null, List.of("loadlab.metrics.kamon = off", "loadlab.cluster.jit-warmup = 0s",
                "loadlab.cluster.results-dir = \"" + results.toString().replace("\\", "/") + "\"")).config(), ControlEdge.NONE);
        members.add(m);
        return m;
    }

    private static GatewayReply ask(ClusterMember gateway,
                                    java.util.function.Function<org.apache.pekko.actor.typed.ActorRef<GatewayReply>, Gateway.Command> make)
            throws Exception {
        return AskPattern.ask(gateway.gateway(), make::apply, Duration.ofSeconds(10), gateway.system().scheduler())
                .toCompletableFuture().get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(ClusterMember gateway, String id) throws Exception {
        GatewayReply r = ask(gateway, to -> new Gateway.Get(id, to));
        Object data = ((GatewayReply.Ok) r).data();
        return data instanceof Map<?, ?> m ? (Map<String, Object>) m : JSON.convertValue(data, Map.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aLeavingGatewayStopsItsExperimentWritesItsFilesAndJournalsItStopped() throws Exception {
        Path results = Files.createTempDirectory("loadlab-leave");
        int seed = TwoMemberClusterTest.freePort();
        ClusterMember gateway = member(List.of("balancer", "gateway"), seed, seed, results);
        member(List.of("node"), TwoMemberClusterTest.freePort(), seed, results);
        Gateway.ExperimentRequest req = new Gateway.ExperimentRequest("quickstart", null, List.of("nodes.count=4", "duration=120",
                "warmup=0", "demand.mean=0.1", "arrivals.utilisation=0.5"), "p2c", 5L, 1.0);
        GatewayReply created = await("the node member's host and the journal (not 503)").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250)).until(() -> ask(gateway, to -> new Gateway.Create(req, to)),
                        r -> !(r instanceof GatewayReply.Problem p && p.kind() == GatewayReply.Kind.NOT_READY));
        String id = (String) ((Map<String, Object>) ((GatewayReply.Created) created).data()).get("id");
        await("20 requests completed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> ((Number) ((Map<String, Object>) status(gateway, id).get("progress")).get("completed")).longValue() >= 20);

        members.remove(gateway);
        gateway.leave("standard input closed (parent process gone)").toCompletableFuture().join();
        gateway.awaitTermination();

        Path dir = results.resolve(id);
        for (String f : List.of("results.csv", "results.json", "timeseries.csv", "run-info.json")) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), "result file " + f);
        }
        JsonNode info = JSON.readTree(dir.resolve("run-info.json").toFile());
        assertEquals("stopped by the gateway's shutdown (standard input closed (parent process gone))",
                info.get("end_reason").asText());
        assertEquals(0, info.get("events").size(), "the node member was there until the end: " + info.get("events"));
        assertTrue(info.get("accounting").get("ok").asBoolean(), info.get("accounting").toString());

        int again = TwoMemberClusterTest.freePort();
        ClusterMember next = member(List.of("all"), again, again, results);
        Map<String, Object> s = await("the new gateway to recover the experiment").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> status(next, id), x -> x.get("status") != null);
        assertEquals("stopped", s.get("status"), "journaled as stopped, not interrupted: " + s);
        assertEquals(true, s.get("journaled"));
        assertEquals(dir.toString(), ((Map<String, Object>) s.get("results")).get("dir"));
    }
}

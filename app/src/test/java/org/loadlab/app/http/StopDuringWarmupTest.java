package org.loadlab.app.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.shell.cluster.ClusterMember;
import org.loadlab.shell.cluster.MemberOptions;

/**
 * DELETE of an experiment still in its JIT warm-up (a fresh cluster's first experiment spends
 * about 20 s there): it used to end {@code stopped} on this gateway but be journaled as {@code
 * failed}, so a later gateway on the same results directory listed it as failed, and its status
 * kept the phase "jit-warm-up ..." after it had ended.
 */
class StopDuringWarmupTest {

    private static ClusterMember member(Path results) throws Exception {
        MemberOptions options = new MemberOptions(List.of("all"), "127.0.0.1", HttpApiTest.freePort(), List.of(), "127.0.0.1",
                HttpApiTest.freePort(), HttpApiTest.freePort(), List.of("loadlab.cluster.results-dir = \""
                + results.toString().replace("\\", "/") + "\"", "loadlab.cluster.jit-warmup = 30s", "loadlab.metrics.kamon = off"));
        return ClusterMember.start(options.config(), ControlApi.edge());
    }

    private static HttpApiTest.Reply call(ClusterMember m, String method, String path) throws Exception {
        return HttpApiTest.call(method, path, null, null, m.httpPort());
    }

    @Test
    void aStopDuringTheJitWarmUpIsStoppedHereAndInTheJournalWithoutAStalePhase() throws Exception {
        Path results = Files.createTempDirectory("loadlab-stop-warmup");
        ClusterMember first = member(results);
        String id;
        try {
            HttpApiTest.Reply created = await("POST /experiments to be taken").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> HttpApiTest.call("POST", "/experiments", "{\"scenario\":\"quickstart\",\"set\":{\"duration\":30,"
                            + "\"warmup\":2,\"nodes.count\":2}}", null, first.httpPort()), r -> r.status() != 503);
            assertEquals(201, created.status(), String.valueOf(created.body()));
            id = created.body().get("id").asText();
            JsonNode warming = call(first, "GET", "/experiments/" + id).body();
            assertTrue(warming.path("phase").asText().startsWith("jit-warm-up"), warming.toString());
            assertEquals(202, call(first, "DELETE", "/experiments/" + id).status());
            JsonNode stopped = await("the experiment to end").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> call(first, "GET", "/experiments/" + id).body(), s -> !s.get("status").asText().equals("starting"));
            assertEquals("stopped", stopped.get("status").asText(), stopped.toString());
            assertEquals("stopped by request before it started", stopped.path("endReason").asText(), stopped.toString());
            assertFalse(stopped.has("phase"), "an ended experiment is in no phase: " + stopped);
            assertFalse(stopped.has("error"), "a stop is not an error: " + stopped);
        } finally {
            first.leave("test: first gateway done").toCompletableFuture().join();
            first.awaitTermination();
        }
        ClusterMember second = member(results);
        try {
            JsonNode journaled = await("the journaled experiment to be listed").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> call(second, "GET", "/experiments/" + id), r -> r.status() == 200).body();
            assertEquals("stopped", journaled.get("status").asText(), "the journal holds what the first gateway showed: " + journaled);
            assertEquals("stopped by request before it started", journaled.path("endReason").asText(), journaled.toString());
        } finally {
            second.leave("test: second gateway done").toCompletableFuture().join();
            second.awaitTermination();
        }
    }
}

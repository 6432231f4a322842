package org.loadlab.app.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.loadlab.shell.cluster.ClusterMember;
import org.loadlab.shell.cluster.Gateway;
import org.loadlab.shell.cluster.MemberOptions;

/**
 * A control API that cannot be blocked: while an experiment runs at 1,000 requests/s on a
 * one-member cluster, hostile requests arrive — 50,000 {@code set} keys (which used to run a
 * quadratic merge on the gateway's thread for minutes, every later call answered 504), a
 * thousand unknown keys, a scenario with 15,000 scripted events, all repeated. Each is
 * refused with a 4xx naming the field; meanwhile the API answers GET /health and GET
 * /experiments/{id} as before (each well within two seconds, a bound the old behaviour
 * missed by minutes), and the experiment completes its offered rate with nothing rejected.
 */
// solo: asserts the running experiment holds its offered 1,000 requests/s within 5% under hostile input
@Tag("solo")
class HostileInputTest {
    private static ClusterMember member;

    @BeforeAll
    static void start() throws Exception {
        Path results = Files.createTempDirectory("loadlab-hostile");
        MemberOptions options = new MemberOptions(List.of("all"), "127.0.0.1", HttpApiTest.freePort(), List.of(), "127.0.0.1",
                HttpApiTest.freePort(), HttpApiTest.freePort(), List.of(
                "loadlab.cluster.results-dir = \"" + results.toString().replace("\\", "/") + "\"",
                "loadlab.cluster.jit-warmup = 0s", "loadlab.metrics.kamon = off",
                // The running experiment's 4 ms services are below what the 1 ms scheduler tick times within 10%;
                // this test measures its throughput and books under hostile input, not its response times.
                "loadlab.cluster.timer-lag-check = off"));
        member = ClusterMember.start(options.config(), ControlApi.edge());
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> call("GET", "/health", null).status() == 200);
    }

    @AfterAll
    static void stop() {
        if (member != null) {
            member.leave("test done").toCompletableFuture().join();
            member.awaitTermination();
        }
    }

    static HttpApiTest.Reply call(String method, String path, String body) throws Exception {
        return HttpApiTest.call(method, path, body, null, member.httpPort());
    }

    static String manyKeys(int n, String prefix) {
        StringBuilder b = new StringBuilder("{\"scenario\":\"quickstart\",\"set\":{");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append('"').append(prefix).append(i).append("\":").append(i);
        }
        return b.append("}}").toString();
    }

    static String manyEvents(int n) {
        StringBuilder b = new StringBuilder("{\"scenario\":{\"name\":\"hostile\",\"nodes\":{\"count\":5000},\"events\":[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append("{\"type\":\"degrade\",\"at\":").append(1 + i % 50).append(",\"factor\":0.5,"
                    + "\"nodes\":[").append(i % 5000).append("]}");
        }
        return b.append("]}}").toString();
    }

    @Test
    void hostileRequestsAreRefusedWhileTheRunningExperimentAndTheApiCarryOn() throws Exception {
        HttpApiTest.Reply created = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> call("POST", "/experiments", "{\"scenario\":\"quickstart\",\"policy\":\"p2c\",\"seed\":3,\"set\":{"
                        + "\"nodes.count\":8,\"duration\":14,\"warmup\":2,\"demand.distribution\":\"deterministic\","
                        + "\"demand.mean\":0.004,\"arrivals.utilisation\":0.5,\"information.probe-timeout\":0.5}}"), r -> r.status() != 503);
        assertEquals(201, created.status(), String.valueOf(created.body()));
        String id = created.body().get("id").asText();
        await().atMost(Duration.ofSeconds(10)).until(() -> call("GET", "/experiments/" + id, null).body().get("status").asText()
                .equals("running"));

        // 50,000 keys (about 700 kB, under the 1 MiB body limit, so the gateway itself must refuse it
        // fast: a quadratic merge of that many keys took minutes). A body over the limit gets 413 at the
        // edge, tested in HttpApiTest; here its connection can be reset before the client reads the 413.
        String huge = manyKeys(50_000, "k");
        assertTrue(huge.length() < ControlApi.MAX_BODY_BYTES, "under the body limit: " + huge.length());
        String unknown = manyKeys(Gateway.MAX_OVERRIDES, "no.such.key");
        String events = manyEvents(15_000);
        assertTrue(events.length() < ControlApi.MAX_BODY_BYTES, "under the body limit: " + events.length());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Long> probeMillis = Collections.synchronizedList(new ArrayList<>());
        List<String> hostileAnswers = Collections.synchronizedList(new ArrayList<>());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(7);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (String body : List.of(huge, unknown, events)) {
                work.add(pool.submit(() -> {
                    while (System.nanoTime() < until) {
                        HttpApiTest.Reply r = call("POST", "/experiments", body);
                        hostileAnswers.add(r.status() + " " + r.body().path("field").asText());
                    }
                    return null;
                }));
            }
            work.add(pool.submit(() -> {
                while (System.nanoTime() < until) {
                    long t0 = System.nanoTime();
                    assertEquals(200, call("GET", "/health", null).status());
                    assertEquals(200, call("GET", "/experiments/" + id, null).status());
                    probeMillis.add((System.nanoTime() - t0) / 1_000_000);
                    Thread.sleep(100);
                }
                return null;
            }));
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(hostileAnswers.size() >= 6, "every hostile request was answered, again and again: " + hostileAnswers.size());
        for (String a : hostileAnswers) {
            // 400 naming the field, each refused by the gateway without blocking it (an invalid
            // scenario names the key of its first problem: "no", the unknown first segment of no.such.key0)
            assertTrue(a.equals("400 set") || a.equals("400 no") || a.equals("400 events"), a);
        }
        assertTrue(hostileAnswers.contains("400 set"), "50,000 set keys: more than the gateway takes, refused at once");
        assertTrue(hostileAnswers.contains("400 no"), "1,000 unknown keys: an invalid scenario, its first unknown key named");
        assertTrue(hostileAnswers.contains("400 events"), "15,000 events: too many for a cluster experiment");
        long worst = probeMillis.stream().mapToLong(Long::longValue).max().orElseThrow();
        System.out.printf("hostile input: %d refusals; %d probes of GET /health + GET /experiments/{id}, slowest pair %d ms%n",
                hostileAnswers.size(), probeMillis.size(), worst);
        assertTrue(probeMillis.size() >= 20, "the API kept answering: " + probeMillis.size() + " probes");
        assertTrue(worst < 2000, "the API answered every probe within 2 s, the slowest took " + worst + " ms");

        JsonNode done = await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
                .until(() -> call("GET", "/experiments/" + id, null).body(), b -> List.of("finished", "failed", "stopped")
                        .contains(b.get("status").asText()));
        assertEquals("finished", done.get("status").asText(), done.toString());
        JsonNode m = done.get("results").get("metrics");
        assertEquals(0, m.get("requestsRejected").asLong(), "nothing rejected: " + m);
        assertTrue(done.get("accounting").get("ok").asBoolean(), done.get("accounting").toString());
        double lambda = 0.5 * 8 / 0.004;
        assertTrue(Math.abs(m.get("throughputRps").asDouble() - lambda) < 0.05 * lambda, "the offered 1,000 requests/s completed: "
                + m.get("throughputRps"));
    }
}

package org.loadlab.app.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.testkit.TestRoute;
import org.apache.pekko.http.javadsl.testkit.TestRouteResult;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.shell.gateway.AutonomousStack;

/**
 * Every endpoint of seed 003's HTTP gateway on Pekko HTTP's route testkit, against a live
 * {@link AutonomousStack} (node, balancer and control-plane actors on real time): routed
 * requests with their headers, per-request strategies, the strategy switch, explain-routing,
 * chaos with its mask, QoS shedding (429), metrics, every bad input (unknown or missing
 * fields, unknown query parameters) as a 400 problem naming the field, the value and what is
 * allowed, and a body over the limit as a 413.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewayRoutesTest extends JupiterRouteTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private AutonomousStack stack;
    private TestRoute route;

    @AfterAll
    void closeMetrics() {
        stack.closeMetrics();
    }

    @BeforeAll
    void startStack() {
        Scenario s = TestScenarios.load("autonomous", "balancers.count = 5", "autoscaler.enabled = false", "nodes.count = 5");
        stack = AutonomousStack.start(testKit.system(), s, "lin-ts", 101, null);
        Route r = new GatewayRoutes(stack).routes();
        route = testRoute(r);
    }

    @Override
    public scala.concurrent.duration.FiniteDuration awaitDuration() {
        return scala.concurrent.duration.FiniteDuration.apply(15, java.util.concurrent.TimeUnit.SECONDS);
    }

    private static JsonNode body(TestRouteResult r) {
        try {
            return JSON.readTree(r.entityString());
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + r.entityString(), e);
        }
    }

    private static String header(TestRouteResult r, String name) {
        return r.response().getHeader(name).map(h -> h.value()).orElse("");
    }

    private TestRouteResult post(String uri, String json) {
        return route.run(HttpRequest.POST(uri).withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, json)));
    }

    private static void problem(TestRouteResult r, String field, String value) {
        r.assertStatusCode(400);
        r.assertMediaType("application/problem+json");
        JsonNode p = body(r);
        assertEquals(field, p.get("field").asText(), p.toString());
        if (value != null) {
            assertEquals(value, p.get("value").asText(), p.toString());
        }
        assertTrue(p.has("allowed") && !p.get("allowed").isNull(), "names what is allowed: " + p);
    }

    @Test
    @Order(1)
    void everyEndpointRoutesToANodeActorAndAnswersWithTheSeedsHeaders() {
        for (String endpoint : new String[] {"/auth", "/checkout", "/play-video", "/analytics", "/logs"}) {
            TestRouteResult r = route.run(HttpRequest.GET(endpoint));
            r.assertStatusCode(200);
            assertTrue(header(r, "X-Routed-To").matches("Node-[1-5]"), r.response().toString());
            assertTrue(!header(r, "X-Routing-Mode").isEmpty());
            assertTrue(header(r, "X-Decision-Reason").startsWith("Strategy="));
            assertTrue(header(r, "X-Proxy-Latency").endsWith(" ms"));
            JsonNode b = body(r);
            assertEquals("success", b.get("status").asText());
            assertEquals(endpoint, b.get("endpoint").asText());
        }
        TestRouteResult p2c = route.run(HttpRequest.GET("/checkout?strategy=p2c"));
        p2c.assertStatusCode(200);
        p2c.assertHeaderExists("X-Routing-Mode", "p2c");
        assertEquals("p2c", body(p2c).get("strategy").asText());
        route.run(HttpRequest.GET("/auth?strategy=weighted_round_robin")).assertHeaderExists("X-Routing-Mode", "weighted_random");
    }

    @Test
    @Order(2)
    void linTsRoutesByPublishedWeightsOnceTheControlPlaneHasPublished() {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                !body(route.run(HttpRequest.GET("/explain-routing"))).get("circuit_breaker_tripped").asBoolean());
        route.run(HttpRequest.GET("/auth")).assertHeaderExists("X-Routing-Mode", "lin_ts");
        JsonNode e = body(route.run(HttpRequest.GET("/explain-routing")));
        assertEquals("lin_ts", e.get("active_strategy").asText());
        assertEquals(5, e.get("registered_instances_count").asInt());
        JsonNode nodes = e.get("candidate_evaluations");
        assertEquals(5, nodes.size());
        double sum = 0;
        int top = 0;
        for (JsonNode n : nodes) {
            sum += n.get("rl_weight").asDouble();
            assertTrue(n.get("rl_weight_percentage").asText().endsWith("%"));
            assertTrue(n.get("cpu_load").asText().endsWith("%"), n.toString());
            assertTrue(n.has("queue_depth") && n.has("recent_p99_ms"));
            top += n.get("status").asText().equals("TOP_CHOICE") ? 1 : 0;
        }
        assertEquals(1.0, sum, 0.01, "the weights sum to 1: " + nodes);
        assertEquals(1, top, "one top choice: " + nodes);
        assertEquals("Instance-1 (high-compute)", nodes.get(0).get("name").asText());
    }

    @Test
    @Order(3)
    void aCpuSpikeMasksTheNodeAndClearingRestoresIt() {
        TestRouteResult r = post("/chaos/inject?node_idx=0", "{\"fault_type\": \"cpu_spike\", \"extra_latency_ms\": 300}");
        r.assertStatusCode(200);
        assertEquals("injected", body(r).get("status").asText());
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> body(route.run(HttpRequest.GET("/explain-routing")))
                .get("candidate_evaluations").get(0).get("status").asText().equals("MASKED_HIGH_CPU"));
        for (int i = 0; i < 20; i++) {
            TestRouteResult a = route.run(HttpRequest.GET("/auth?strategy=round_robin"));
            assertTrue(!header(a, "X-Routed-To").equals("Node-1"), "round robin skips the masked node too");
        }
        post("/chaos/clear", "").assertStatusCode(200);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !body(route.run(HttpRequest.GET("/explain-routing")))
                .get("candidate_evaluations").get(0).get("status").asText().equals("MASKED_HIGH_CPU"));
    }

    @Test
    @Order(4)
    void withEveryNodeHotLowPriorityRequestsAreShedWith429() {
        for (int j = 0; j < 5; j++) {
            post("/chaos/inject?node_idx=" + j, "{\"fault_type\": \"cpu_spike\", \"extra_latency_ms\": 0}").assertStatusCode(200);
        }
        // Shedding starts on the nodes' mean CPU, which four hot nodes of five can already
        // raise past the limit: wait until every node is masked, then look.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (JsonNode n : body(route.run(HttpRequest.GET("/explain-routing"))).get("candidate_evaluations")) {
                if (!n.get("status").asText().startsWith("MASKED")) {
                    return false;
                }
            }
            return true;
        });
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> route.run(HttpRequest.GET("/analytics")).response()
                .status().intValue() == 429);
        TestRouteResult shed = route.run(HttpRequest.GET("/logs"));
        shed.assertStatusCode(429);
        shed.assertHeaderExists("X-Routing-Mode", "qos_shed");
        shed.assertHeaderExists("Retry-After", String.valueOf(GatewayRoutes.SHED_RETRY_AFTER_SECONDS));
        assertEquals("shedded", body(shed).get("status").asText());
        TestRouteResult auth = route.run(HttpRequest.GET("/auth"));
        assertTrue(auth.response().status().intValue() != 429, "high priority is never shed");
        auth.assertHeaderExists("X-Routing-Mode", "fallback_all_masked_least_conn");
        post("/chaos/clear", "").assertStatusCode(200);
        // The CPUs cool down over the next ticks; the next test needs every mask lifted.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (JsonNode n : body(route.run(HttpRequest.GET("/explain-routing"))).get("candidate_evaluations")) {
                if (n.get("status").asText().startsWith("MASKED")) {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    @Order(5)
    void theStrategySwitchAndMetrics() {
        post("/strategy", "{\"strategy\": \"round_robin\"}").assertStatusCode(200);
        route.run(HttpRequest.GET("/strategy")).assertEntity("{\"active_strategy\":\"round_robin\"}");
        PrometheusText before = metricsAfterNextTick();
        assertEquals(0, before.sum("loadlab_gateway_requests_total", "strategy", "round_robin", "endpoint", "/play-video"),
                "no round-robin /play-video request yet");
        for (int i = 0; i < 3; i++) {
            route.run(HttpRequest.GET("/play-video")).assertHeaderExists("X-Routing-Mode", "round_robin");
        }
        post("/strategy", "{\"strategy\": \"lin-ts\"}").assertStatusCode(200);
        // Kamon's reporter shows the instruments as of its last tick (every second).
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> metrics().sum("loadlab_gateway_requests_total",
                "strategy", "round_robin", "endpoint", "/play-video") == 3);
        PrometheusText m = metrics();
        assertEquals(before.sum("loadlab_gateway_routing_mode_total", "strategy", "round_robin", "mode", "round_robin") + 3,
                m.sum("loadlab_gateway_routing_mode_total", "strategy", "round_robin", "mode", "round_robin"));
        assertEquals(3, m.sum("loadlab_gateway_request_latency_seconds_count", "strategy", "round_robin", "endpoint", "/play-video"));
        assertTrue(m.sum("loadlab_gateway_requests_total", "endpoint", "/auth", "status", "200") > 0);
        assertTrue(m.sum("loadlab_gateway_routing_mode_total", "mode", "lin_ts") > 0);
        double shed = m.sum("loadlab_gateway_shed_total");
        assertTrue(shed > 0, "test 4 shed requests");
        assertEquals(shed, m.sum("loadlab_gateway_shed_total", "priority", "low"), "only low priority is shed");
        assertEquals(shed, m.sum("loadlab_gateway_requests_total", "status", "429"));
        assertTrue(m.sum("loadlab_gateway_control_steps_total") > 0, "the control plane stepped");
        assertTrue(m.has("loadlab_gateway_node_weight") && m.has("loadlab_gateway_node_cpu"));
        assertEquals(5, m.sum("loadlab_gateway_node_member"), "five members");
        assertTrue(m.has("loadlab_gateway_circuit_breaker_tripped"));
        // Each node shows one mask reason at 1 (the others it had at 0); the gauges are sampled, so wait for a tick
        // that did not fall between a node's two updates.
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> metrics().sum("loadlab_gateway_node_mask") == 5);
    }

    private String scrape() {
        TestRouteResult r = route.run(HttpRequest.GET("/metrics"));
        r.assertStatusCode(200);
        return r.entityString();
    }

    private PrometheusText metrics() {
        return new PrometheusText(scrape());
    }

    /** The metrics of a Kamon tick after this call: everything recorded before it (the weights' age changes every tick). */
    private PrometheusText metricsAfterNextTick() {
        String now = scrape();
        String[] next = new String[1];
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !(next[0] = scrape()).equals(now));
        return new PrometheusText(next[0]);
    }

    @Test
    @Order(6)
    void badInputIsA400ProblemNamingTheFieldTheValueAndWhatIsAllowed() {
        problem(route.run(HttpRequest.GET("/auth?strategy=fastest")), "strategy", "fastest");
        problem(post("/strategy", "{\"strategy\": \"fastest\"}"), "strategy", "fastest");
        problem(post("/chaos/inject?node_idx=42", "{\"fault_type\": \"latency\"}"), "node_idx", "42");
        problem(post("/chaos/inject?node_idx=two", "{}"), "node_idx", "two");
        problem(post("/chaos/inject", "{}"), "node_idx", null);
        problem(post("/chaos/inject?node_idx=1", "{\"fault_type\": \"meltdown\"}"), "fault_type", "meltdown");
        problem(post("/chaos/inject?node_idx=1", "{\"fault_type\": \"latency\", \"extra_latency_ms\": -5}"),
                "extra_latency_ms", "-5.0");
        // 1e400 overflows to Infinity, which JSON cannot hold: the problem names it, not null
        problem(post("/chaos/inject?node_idx=1", "{\"fault_type\": \"latency\", \"extra_latency_ms\": 1e400}"),
                "extra_latency_ms", "Infinity");
        problem(post("/chaos/inject?node_idx=1", "not json"), "body", "not json");
        // more after the object was ignored: the fault was injected and {"x": 1} never looked at
        TestRouteResult trailing = post("/chaos/inject?node_idx=1", "{\"fault_type\": \"latency\"}{\"x\": 1}");
        problem(trailing, "body", "{\"fault_type\": \"latency\"}{\"x\": 1}");
        assertEquals("the request body has more after its JSON object; send one JSON object",
                body(trailing).get("detail").asText(), body(trailing).toString());
        problem(post("/strategy", "{\"strategy\": \"p2c\"} trailing"), "body", "{\"strategy\": \"p2c\"} trailing");
        problem(post("/chaos/inject?node_idx=1", "[1, 2]"), "body", "[1, 2]");
        TestRouteResult typo = post("/chaos/inject?node_idx=1", "{\"fault_typ\": \"latency\"}");
        problem(typo, "fault_typ", "latency");
        assertTrue(body(typo).get("detail").asText().contains("unknown field 'fault_typ'"), body(typo).toString());
        assertEquals("[\"extra_latency_ms\",\"fault_type\"]", body(typo).get("allowed").toString());
        for (String none : new String[] {"", "{}", "{\"extra_latency_ms\": 50}"}) {
            TestRouteResult r = post("/chaos/inject?node_idx=1", none);
            problem(r, "fault_type", null);
            assertTrue(body(r).get("detail").asText().startsWith("missing field fault_type"), body(r).toString());
        }
        problem(post("/chaos/inject?node_idx=1", "{\"fault_type\": 3}"), "fault_type", "3");
        problem(post("/chaos/inject?node_idx=1", "{\"fault_type\": \"latency\", \"extra_latency_ms\": \"lots\"}"),
                "extra_latency_ms", "lots");
        TestRouteResult noStrategy = post("/strategy", "{}");
        problem(noStrategy, "strategy", null);
        assertTrue(body(noStrategy).get("detail").asText().startsWith("missing field strategy"), body(noStrategy).toString());
        problem(post("/strategy", "{\"strategy\": \"p2c\", \"strategyy\": 1}"), "strategyy", "1");
        problem(post("/strategy", "{\"strategy\": 7}"), "strategy", "7");
        problem(post("/strategy", "p2c"), "body", "p2c");
        TestRouteResult misspelt = route.run(HttpRequest.GET("/auth?stratgy=p2c"));
        problem(misspelt, "stratgy", "p2c");
        assertTrue(body(misspelt).get("detail").asText().contains("unknown query parameter 'stratgy'"), body(misspelt).toString());
        assertEquals("[\"strategy\"]", body(misspelt).get("allowed").toString());
        problem(post("/chaos/inject?node=1", "{\"fault_type\": \"latency\"}"), "node", "1");
        problem(route.run(HttpRequest.GET("/explain-routing?verbose=1")), "verbose", "1");
        problem(post("/chaos/clear?node_idx=1", ""), "node_idx", "1");
        problem(post("/strategy?strategy=p2c", "{\"strategy\": \"p2c\"}"), "strategy", "p2c");
        TestRouteResult twice = route.run(HttpRequest.GET("/auth?strategy=p2c&strategy=lin_ts"));
        problem(twice, "strategy", null);
        assertEquals("[\"p2c\",\"lin_ts\"]", body(twice).get("value").toString());
        assertTrue(body(twice).get("detail").asText().contains("'strategy' is given 2 times (p2c, lin_ts); give it once"),
                body(twice).toString());
        problem(post("/chaos/inject?node_idx=0&node_idx=1", "{\"fault_type\": \"latency\"}"), "node_idx", null);
        TestRouteResult dup = post("/chaos/inject?node_idx=1", "{\"fault_type\":\"latency\",\"fault_type\":\"cpu_spike\"}");
        problem(dup, "fault_type", null);
        assertTrue(body(dup).get("detail").asText().contains("field 'fault_type' is given more than once"), body(dup).toString());
        problem(post("/strategy", "{\"strategy\": \"p2c\", \"strategy\": \"round_robin\"}"), "strategy", null);
        TestRouteResult clearField = post("/chaos/clear", "{\"x\":1}");
        problem(clearField, "x", "1");
        assertTrue(body(clearField).get("detail").asText().contains("POST /chaos/clear takes no body fields"),
                body(clearField).toString());
        problem(post("/chaos/clear", "[]"), "body", "[]");
        post("/chaos/clear", "{}").assertStatusCode(200);
        route.run(HttpRequest.GET("/strategy")).assertEntity("{\"active_strategy\":\"lin_ts\"}"); // nothing changed
        TestRouteResult missing = route.run(HttpRequest.GET("/nowhere"));
        missing.assertStatusCode(404);
        missing.assertMediaType("application/problem+json");
        TestRouteResult delete = route.run(HttpRequest.DELETE("/auth"));
        delete.assertStatusCode(405);
        delete.assertHeaderExists("Allow", "GET");
        TestRouteResult strategy = route.run(HttpRequest.DELETE("/strategy"));
        strategy.assertStatusCode(405);
        strategy.assertHeaderExists("Allow", "GET, POST");
    }

    @Test
    @Order(7)
    void theDefaultExtraLatencyIs300MsAndABodyOverTheLimitIsA413() {
        TestRouteResult r = post("/chaos/inject?node_idx=2", "{\"fault_type\": \"latency\"}");
        r.assertStatusCode(200);
        assertEquals(300.0, body(r).get("extra_latency_ms").asDouble(), body(r).toString());
        post("/chaos/clear", "").assertStatusCode(200);
        byte[] huge = new byte[(int) ControlApi.MAX_BODY_BYTES + 1];
        java.util.Arrays.fill(huge, (byte) ' ');
        for (String uri : new String[] {"/chaos/inject?node_idx=1", "/strategy"}) {
            TestRouteResult big = route.run(HttpRequest.POST(uri).withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON,
                    huge)));
            big.assertStatusCode(413);
            big.assertMediaType("application/problem+json");
            JsonNode p = body(big);
            assertEquals("body", p.get("field").asText(), p.toString());
            assertEquals(huge.length, p.get("value").asLong(), p.toString());
            assertTrue(p.get("detail").asText().contains("1 MiB") && p.get("allowed").asText().contains("1048576"), p.toString());
            assertTrue(!p.toString().contains("Rejection") && !p.toString().contains("Exception"), p.toString());
        }
    }
}

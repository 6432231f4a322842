package org.loadlab.app.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.shell.gateway.AutonomousStack;

/**
 * The gateway's GET /metrics over a real connection (Pekko HTTP bound to a free loopback port, the JDK's HTTP client), as
 * Prometheus scrapes it: Kamon's exposition counts requests from zero as they are answered, and after chaos on every
 * node (masks, shedding, fail-open, scale-ups) it has every series the Grafana dashboard
 * ({@code docker/grafana/dashboards/autonomous.json}) queries. Waits poll (Awaitility): the exposition is Kamon's as of
 * its last tick (every second).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewayMetricsTest {
    private static final Path DASHBOARD = Path.of("..", "docker", "grafana", "dashboards", "autonomous.json");
    private static final Pattern METRIC = Pattern.compile("loadlab_[a-z0-9_]+");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final ActorTestKit testKit = ActorTestKit.create();
    private AutonomousStack stack;
    private ServerBinding binding;

    @BeforeAll
    void start() throws Exception {
        // The autonomous scenario as the gateway runs it: five nodes, five autoscaled slots, the autoscaler on.
        stack = AutonomousStack.start(testKit.system(), TestScenarios.load("autonomous", "balancers.count = 5"), "lin-ts", 101,
                null);
        binding = Http.get(testKit.system()).newServerAt("127.0.0.1", 0).bind(new GatewayRoutes(stack).routes())
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    void stop() throws Exception {
        stack.closeMetrics();
        binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
        testKit.shutdownTestKit();
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + binding.localAddress().getPort() + path);
        HttpRequest.Builder r = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20));
        r = body == null ? r.method(method, HttpRequest.BodyPublishers.noBody())
                : r.method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private PrometheusText scrape() throws Exception {
        HttpResponse<String> r = send("GET", "/metrics", null);
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().toString());
        return new PrometheusText(r.body());
    }

    @Test
    @Order(1)
    void requestCountersStartAtZeroAndCountEveryAnsweredRequest() throws Exception {
        PrometheusText empty = scrape();
        assertEquals(0, empty.sum("loadlab_gateway_requests_total"), "no request yet");
        for (int i = 0; i < 5; i++) {
            int status = send("GET", "/auth", null).statusCode();
            assertTrue(status == 200 || status == 500, "an idle node serves it (or fails it): " + status);
        }
        Awaitility.await("the 5 requests in Kamon's exposition").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> scrape().sum("loadlab_gateway_requests_total", "endpoint", "/auth", "strategy", "lin_ts") == 5);
        PrometheusText m = scrape();
        assertEquals(5, m.sum("loadlab_gateway_requests_total"), "only those");
        assertEquals(5, m.sum("loadlab_gateway_request_latency_seconds_count", "endpoint", "/auth", "strategy", "lin_ts"));
        assertEquals(5, m.sum("loadlab_gateway_request_latency_seconds_bucket", "endpoint", "/auth", "le", "+Inf"));
        assertEquals(5, m.sum("loadlab_gateway_routing_mode_total", "strategy", "lin_ts"));
        assertEquals(5, m.sum("loadlab_gateway_added_latency_seconds_count", "strategy", "lin_ts"), "a node answered each");
    }

    @Test
    @Order(2)
    void afterChaosOnEveryNodeTheScrapeHasEverySeriesTheDashboardQueries() throws Exception {
        Set<String> queried = dashboardMetrics();
        assertTrue(queried.size() >= 15, "the dashboard queries the gateway's metrics: " + queried);
        for (int j = 0; j < 5; j++) {
            assertEquals(200, send("POST", "/chaos/inject?node_idx=" + j, "{\"fault_type\": \"cpu_spike\", \"extra_latency_ms\": 0}")
                    .statusCode());
        }
        Awaitility.await("a low-priority request shed (429)").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> send("GET", "/logs", null).statusCode() == 429);
        send("GET", "/checkout", null);
        Awaitility.await("every series the dashboard queries (scale-ups need 3 hot autoscaler checks)")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> missing(scrape(), queried).isEmpty());
        // The gauges are sampled every tick: the active count follows the scale-up counter within one.
        Awaitility.await("the active-node gauge after a scale-up").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> scrape().sum("loadlab_gateway_nodes_active") > 5);
        PrometheusText m = scrape();
        assertTrue(m.sum("loadlab_gateway_node_mask", "reason", "high_cpu") >= 1, "a node masked for its CPU");
        assertTrue(m.sum("loadlab_gateway_autoscaler_actions_total", "action", "scale_up") >= 1);
        assertTrue(m.sum("loadlab_gateway_shed_total", "priority", "low") >= 1);
        assertEquals(0, m.sum("loadlab_gateway_shed_total", "priority", "high"), "high priority is never shed");
        assertTrue(m.samples().stream().anyMatch(s -> s.name().equals("loadlab_gateway_request_latency_seconds_bucket")
                && "0.2".equals(s.labels().get("le"))), "the SLA panel's le=\"0.2\" bucket");
        assertEquals(200, send("POST", "/chaos/clear", "").statusCode());
    }

    /** Every metric name in the dashboard's queries (panels and template variables). */
    private static Set<String> dashboardMetrics() throws Exception {
        JsonNode d = JSON.readTree(DASHBOARD.toFile());
        Set<String> names = new TreeSet<>();
        for (JsonNode p : d.get("panels")) {
            for (JsonNode t : p.get("targets")) {
                collect(t.get("expr").asText(), names);
            }
        }
        for (JsonNode v : d.get("templating").get("list")) {
            collect(v.get("query").get("query").asText(), names);
        }
        return names;
    }

    private static void collect(String promql, Set<String> into) {
        Matcher m = METRIC.matcher(promql);
        while (m.find()) {
            into.add(m.group());
        }
    }

    private static List<String> missing(PrometheusText scrape, Set<String> names) {
        return names.stream().filter(n -> !scrape.has(n)).toList();
    }
}

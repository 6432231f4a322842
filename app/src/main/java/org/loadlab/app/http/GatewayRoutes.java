package org.loadlab.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.MethodRejection;
import org.apache.pekko.http.javadsl.server.Rejection;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.loadlab.node.protocol.Endpoints;
import org.loadlab.shell.gateway.AutonomousStack;
import org.loadlab.shell.gateway.Strategies;

/**
 * Seed 003's HTTP gateway, the data plane in front of an {@link AutonomousStack} (Pekko HTTP,
 * the seed's shapes):
 * <pre>
 *   GET  /auth /checkout /play-video /analytics /logs [?strategy=]   a request, routed to a node actor
 *   GET  /explain-routing                                            weights, masks, breaker, per node
 *   POST /chaos/inject?node_idx=i {fault_type, extra_latency_ms}     cpu_spike | error_spike | latency
 *   POST /chaos/clear          GET|POST /strategy {strategy}          GET /metrics (Kamon's Prometheus exposition)
 * </pre>
 * A routed request answers with the node's status (200, 500), 429 when shed, 503 when no node
 * could take it or its failover failed, 504 when the gateway gave up waiting, and the headers
 * {@code X-Routed-To}, {@code X-Routing-Mode}, {@code X-Decision-Reason}, {@code X-Proxy-Latency} (and LoadLab's
 * {@code X-Backend-Latency}: decision to answer, so a client can tell what the gateway adds).
 * Bad input (unknown strategy, node index, fault type, a missing {@code fault_type} or
 * {@code strategy}, negative extra latency, a body field or query parameter the path does not
 * know, a body field or query parameter given twice) is a 400 problem+json naming the field, the value and what is allowed; a body over
 * 1 MiB is a 413 ({@link EdgeGuards}). {@code extra_latency_ms} defaults to 300 ms (SPEC.md §6).
 *
 * <p>Source: seed 003 ({@code gateway.py}), SPEC.md §6.
 */
public final class GatewayRoutes extends AllDirectives {
    /** How long a request waits for its outcome (the seed's 4 s per try, twice, and slack). */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** Writes the answers' JSON (bodies are read by {@link JsonBody}). */
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AutonomousStack stack;

    /** @param stack the live system the gateway routes into */
    public GatewayRoutes(AutonomousStack stack) {
        this.stack = stack;
    }

    /**
     * The {@code Retry-After} of a 429 (shed by QoS shedding, or refused by a full node queue),
     * seconds: shedding is decided afresh for every request from the CPU the balancer last read
     * (information.report-period: 0.1 s in the autonomous scenario), and a queue drains at the node's service rate, so either
     * can lift within a second; 1 is the smallest delay the header can say (whole seconds).
     */
    static final int SHED_RETRY_AFTER_SECONDS = 1;

    /** Fields of a {@code POST /chaos/inject} body. */
    static final Set<String> INJECT_FIELDS = Set.of("fault_type", "extra_latency_ms");
    /** The extra latency of a fault when the body does not give one, ms (SPEC.md §6). */
    static final double DEFAULT_EXTRA_LATENCY_MS = 300.0;

    /**
     * Every route, with problem bodies for rejections and exceptions, bodies limited to
     * {@link EdgeGuards#MAX_BODY_BYTES} and unknown query parameters refused.
     */
    public Route routes() {
        List<Route> endpoints = new ArrayList<>();
        for (int i = 0; i < Endpoints.NAMES.size(); i++) {
            int endpoint = i;
            endpoints.add(path(Endpoints.NAMES.get(i), () -> get(() -> EdgeGuards.onlyParameters(Set.of("strategy"),
                    () -> parameterOptional("strategy", s -> request(endpoint, s))))));
        }
        endpoints.add(path("explain-routing", () -> get(() -> EdgeGuards.onlyParameters(Set.of(), this::explain))));
        endpoints.add(pathPrefix("chaos", () -> concat(
                path("inject", () -> post(() -> EdgeGuards.onlyParameters(Set.of("node_idx"), () -> parameterOptional("node_idx",
                        node -> entity(Unmarshaller.entityToString(), body -> inject(node, body)))))),
                path("clear", () -> post(() -> EdgeGuards.onlyParameters(Set.of(), () -> entity(Unmarshaller.entityToString(),
                        this::clear)))))));
        endpoints.add(path("strategy", () -> EdgeGuards.onlyParameters(Set.of(), () -> concat(
                get(() -> complete(json(200, JSON.createObjectNode().put("active_strategy",
                        Strategies.seedName(stack.strategy()))))),
                post(() -> entity(Unmarshaller.entityToString(), this::setStrategy))))));
        endpoints.add(path("metrics", () -> get(() -> EdgeGuards.onlyParameters(Set.of(), this::metrics))));
        return handleExceptions(EdgeGuards.exceptions(), () -> handleRejections(rejections(), () -> EdgeGuards.withBodyLimit(
                () -> concat(endpoints.get(0), endpoints.subList(1, endpoints.size()).toArray(new Route[0])))));
    }

    private RejectionHandler rejections() {
        List<String> paths = new ArrayList<>();
        Endpoints.NAMES.forEach(n -> paths.add("/" + n));
        paths.addAll(List.of("/explain-routing", "/chaos/inject", "/chaos/clear", "/strategy", "/metrics"));
        return RejectionHandler.newBuilder()
                .handleAll(MethodRejection.class, EdgeGuards::methodNotAllowed)
                .handleNotFound(extractRequest(req -> complete(ControlApi.problemResponse(404, "not found", "no resource "
                        + req.getUri().path(), "path", req.getUri().path(), paths))))
                .handleAll(Rejection.class, EdgeGuards::otherRejections)
                .build();
    }

    private static HttpResponse json(int status, JsonNode body) {
        return HttpResponse.create().withStatus(status).withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON,
                body.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static Route badRequest(String field, Object value, Object allowed, String detail) {
        return new AllDirectives() { }.complete(ControlApi.problemResponse(400, "bad request", detail, field, value, allowed));
    }

    /**
     * {@code inner} of the body as a JSON object (an empty body is {@code {}}); a 400 naming
     * {@code body} if it is not one, or naming the field a body gives twice.
     */
    private static Route withObject(String body, String example, java.util.function.Function<ObjectNode, Route> inner) {
        JsonBody parsed = JsonBody.parse(body.isBlank() ? "{}" : body);
        if (parsed.duplicateField() != null) {
            return badRequest(parsed.duplicateField(), shorten(body), "each field once", parsed.duplicateDetail());
        }
        return parsed.object() != null ? inner.apply(parsed.object())
                : badRequest("body", shorten(body), "a JSON object such as " + example, parsed.notAnObjectDetail());
    }

    private static String shorten(String body) {
        return body.length() > 200 ? body.substring(0, 200) + "..." : body;
    }

    // ------------------------------------------------------------------ requests

    private Route request(int endpoint, Optional<String> strategy) {
        String policy = null;
        if (strategy.isPresent()) {
            Optional<String> p = Strategies.policyOf(strategy.get());
            if (p.isEmpty()) {
                return badRequest("strategy", strategy.get(), Strategies.SEED_NAMES,
                        "unknown strategy '" + strategy.get() + "'; allowed " + Strategies.allowed());
            }
            policy = p.get();
        }
        long start = System.nanoTime();
        String name = Endpoints.NAMES.get(endpoint);
        CompletionStage<HttpResponse> answer = stack.route(policy, endpoint, REQUEST_TIMEOUT).thenApply(o -> {
            double ms = (System.nanoTime() - start) / 1e6;
            stack.metrics().answered("/" + name, Endpoints.PRIORITY_NAMES.get(Endpoints.priority(endpoint)), o.strategy(),
                    o.status(), o.mode(), ms / 1000.0, o.backendMs() / 1000.0);
            return respond(name, endpoint, o, ms);
        });
        return completeWithFuture(answer);
    }

    private HttpResponse respond(String endpoint, int index, AutonomousStack.Outcome o, double ms) {
        ObjectNode body = JSON.createObjectNode();
        String routed = o.node() >= 0 ? "Node-" + (o.node() + 1) : "none";
        body.put("status", switch (o.status()) {
            case 200 -> "success";
            case 429 -> "shedded";
            case 500 -> "error";
            default -> "unavailable";
        });
        body.put("endpoint", "/" + endpoint);
        body.put("priority", Endpoints.PRIORITY_NAMES.get(Endpoints.priority(index)));
        body.put("strategy", o.strategy());
        body.put("routing_mode", o.mode());
        body.put("routed_to", routed);
        if (o.node() >= 0) {
            body.put("node_idx", o.node());
        }
        body.put("balancer_status", o.coreStatus());
        String reason = o.status() == 429
                ? "QoS load shedding: mean cluster CPU above " + Math.round(stack.scenario().autonomy().shedding().cpuAbove() * 100)
                + "%, low-priority request shed"
                : "Strategy=" + o.mode() + "; Target=" + routed + "; Outcome=" + o.coreStatus();
        HttpResponse answer = HttpResponse.create().withStatus(o.status())
                .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, body.toString().getBytes(StandardCharsets.UTF_8)));
        if (o.status() == 429) {
            answer = answer.addHeader(RawHeader.create("Retry-After", String.valueOf(SHED_RETRY_AFTER_SECONDS)));
        }
        return answer
                .addHeader(RawHeader.create("X-Routed-To", routed))
                .addHeader(RawHeader.create("X-Routing-Mode", o.mode()))
                .addHeader(RawHeader.create("X-Decision-Reason", reason))
                .addHeader(RawHeader.create("X-Proxy-Latency", String.format(Locale.ROOT, "%.2f ms", ms)))
                .addHeader(RawHeader.create("X-Backend-Latency", Double.isNaN(o.backendMs()) ? "none"
                        : String.format(Locale.ROOT, "%.3f ms", o.backendMs())));
    }

    // ------------------------------------------------------------------ explanations, chaos, strategy

    private Route explain() {
        return completeWithFuture(stack.explain().thenApply(e -> {
            ObjectNode out = JSON.createObjectNode();
            out.put("active_strategy", e.activeStrategy());
            out.put("circuit_breaker_tripped", e.breakerTripped());
            out.put("weights_age_ms", Double.isNaN(e.weightsAgeSeconds()) ? null : e.weightsAgeSeconds() * 1000);
            out.put("registered_instances_count", e.registered());
            ArrayNode nodes = out.putArray("candidate_evaluations");
            for (AutonomousStack.NodeExplain n : e.nodes()) {
                if (!n.member()) {
                    continue;
                }
                ObjectNode c = nodes.addObject();
                c.put("node", "Node-" + (n.node() + 1));
                c.put("name", "Instance-" + (n.node() + 1) + " (" + n.profile() + ")");
                c.put("rl_weight", Math.round(n.weight() * 10000) / 10000.0);
                c.put("rl_weight_percentage", String.format(Locale.ROOT, "%.1f%%", n.weight() * 100));
                c.put("cpu_load", Double.isNaN(n.cpuPercent()) ? "unknown" : String.format(Locale.ROOT, "%.1f%%", n.cpuPercent()));
                c.put("queue_depth", n.queue());
                c.put("recent_p99_ms", Double.isNaN(n.recentP99Ms()) ? null : Math.round(n.recentP99Ms() * 10) / 10.0);
                c.put("status", n.status());
            }
            return json(200, out);
        }));
    }

    private Route inject(Optional<String> nodeParam, String body) {
        if (nodeParam.isEmpty()) {
            return badRequest("node_idx", null, "0.." + (stack.nodeCount() - 1), "POST /chaos/inject needs ?node_idx=i");
        }
        int node;
        try {
            node = Integer.parseInt(nodeParam.get().trim());
        } catch (NumberFormatException e) {
            return badRequest("node_idx", nodeParam.get(), "0.." + (stack.nodeCount() - 1), "node_idx must be a whole number");
        }
        if (node < 0 || node >= stack.nodeCount()) {
            return badRequest("node_idx", node, "0.." + (stack.nodeCount() - 1), "no node " + node);
        }
        String example = "{\"fault_type\": \"cpu_spike\", \"extra_latency_ms\": 300}";
        return withObject(body, example, b -> inject(node, b, example));
    }

    private Route inject(int node, ObjectNode b, String example) {
        String unknown = EdgeGuards.unknownField(b, INJECT_FIELDS);
        if (unknown != null) {
            return badRequest(unknown, b.get(unknown), new TreeSet<>(INJECT_FIELDS), "unknown field '" + unknown + "'");
        }
        JsonNode f = b.get("fault_type");
        if (f == null) {
            return badRequest("fault_type", null, AutonomousStack.FAULTS, "missing field fault_type, e.g. " + example);
        }
        if (!f.isTextual() || !AutonomousStack.FAULTS.contains(f.asText())) {
            return badRequest("fault_type", f, AutonomousStack.FAULTS, "unknown fault type " + f + "; allowed "
                    + String.join(", ", AutonomousStack.FAULTS));
        }
        String fault = f.asText();
        JsonNode x = b.get("extra_latency_ms");
        if (x != null && !x.isNumber()) {
            return badRequest("extra_latency_ms", x, "0..60000 ms (a number)", "extra_latency_ms must be a number");
        }
        double extra = x == null ? DEFAULT_EXTRA_LATENCY_MS : x.asDouble();
        if (!(extra >= 0 && extra <= 60_000)) {
            return badRequest("extra_latency_ms", extra, "0..60000 ms", "extra_latency_ms " + extra
                    + " is out of range: it must be between 0 and 60000");
        }
        stack.inject(node, fault, extra);
        ObjectNode out = JSON.createObjectNode().put("status", "injected").put("node_idx", node).put("fault_type", fault)
                .put("extra_latency_ms", extra);
        return complete(json(200, out));
    }

    /** POST /chaos/clear: no body, or an empty object (a field would be silently ignored otherwise). */
    private Route clear(String body) {
        return withObject(body, "{}", b -> {
            String unknown = EdgeGuards.unknownField(b, Set.of());
            if (unknown != null) {
                return badRequest(unknown, b.get(unknown), List.of(), "unknown field '" + unknown + "'; POST /chaos/clear takes"
                        + " no body fields (it clears every node)");
            }
            stack.clear();
            return complete(json(200, JSON.createObjectNode().put("status", "cleared")));
        });
    }

    private Route setStrategy(String body) {
        return withObject(body, "{\"strategy\": \"p2c\"}", this::setStrategy);
    }

    private Route setStrategy(ObjectNode b) {
        String unknown = EdgeGuards.unknownField(b, Set.of("strategy"));
        if (unknown != null) {
            return badRequest(unknown, b.get(unknown), List.of("strategy"), "unknown field '" + unknown + "'");
        }
        JsonNode s = b.get("strategy");
        if (s == null) {
            return badRequest("strategy", null, Strategies.SEED_NAMES, "missing field strategy, e.g. {\"strategy\": \"p2c\"};"
                    + " allowed " + Strategies.allowed());
        }
        Optional<String> p = s.isTextual() ? Strategies.policyOf(s.asText()) : Optional.empty();
        if (p.isEmpty()) {
            return badRequest("strategy", s, Strategies.SEED_NAMES, "unknown strategy " + s + "; allowed " + Strategies.allowed());
        }
        stack.strategy(p.get());
        return complete(json(200, JSON.createObjectNode().put("active_strategy", Strategies.seedName(p.get()))));
    }

    // ------------------------------------------------------------------ metrics

    /** Kamon's Prometheus exposition of the stack's instruments (GatewayMetrics), as of Kamon's last tick. */
    private Route metrics() {
        return complete(HttpResponse.create().withStatus(200).withEntity(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8,
                stack.metrics().scrape())));
    }
}

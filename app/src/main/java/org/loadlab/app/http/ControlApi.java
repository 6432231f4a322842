package org.loadlab.app.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.MethodRejection;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Rejection;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.loadlab.shell.cluster.GatewayReply;
import org.loadlab.shell.cluster.ClusterSettings;
import org.loadlab.shell.cluster.Gateway;

/**
 * The HTTP control API of the gateway role (Pekko HTTP, JSON via Jackson), described in
 * OpenAPI form in docs/http-api.md:
 * <pre>
 *   GET    /health                 member up?            GET  /cluster   members, roles, reachability
 *   GET    /nodes[?experiment=]    per node state        GET  /explain-routing[?experiment=&amp;last=]
 *   POST   /experiments            start one             GET  /experiments[/{id}]
 *   DELETE /experiments/{id}       stop it               PUT  /policy
 *   POST   /experiments/{id}/rerun run it again (its journaled definition)
 *   POST   /chaos/inject           fault into a node     POST /chaos/clear
 * </pre>
 * Errors are JSON problem bodies ({@code application/problem+json}: type, title, status,
 * detail, and field, value, allowed where they apply). POST, PUT and DELETE need
 * {@code Authorization: Bearer <token>} when the server is bound beyond loopback (or
 * {@code loadlab.cluster.http.require-token = on}).
 */
public final class ControlApi extends AllDirectives {
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
    private static final ContentType PROBLEM = ContentTypes.create(
            MediaTypes.applicationWithFixedCharset("problem+json", HttpCharsets.UTF_8));
    private static final Set<String> EXPERIMENT_FIELDS = Set.of("scenario", "set", "policy", "seed", "timeScale");
    /**
     * The API's JSON: a run's metrics are shown without their time series and histogram, and a
     * number with no value (NaN, e.g. a score the policy does not compute) is {@code null}.
     */
    static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .addMixIn(org.loadlab.analysis.run.RunMetrics.class, MetricsSummary.class)
            .registerModule(org.loadlab.shell.cluster.JsonNumbers.nonFiniteAsNull());

    /** Leaves the bulky parts of a run's metrics out of status answers (they are in the result files). */
    @JsonIgnoreProperties({"series", "responseHistogram"})
    private abstract static class MetricsSummary {
    }

    private final ActorSystem<?> system;
    private final ActorRef<Gateway.Command> gateway;
    private final ClusterSettings settings;
    private final boolean tokenRequired;

    /**
     * @param system the member's actor system
     * @param gateway the gateway actor
     * @param settings the member's settings (HTTP host, token)
     * @throws IllegalStateException if a token is required but none is configured
     */
    public ControlApi(ActorSystem<?> system, ActorRef<Gateway.Command> gateway, ClusterSettings settings) {
        this.system = system;
        this.gateway = gateway;
        this.settings = settings;
        this.tokenRequired = tokenRequired(settings);
        if (missingToken(settings)) {
            throw new IllegalStateException("loadlab.cluster.http.host = " + settings.httpHost()
                    + " is beyond loopback: set a bearer token (LOADLAB_HTTP_TOKEN or loadlab.cluster.http.token)"
                    + " for the requests that change state, or bind to 127.0.0.1");
        }
    }

    /**
     * True if state-changing requests need the bearer token and none is configured: the
     * control API cannot start so ({@code cluster} refuses it before the member starts).
     */
    public static boolean missingToken(ClusterSettings settings) {
        return tokenRequired(settings) && settings.httpToken().isEmpty();
    }

    /** True if state-changing requests need the bearer token. */
    public static boolean tokenRequired(ClusterSettings settings) {
        if (settings.requireToken().equals("on")) {
            return true;
        }
        try {
            return !InetAddress.getByName(settings.httpHost()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return true;
        }
    }

    /** Binds the API to the configured host and port. */
    public CompletionStage<ServerBinding> bind() {
        return Http.get(system).newServerAt(settings.httpHost(), settings.httpPort()).bind(routes());
    }

    /** This API as the edge {@link org.loadlab.shell.cluster.ClusterMember#start} binds in front of the gateway. */
    public static org.loadlab.shell.cluster.ControlEdge edge() {
        return (system, gateway, settings) -> new ControlApi(system, gateway, settings).bind()
                .thenApply(b -> new org.loadlab.shell.cluster.ControlEdge.Binding(b.localAddress().getPort(),
                        () -> b.unbind().thenApply(x -> org.apache.pekko.Done.getInstance())));
    }

    // ------------------------------------------------------------------ responses

    /** The HTTP answer to a gateway reply: the status its kind maps to, JSON or problem+json. */
    static HttpResponse response(GatewayReply r) {
        if (r instanceof GatewayReply.Ok ok) {
            return json(200, ok.data());
        }
        if (r instanceof GatewayReply.Created c) {
            return json(201, c.data()).addHeader(RawHeader.create("Location", c.location()));
        }
        if (r instanceof GatewayReply.Accepted a) {
            return json(202, a.data());
        }
        GatewayReply.Problem p = (GatewayReply.Problem) r;
        int status = switch (p.kind()) {
            case BAD_REQUEST, INVALID_SCENARIO -> 400;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case TOO_MANY -> 429;
            case MEMBER_FAILED -> 502;
            case NOT_READY -> 503;
            case MEMBER_TIMEOUT -> 504;
        };
        String title = switch (p.kind()) {
            case BAD_REQUEST -> "bad request";
            case INVALID_SCENARIO -> "invalid scenario";
            case NOT_FOUND -> "not found";
            case CONFLICT -> "conflict";
            case TOO_MANY -> "too many requests";
            case MEMBER_FAILED -> "bad gateway";
            case NOT_READY -> "service unavailable";
            case MEMBER_TIMEOUT -> "gateway timeout";
        };
        ObjectNode body = problem(status, title, p.detail(), p.field(), p.value(), p.allowed());
        if (!p.problems().isEmpty()) {
            body.set("problems", JSON.valueToTree(p.problems()));
        }
        HttpResponse answer = bytes(status, PROBLEM, body);
        return status == 429 ? answer.addHeader(RawHeader.create("Retry-After", String.valueOf(TOO_MANY_RETRY_AFTER_SECONDS)))
                : answer;
    }

    /**
     * The {@code Retry-After} of a 429 (the running-experiments limit is reached), seconds. A
     * slot frees only when a running experiment ends, after its scenario's duration divided by
     * its time scale (quickstart: 600 s at time scale 1), and the gateway cannot say which
     * ends first (draining, requests-bounded runs); asking again sooner than every 10 s only
     * adds requests, while GET /experiments shows at once when one has ended.
     */
    static final int TOO_MANY_RETRY_AFTER_SECONDS = 10;

    /** A problem body (RFC 9457 shape: type, title, status, detail, and field, value, allowed where they apply). */
    static ObjectNode problem(int status, String title, String detail, String field, Object value, Object allowed) {
        ObjectNode p = JSON.createObjectNode();
        p.put("type", "https://loadlab.dev/problems/" + title.replace(' ', '-'));
        p.put("title", title);
        p.put("status", status);
        p.put("detail", detail);
        if (field != null) {
            p.put("field", field);
        }
        if (value != null) {
            p.set("value", JSON.valueToTree(finiteOrName(value)));
        }
        if (allowed != null) {
            p.set("allowed", JSON.valueToTree(allowed));
        }
        return p;
    }

    /**
     * A problem's value as JSON can hold it: a non-finite number (1e400 overflows to Infinity)
     * as its name, since JSON has no Infinity or NaN and Jackson wrote it as null.
     */
    private static Object finiteOrName(Object value) {
        return value instanceof Double d && !Double.isFinite(d) || value instanceof Float f && !Float.isFinite(f)
                ? String.valueOf(value) : value;
    }

    /** A problem answered by the edge itself (authorization, method, path, timeouts). */
    static HttpResponse problemResponse(int status, String title, String detail, String field, Object value, Object allowed) {
        return bytes(status, PROBLEM, problem(status, title, detail, field, value, allowed));
    }

    private static HttpResponse json(int status, Object data) {
        return bytes(status, ContentTypes.APPLICATION_JSON, data);
    }

    private static HttpResponse bytes(int status, ContentType type, Object data) {
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(data);
        } catch (JsonProcessingException e) {
            // Built as a JSON tree, so the problem body stays JSON whatever the message holds (quotes, line breaks).
            status = 500;
            type = PROBLEM;
            body = problemBytes(problem(500, "internal error", "the answer could not be written as JSON: "
                    + e.getOriginalMessage(), null, null, null));
        }
        return HttpResponse.create().withStatus(status).withEntity(HttpEntities.create(type, body));
    }

    /** A problem tree as bytes (strings and numbers only: writing it cannot fail). */
    private static byte[] problemBytes(ObjectNode problem) {
        try {
            return JSON.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree of strings and numbers could not be written", e);
        }
    }

    private Route reply(GatewayReply r) {
        return complete(response(r));
    }

    private Route ask(Function<ActorRef<GatewayReply>, Gateway.Command> make) {
        CompletionStage<GatewayReply> answer = AskPattern.ask(gateway, make::apply, ASK_TIMEOUT, system.scheduler());
        return completeWithFuture(answer.handle((r, e) -> e == null ? response(r)
                : problemResponse(504, "gateway timeout", "the gateway did not answer in " + ASK_TIMEOUT.toSeconds()
                + " s: " + e.getMessage(), null, null, null)));
    }

    // ------------------------------------------------------------------ routes

    /**
     * Largest request body accepted, bytes (1 MiB): a scenario or policy body is a few kB;
     * a larger one gets 413 with a problem body naming the limit ({@link EdgeGuards}).
     */
    public static final long MAX_BODY_BYTES = EdgeGuards.MAX_BODY_BYTES;

    /**
     * All routes, with problem bodies for rejections and exceptions; a query parameter a route
     * does not read, or one given twice, is a 400 naming it ({@link #only}).
     */
    public Route routes() {
        return handleExceptions(EdgeGuards.exceptions(),
                () -> handleRejections(rejections(), () -> EdgeGuards.withBodyLimit(() -> concat(
                        path("health", () -> get(() -> only(NONE, this::health))),
                        path("cluster", () -> get(() -> only(NONE, this::cluster))),
                        path("nodes", () -> get(() -> only(EXPERIMENT, () -> parameterOptional("experiment",
                                e -> ask(to -> new Gateway.Nodes(e.orElse(null), to)))))),
                        path("explain-routing", () -> get(() -> only(Set.of("experiment", "last"), () -> parameterOptional("experiment",
                                e -> parameterOptional("last", last -> explain(e, last)))))),
                        pathPrefix("experiments", () -> concat(
                                pathEnd(() -> concat(
                                        get(() -> only(NONE, () -> ask(Gateway.ListAll::new))),
                                        post(() -> authorized(() -> only(NONE, () -> entity(Unmarshaller.entityToString(),
                                                this::createExperiment)))))),
                                path(PathMatchers.segment().slash("rerun"), id ->
                                        post(() -> authorized(() -> only(NONE, () -> entity(Unmarshaller.entityToString(),
                                                b -> rerun(id, b)))))),
                                path(PathMatchers.segment(), id -> concat(
                                        get(() -> only(NONE, () -> ask(to -> new Gateway.Get(id, to)))),
                                        delete(() -> authorized(() -> only(NONE, () -> ask(to -> new Gateway.Delete(id, to))))))))),
                        path("policy", () -> put(() -> authorized(() -> only(EXPERIMENT, () -> parameterOptional("experiment",
                                q -> entity(Unmarshaller.entityToString(), b -> policy(b, q))))))),
                        pathPrefix("chaos", () -> concat(
                                path("inject", () -> post(() -> authorized(() -> only(EXPERIMENT, () -> parameterOptional("experiment",
                                        q -> entity(Unmarshaller.entityToString(), b -> chaos(b, q, false))))))),
                                path("clear", () -> post(() -> authorized(() -> only(EXPERIMENT, () -> parameterOptional("experiment",
                                        q -> entity(Unmarshaller.entityToString(), b -> chaos(b, q, true)))))))))))));
    }

    /** A route that reads no query parameter. */
    private static final Set<String> NONE = Set.of();
    /** A route that reads only {@code ?experiment=} (which experiment it is about). */
    private static final Set<String> EXPERIMENT = Set.of("experiment");

    /**
     * {@code inner} if the request's query parameters are all in {@code allowed}, each once;
     * else 400 problem+json naming the parameter and the allowed ones, as an unknown body field
     * is (a misspelt {@code ?experimnt=} would otherwise be ignored and the request applied to
     * the default experiment). Inside {@link #authorized}: without the token, 401 comes first.
     */
    private static Route only(Set<String> allowed, Supplier<Route> inner) {
        return EdgeGuards.onlyParameters(allowed, inner);
    }

    private RejectionHandler rejections() {
        return RejectionHandler.newBuilder()
                .handleAll(MethodRejection.class, EdgeGuards::methodNotAllowed)
                .handleNotFound(extractRequest(req -> complete(problemResponse(404, "not found", "no resource "
                        + req.getUri().path(), "path", req.getUri().path(), List.of("/health", "/cluster", "/nodes",
                        "/experiments", "/experiments/{id}", "/experiments/{id}/rerun", "/policy", "/chaos/inject", "/chaos/clear", "/explain-routing")))))
                .handleAll(Rejection.class, EdgeGuards::otherRejections)
                .build();
    }

    /** Passes state-changing requests that carry the token (when one is required). */
    private Route authorized(Supplier<Route> inner) {
        if (!tokenRequired) {
            return inner.get();
        }
        return optionalHeaderValueByName("Authorization", h -> {
            String expected = "Bearer " + settings.httpToken();
            if (h.isPresent() && MessageDigest.isEqual(h.get().getBytes(StandardCharsets.UTF_8),
                    expected.getBytes(StandardCharsets.UTF_8))) {
                return inner.get();
            }
            HttpResponse r = problemResponse(401, "unauthorized", "this request changes state: send "
                    + "'Authorization: Bearer <token>' (the server is bound beyond loopback)", "Authorization",
                    h.isPresent() ? "(wrong token)" : null, "Bearer <token>");
            return complete(r.addHeader(RawHeader.create("WWW-Authenticate", "Bearer realm=\"loadlab\"")));
        });
    }

    // ------------------------------------------------------------------ handlers

    private Route health() {
        Cluster cluster = Cluster.get(system);
        Member self = cluster.selfMember();
        Map<String, Object> body = new LinkedHashMap<>();
        boolean up = self.status() == MemberStatus.up();
        body.put("status", up ? "ok" : "starting");
        body.put("member", self.address().toString());
        body.put("memberStatus", self.status().toString());
        body.put("roles", self.getRoles().stream().filter(r -> !r.startsWith("dc-")).sorted().toList()); // as /cluster: no data-centre role
        int members = 0;
        for (Member m : cluster.state().getMembers()) {
            members++;
        }
        body.put("members", members);
        body.put("unreachable", cluster.state().getUnreachable().size());
        return complete(json(up ? 200 : 503, body));
    }

    private Route cluster() {
        Cluster cluster = Cluster.get(system);
        var state = cluster.state();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("self", cluster.selfMember().address().toString());
        body.put("leader", state.getLeader() == null ? null : state.getLeader().toString());
        List<Map<String, Object>> members = new ArrayList<>();
        for (Member m : state.getMembers()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("address", m.address().toString());
            x.put("status", m.status().toString());
            x.put("roles", m.getRoles().stream().filter(r -> !r.startsWith("dc-")).sorted().toList());
            x.put("reachable", !state.getUnreachable().contains(m));
            members.add(x);
        }
        body.put("members", members);
        body.put("unreachable", state.getUnreachable().stream().map(m -> m.address().toString()).sorted().toList());
        var sbr = system.settings().config().getConfig("pekko.cluster.split-brain-resolver");
        body.put("downingProvider", system.settings().config().getString("pekko.cluster.downing-provider-class"));
        body.put("splitBrainResolver", Map.of("activeStrategy", sbr.getString("active-strategy"),
                "stableAfter", sbr.getDuration("stable-after").toMillis() / 1000.0 + " s"));
        return complete(json(200, body));
    }

    private Route explain(Optional<String> experiment, Optional<String> last) {
        int n = 10;
        if (last.isPresent()) {
            try {
                n = Integer.parseInt(last.get());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > 100) {
                return reply(GatewayReply.badRequest("last", last.get(), "1..100", "last = '" + last.get() + "': the number"
                        + " of recent decisions per balancer is a whole number from 1 to 100"));
            }
        }
        int k = n;
        return ask(to -> new Gateway.Explain(experiment.orElse(null), k, to));
    }

    /**
     * What a JSON value is, for a problem's detail: "a number" (a fraction for a whole number
     * expected: "a fractional number"), "a string", "a list", "an object", "true" / "false", "null".
     */
    static String kind(JsonNode v) {
        if (v == null || v.isNull()) {
            return "null";
        }
        if (v.isIntegralNumber()) {
            return v.canConvertToInt() ? "a number" : "a number out of range";
        }
        if (v.isNumber()) {
            return "a fractional number";
        }
        return v.isTextual() ? "a string" : v.isArray() ? "a list" : v.isObject() ? "an object" : v.isBoolean() ? v.asText() : "a " + v.getNodeType();
    }

    private static GatewayReply notAnObject(JsonBody parsed, String body, String example) {
        String shown = body.length() > 200 ? body.substring(0, 200) + "..." : body;
        if (parsed.duplicateField() != null) {
            return GatewayReply.badRequest(parsed.duplicateField(), shown, "each field once", parsed.duplicateDetail());
        }
        return GatewayReply.badRequest("body", shown, "a JSON object such as " + example, parsed.notAnObjectDetail());
    }

    private Route createExperiment(String body) {
        String example = "{\"scenario\": \"quickstart\", \"set\": {\"duration\": 30}, \"policy\": \"p2c\", \"seed\": 101}";
        JsonBody parsed = JsonBody.parse(body);
        ObjectNode o = parsed.object();
        if (o == null) {
            return reply(notAnObject(parsed, body, example));
        }
        String unknown = EdgeGuards.unknownField(o, EXPERIMENT_FIELDS);
        if (unknown != null) {
            return reply(GatewayReply.badRequest(unknown, o.get(unknown), EXPERIMENT_FIELDS.stream().sorted().toList(),
                    "unknown field '" + unknown + "'"));
        }
        JsonNode scenario = o.get("scenario");
        String name = null;
        String tree = null;
        if (scenario != null && scenario.isTextual()) {
            name = scenario.asText();
        } else if (scenario != null && scenario.isObject()) {
            tree = scenario.toString();
        } else {
            // Absent (or null) and of the wrong type are different mistakes: say which.
            return reply(GatewayReply.badRequest("scenario", scenario, "a built-in scenario name or a scenario object",
                    scenario == null || scenario.isNull() ? "POST /experiments needs a scenario"
                            : "scenario must be a built-in scenario name (a string) or a scenario object, not " + kind(scenario)));
        }
        List<String> overrides = new ArrayList<>();
        JsonNode set = o.get("set");
        if (set != null && (set.isObject() || set.isArray()) && set.size() > Gateway.MAX_OVERRIDES) {
            return reply(GatewayReply.badRequest("set", set.size() + " keys", "at most " + Gateway.MAX_OVERRIDES + " keys",
                    "too many scenario overrides; put them in a scenario object instead"));
        }
        if (set != null && set.isObject()) {
            set.properties().forEach(e -> overrides.add(e.getKey() + "=" + e.getValue().toString()));
        } else if (set != null && set.isArray()) {
            for (JsonNode s : set) {
                if (!s.isTextual()) {
                    return reply(GatewayReply.badRequest("set", set, "an object of scenario keys, or a list of \"key=value\" strings",
                            "every override must be a string"));
                }
                overrides.add(s.asText());
            }
        } else if (set != null && !set.isNull()) {
            return reply(GatewayReply.badRequest("set", set, "an object of scenario keys, or a list of \"key=value\" strings",
                    "set must be an object of scenario keys or a list of \"key=value\" strings, not " + kind(set)));
        }
        JsonNode policy = o.get("policy");
        if (policy != null && !policy.isTextual()) {
            return reply(GatewayReply.badRequest("policy", policy, "a policy name, e.g. p2c (loadlab policies lists them)",
                    "policy must be a string, not " + kind(policy)));
        }
        JsonNode seed = o.get("seed");
        if (seed != null && seed.isIntegralNumber() && !seed.canConvertToLong()) {
            return reply(GatewayReply.badRequest("seed", seed, "an integer in [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE + "]",
                    "seed " + seed + " is too large for a 64-bit seed"));
        }
        if (seed != null && !seed.isIntegralNumber()) {
            return reply(GatewayReply.badRequest("seed", seed, "an integer", "seed must be an integer"));
        }
        JsonNode scale = o.get("timeScale");
        if (scale != null && !scale.isNumber()) {
            return reply(GatewayReply.badRequest("timeScale", scale, "a number in (0, 1000]", "timeScale must be a number"));
        }
        Gateway.ExperimentRequest req = new Gateway.ExperimentRequest(name, tree, overrides,
                policy == null ? null : policy.asText(), seed == null ? null : seed.asLong(), scale == null ? 1.0 : scale.asDouble());
        return ask(to -> new Gateway.Create(req, to));
    }

    /**
     * POST /experiments/{id}/rerun: runs the journaled definition unchanged, so a body (a
     * policy, seed or overrides the caller may hope to change) is refused rather than ignored.
     */
    private Route rerun(String id, String body) {
        if (!body.isBlank()) {
            return reply(GatewayReply.badRequest("body", body.length() > 200 ? body.substring(0, 200) + "..." : body,
                    "no body", "POST /experiments/" + id + "/rerun takes no body: it runs the journaled definition (scenario,"
                            + " policy, seed, time scale) unchanged; to change any of them, POST /experiments with the new"
                            + " definition"));
        }
        return ask(to -> new Gateway.Rerun(id, to));
    }

    /**
     * The experiment a PUT /policy or POST /chaos/* request names: its body's {@code experiment}
     * field or its {@code ?experiment=} query parameter (docs/http-api.md, "Which experiment");
     * null for "the only running one". Naming two different ones is ambiguous, not a choice to
     * make for the caller.
     *
     * @return the id (null: the only running one), or a 400 problem naming {@code experiment} when body and query differ
     */
    private static Named namedExperiment(ObjectNode o, Optional<String> query) {
        JsonNode e = o.get("experiment");
        if (e != null && !e.isNull() && !e.isTextual()) { // {"experiment": 5} was looked up as the id "5"
            return new Named(null, GatewayReply.badRequest("experiment", e, "an experiment id (a string), e.g."
                    + " exp-20261130-001438-1", "experiment must be an experiment id (a string), not " + kind(e)));
        }
        String inBody = o.hasNonNull("experiment") ? o.get("experiment").asText() : null;
        if (inBody != null && query.isPresent() && !query.get().equals(inBody)) {
            return new Named(null, GatewayReply.badRequest("experiment", inBody, List.of(query.get()),
                    "the query names experiment '" + query.get() + "' and the body '" + inBody + "'; name one (either place)"));
        }
        return new Named(inBody != null ? inBody : query.orElse(null), null);
    }

    /** The experiment a request names ({@code id}, null for the only running one), or the problem with naming it. */
    private record Named(String id, GatewayReply problem) {
    }

    private Route policy(String body, Optional<String> query) {
        JsonBody parsed = JsonBody.parse(body);
        ObjectNode o = parsed.object();
        if (o == null) {
            return reply(notAnObject(parsed, body, "{\"policy\": \"p2c\"}"));
        }
        String unknown = EdgeGuards.unknownField(o, Set.of("policy", "experiment"));
        if (unknown != null) {
            return reply(GatewayReply.badRequest(unknown, o.get(unknown), List.of("experiment", "policy"), "unknown field '" + unknown + "'"));
        }
        JsonNode p = o.get("policy");
        if (p == null || !p.isTextual()) {
            return reply(GatewayReply.badRequest("policy", p, "a policy name, e.g. p2c", p == null || p.isNull()
                    ? "PUT /policy needs the policy to switch to" : "policy must be a string, not " + kind(p)));
        }
        Named named = namedExperiment(o, query);
        if (named.problem() != null) {
            return reply(named.problem());
        }
        String experiment = named.id();
        return ask(to -> new Gateway.SwitchPolicy(experiment, p.asText(), to));
    }

    private Route chaos(String body, Optional<String> query, boolean clear) {
        JsonBody parsed = JsonBody.parse(body.isBlank() && clear ? "{}" : body);
        ObjectNode o = parsed.object();
        if (o == null) {
            return reply(notAnObject(parsed, body, clear ? "{\"node\": 3}" : "{\"node\": 3, \"fault\": \"latency\", \"value\": 0.2}"));
        }
        Set<String> fields = clear ? Set.of("node", "experiment") : Set.of("node", "fault", "value", "experiment");
        String unknown = EdgeGuards.unknownField(o, fields);
        if (unknown != null) {
            return reply(GatewayReply.badRequest(unknown, o.get(unknown), fields.stream().sorted().toList(), "unknown field '" + unknown + "'"));
        }
        JsonNode node = o.get("node");
        int j;
        if (node == null && clear) {
            j = -1; // every node
        } else if (node == null || !node.canConvertToInt() || !node.isIntegralNumber()) {
            return reply(GatewayReply.badRequest("node", node, "a node index 0..n-1", node == null || node.isNull()
                    ? (clear ? "POST /chaos/clear" : "POST /chaos/inject") + " needs the node to act on"
                    : "node must be a whole number (a node index), not " + kind(node)));
        } else {
            j = node.asInt();
        }
        String fault = "clear";
        Double value = null;
        if (!clear) {
            JsonNode f = o.get("fault");
            if (f == null || !f.isTextual()) {
                return reply(GatewayReply.badRequest("fault", f, List.of("cpu-spike", "latency", "error-rate", "crash"), f == null || f.isNull()
                        ? "POST /chaos/inject needs the fault to inject" : "fault must be a string, not " + kind(f)));
            }
            fault = f.asText();
            JsonNode v = o.get("value");
            if (v != null && !v.isNumber()) {
                return reply(GatewayReply.badRequest("value", v, "a number", "value (the fault's parameter) must be a number, not " + kind(v)));
            }
            value = v == null ? null : v.asDouble();
        }
        Named named = namedExperiment(o, query);
        if (named.problem() != null) {
            return reply(named.problem());
        }
        String experiment = named.id();
        String ff = fault;
        Double vv = value;
        return ask(to -> new Gateway.Chaos(experiment, j, ff, vv, to));
    }
}

package org.loadlab.app.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Authorization;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.testkit.TestRoute;
import org.apache.pekko.http.javadsl.testkit.TestRouteResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.loadlab.shell.cluster.ClusterSettings;
import org.loadlab.shell.cluster.Gateway;
import org.loadlab.shell.cluster.GatewayReply;

/**
 * The HTTP control API's routes on Pekko HTTP's route testkit, against a scripted gateway (an
 * actor that hands the test every command and answers it with the {@link GatewayReply} the
 * test chose), so every mapping is checked without a cluster: each request becomes the right
 * gateway command; Ok is 200 JSON, Created 201 with Location, Accepted 202; each problem kind
 * has its status and a problem+json body naming field, value and allowed; bad bodies (not
 * JSON, unknown fields, wrong types) are answered 400 naming the field before the gateway is
 * asked; 401 without the token when one is required, 405 naming the allowed methods, 404 for
 * an unknown path. The end-to-end {@code HttpApiTest} runs the same API on a real member.
 */
class ControlApiRouteTest extends JupiterRouteTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "s3cret";

    private final AtomicReference<Function<Gateway.Command, GatewayReply>> answer = new AtomicReference<>();
    private TestProbe<Gateway.Command> asked;
    private TestRoute open;
    private TestRoute guarded;

    /** The reply address of any gateway command. */
    private static ActorRef<GatewayReply> replyTo(Gateway.Command c) {
        if (c instanceof Gateway.Create x) {
            return x.replyTo();
        } else if (c instanceof Gateway.Get x) {
            return x.replyTo();
        } else if (c instanceof Gateway.ListAll x) {
            return x.replyTo();
        } else if (c instanceof Gateway.Delete x) {
            return x.replyTo();
        } else if (c instanceof Gateway.SwitchPolicy x) {
            return x.replyTo();
        } else if (c instanceof Gateway.Chaos x) {
            return x.replyTo();
        } else if (c instanceof Gateway.Nodes x) {
            return x.replyTo();
        } else if (c instanceof Gateway.Explain x) {
            return x.replyTo();
        } else if (c instanceof Gateway.Rerun x) {
            return x.replyTo();
        }
        throw new AssertionError("a command without a reply address: " + c);
    }

    private static ClusterSettings settings(String token, String requireToken) {
        return settings("127.0.0.1", token, requireToken);
    }

    private static ClusterSettings settings(String host, String token, String requireToken) {
        return new ClusterSettings(List.of("all"), host, 0, token, requireToken, Path.of("results"),
                Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ZERO, false, Duration.ofSeconds(5), 2, 5000, 32,
                false, false, Duration.ZERO, false, 0.1, Duration.ofSeconds(15), false);
    }

    @BeforeEach
    void scriptedGateway() {
        asked = testKit.createTestProbe();
        answer.set(c -> GatewayReply.ok(Map.of("answered", c.getClass().getSimpleName())));
        ActorRef<Gateway.Command> gateway = testKit.spawn(Behaviors.receiveMessage(c -> {
            asked.ref().tell(c);
            replyTo(c).tell(answer.get().apply(c));
            return Behaviors.same();
        }));
        Route openRoutes = new ControlApi(testKit.system(), gateway, settings("", "auto")).routes();
        Route guardedRoutes = new ControlApi(testKit.system(), gateway, settings(TOKEN, "on")).routes();
        open = testRoute(openRoutes);
        guarded = testRoute(guardedRoutes);
    }

    private static HttpRequest json(HttpRequest request, String body) {
        return request.withEntity(ContentTypes.APPLICATION_JSON, body);
    }

    private static JsonNode body(TestRouteResult r) {
        try {
            return JSON.readTree(r.entityString());
        } catch (Exception e) {
            throw new AssertionError("the body is not JSON: " + r.entityString(), e);
        }
    }

    /** Checks a problem+json answer of {@code status} naming {@code field}, and returns its body. */
    private static JsonNode problem(TestRouteResult r, int status, String field) {
        r.assertStatusCode(status);
        assertEquals("application/problem+json", r.mediaTypeString());
        JsonNode p = body(r);
        assertEquals(status, p.path("status").asInt(), p.toString());
        assertTrue(p.path("type").asText().startsWith("https://loadlab.dev/problems/"), p.toString());
        assertFalse(p.path("title").asText().isEmpty(), p.toString());
        assertFalse(p.path("detail").asText().isEmpty(), p.toString());
        if (field != null) {
            assertEquals(field, p.path("field").asText(), p.toString());
        }
        return p;
    }

    /** Checks that the gateway was not asked (the edge answered by itself). */
    private void gatewayNotAsked() {
        asked.expectNoMessage(Duration.ofMillis(100));
    }

    // ------------------------------------------------------------------ successes

    @Test
    void okIs200JsonWithTheGatewaysData() {
        answer.set(c -> GatewayReply.ok(Map.of("experiments", List.of(Map.of("id", "exp-1", "status", "running")))));
        TestRouteResult r = open.run(HttpRequest.GET("/experiments"));
        r.assertStatusCode(200);
        r.assertMediaType("application/json");
        assertEquals("running", body(r).get("experiments").get(0).get("status").asText());
        assertInstanceOf(Gateway.ListAll.class, asked.receiveMessage());
    }

    @Test
    void createdIs201WithLocationAndTheRequestArrivesParsed() {
        answer.set(c -> new GatewayReply.Created(Map.of("id", "exp-7", "status", "starting"), "/experiments/exp-7"));
        TestRouteResult r = open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"policy\":\"p2c\","
                + "\"seed\":101,\"timeScale\":4,\"set\":{\"duration\":30,\"nodes.count\":4}}"));
        r.assertStatusCode(201);
        r.assertHeaderExists("Location", "/experiments/exp-7");
        assertEquals("exp-7", body(r).get("id").asText());
        Gateway.ExperimentRequest req = ((Gateway.Create) asked.receiveMessage()).request();
        assertEquals("quickstart", req.scenarioName());
        assertNull(req.scenarioBody());
        assertEquals(List.of("duration=30", "nodes.count=4"), req.overrides());
        assertEquals("p2c", req.policy());
        assertEquals(101L, req.seed());
        assertEquals(4.0, req.timeScale());
    }

    @Test
    void aScenarioObjectAndOverrideStringsArePassedAsGiven() throws Exception {
        open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":{\"name\":\"mine\",\"duration\":5},"
                + "\"set\":[\"warmup=1\"]}")).assertStatusCode(200);
        Gateway.ExperimentRequest req = ((Gateway.Create) asked.receiveMessage()).request();
        assertNull(req.scenarioName());
        assertEquals("mine", JSON.readTree(req.scenarioBody()).get("name").asText());
        assertEquals(List.of("warmup=1"), req.overrides());
        assertNull(req.policy(), "no policy: the scenario's first");
        assertNull(req.seed(), "no seed: the scenario's first");
        assertEquals(1.0, req.timeScale(), "real time unless asked");
    }

    @Test
    void aBodyFieldGivenTwiceIsA400NamingItNotTheLastValueWinning() {
        // As the autonomous gateway refuses it: nothing ambiguous is guessed at.
        JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments"),
                "{\"scenario\": \"quickstart\", \"scenario\": \"azure-llm-code\"}")), 400, "scenario");
        assertTrue(p.path("detail").asText().contains("given more than once"), p.toString());
        problem(open.run(json(HttpRequest.PUT("/policy"), "{\"policy\": \"p2c\", \"policy\": \"random\"}")), 400, "policy");
        problem(open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\": 1, \"node\": 2, \"fault\": \"latency\"}")),
                400, "node");
        gatewayNotAsked();
    }

    @Test
    void aFieldOfTheWrongTypeIsToldApartFromAMissingOne() {
        // The details were "POST /experiments needs a scenario" for {"scenario": 5}, "which node" for {"node": "x"}.
        String[][] cases = {
            {"POST", "/experiments", "{\"scenario\": 5}", "scenario", "scenario must be a built-in scenario name (a string) or a scenario object, not a number"},
            {"POST", "/experiments", "{}", "scenario", "POST /experiments needs a scenario"},
            {"POST", "/experiments", "{\"scenario\": \"quickstart\", \"policy\": [1]}", "policy", "policy must be a string, not a list"},
            {"PUT", "/policy", "{\"policy\": 5}", "policy", "policy must be a string, not a number"},
            {"PUT", "/policy", "{}", "policy", "PUT /policy needs the policy to switch to"},
            {"POST", "/chaos/inject", "{\"node\": \"x\", \"fault\": \"crash\"}", "node", "node must be a whole number (a node index), not a string"},
            {"POST", "/chaos/inject", "{\"node\": 1.5, \"fault\": \"crash\"}", "node", "node must be a whole number (a node index), not a fractional number"},
            {"POST", "/chaos/inject", "{\"fault\": \"crash\"}", "node", "POST /chaos/inject needs the node to act on"},
            {"POST", "/chaos/inject", "{\"node\": 1, \"fault\": true}", "fault", "fault must be a string, not true"},
            {"POST", "/chaos/inject", "{\"node\": 1}", "fault", "POST /chaos/inject needs the fault to inject"},
            {"POST", "/chaos/inject", "{\"node\": 1, \"fault\": \"latency\", \"value\": \"hi\"}", "value",
                "value (the fault's parameter) must be a number, not a string"},
            {"POST", "/chaos/clear", "{\"node\": {}}", "node", "node must be a whole number (a node index), not an object"},
            // {"set": "duration=5"} said only "bad overrides"; {"experiment": 5} was looked up as the id "5"
            {"POST", "/experiments", "{\"scenario\": \"quickstart\", \"set\": \"duration=5\"}", "set",
                "set must be an object of scenario keys or a list of \"key=value\" strings, not a string"},
            {"PUT", "/policy", "{\"policy\": \"p2c\", \"experiment\": 5}", "experiment",
                "experiment must be an experiment id (a string), not a number"},
            {"POST", "/chaos/inject", "{\"node\": 1, \"fault\": \"crash\", \"experiment\": [\"e\"]}", "experiment",
                "experiment must be an experiment id (a string), not a list"},
        };
        for (String[] c : cases) {
            HttpRequest req = c[0].equals("PUT") ? HttpRequest.PUT(c[1]) : HttpRequest.POST(c[1]);
            JsonNode p = problem(open.run(json(req, c[2])), 400, c[3]);
            assertEquals(c[4], p.path("detail").asText(), c[2]);
        }
        gatewayNotAsked();
    }

    @Test
    void aBodyNestedTooDeepIsNamedSoNotAsNotAnObject() {
        String deep = "{\"scenario\": " + "{\"a\":".repeat(5000) + "1" + "}".repeat(5000) + "}";
        JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments"), deep)), 400, "body");
        assertTrue(p.path("detail").asText().startsWith("the request body nests arrays and objects more than 1000 levels deep"),
                p.toString());
        JsonNode list = problem(open.run(json(HttpRequest.POST("/experiments"), "[]")), 400, "body");
        assertEquals("the request body is not a JSON object", list.path("detail").asText());
        gatewayNotAsked();
    }

    @Test
    void acceptedIs202() {
        answer.set(c -> new GatewayReply.Accepted(Map.of("id", "exp-1", "status", "stopping")));
        TestRouteResult r = open.run(HttpRequest.DELETE("/experiments/exp-1"));
        r.assertStatusCode(202);
        assertEquals("stopping", body(r).get("status").asText());
        assertEquals("exp-1", ((Gateway.Delete) asked.receiveMessage()).id());
    }

    @Test
    void everyReadRouteAsksTheGatewayTheRightQuestion() {
        open.run(HttpRequest.GET("/experiments/exp-3")).assertStatusCode(200);
        assertEquals("exp-3", ((Gateway.Get) asked.receiveMessage()).id());
        open.run(HttpRequest.GET("/nodes?experiment=exp-3")).assertStatusCode(200);
        assertEquals("exp-3", ((Gateway.Nodes) asked.receiveMessage()).experiment());
        open.run(HttpRequest.GET("/nodes")).assertStatusCode(200);
        assertNull(((Gateway.Nodes) asked.receiveMessage()).experiment(), "the running experiment");
        open.run(HttpRequest.GET("/explain-routing?experiment=exp-3&last=5")).assertStatusCode(200);
        Gateway.Explain e = (Gateway.Explain) asked.receiveMessage();
        assertEquals("exp-3", e.experiment());
        assertEquals(5, e.lastDecisions());
        open.run(HttpRequest.GET("/explain-routing")).assertStatusCode(200);
        assertEquals(10, ((Gateway.Explain) asked.receiveMessage()).lastDecisions(), "10 decisions unless asked");
    }

    @Test
    void policyAndChaosRequestsArriveParsed() {
        open.run(json(HttpRequest.PUT("/policy"), "{\"policy\":\"least-queue\",\"experiment\":\"exp-2\"}")).assertStatusCode(200);
        Gateway.SwitchPolicy p = (Gateway.SwitchPolicy) asked.receiveMessage();
        assertEquals("least-queue", p.policy());
        assertEquals("exp-2", p.experiment());

        open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":3,\"fault\":\"latency\",\"value\":0.2}")).assertStatusCode(200);
        Gateway.Chaos c = (Gateway.Chaos) asked.receiveMessage();
        assertEquals(3, c.node());
        assertEquals("latency", c.fault());
        assertEquals(0.2, c.value());
        assertNull(c.experiment());

        open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":0,\"fault\":\"crash\"}")).assertStatusCode(200);
        assertNull(((Gateway.Chaos) asked.receiveMessage()).value(), "no value: the fault's default");

        open.run(HttpRequest.POST("/chaos/clear")).assertStatusCode(200);
        Gateway.Chaos clear = (Gateway.Chaos) asked.receiveMessage();
        assertEquals("clear", clear.fault());
        assertEquals(-1, clear.node(), "every node");
    }

    @Test
    void policyAndChaosTakeTheExperimentFromTheQueryAsDocsHttpApiSays() {
        // docs/http-api.md, "Which experiment": query parameter or body field. The query used to be
        // ignored, so the request acted on the only running experiment instead of the one named.
        open.run(json(HttpRequest.PUT("/policy?experiment=exp-7"), "{\"policy\":\"p2c\"}")).assertStatusCode(200);
        assertEquals("exp-7", ((Gateway.SwitchPolicy) asked.receiveMessage()).experiment());
        open.run(json(HttpRequest.POST("/chaos/inject?experiment=exp-7"), "{\"node\":1,\"fault\":\"crash\"}")).assertStatusCode(200);
        assertEquals("exp-7", ((Gateway.Chaos) asked.receiveMessage()).experiment());
        open.run(HttpRequest.POST("/chaos/clear?experiment=exp-7")).assertStatusCode(200);
        assertEquals("exp-7", ((Gateway.Chaos) asked.receiveMessage()).experiment());
        open.run(json(HttpRequest.PUT("/policy?experiment=exp-7"), "{\"policy\":\"p2c\",\"experiment\":\"exp-7\"}"))
                .assertStatusCode(200);
        assertEquals("exp-7", ((Gateway.SwitchPolicy) asked.receiveMessage()).experiment(), "the same in both places");

        JsonNode p = problem(open.run(json(HttpRequest.PUT("/policy?experiment=exp-7"),
                "{\"policy\":\"p2c\",\"experiment\":\"exp-8\"}")), 400, "experiment");
        assertEquals("exp-8", p.get("value").asText());
        assertTrue(p.get("detail").asText().contains("exp-7"), p.toString());
        problem(open.run(json(HttpRequest.POST("/chaos/inject?experiment=exp-7"),
                "{\"node\":1,\"fault\":\"crash\",\"experiment\":\"exp-8\"}")), 400, "experiment");
        gatewayNotAsked();
    }

    // ------------------------------------------------------------------ problems from the gateway

    private static int statusOf(GatewayReply.Kind kind) {
        return switch (kind) {
            case BAD_REQUEST, INVALID_SCENARIO -> 400;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case TOO_MANY -> 429;
            case MEMBER_FAILED -> 502;
            case NOT_READY -> 503;
            case MEMBER_TIMEOUT -> 504;
        };
    }

    @ParameterizedTest
    @EnumSource(GatewayReply.Kind.class)
    void eachProblemKindHasItsStatusAndAProblemBodyNamingFieldValueAndAllowed(GatewayReply.Kind kind) {
        answer.set(c -> GatewayReply.problem(kind, "what went wrong and what to do", "experiment", "exp-9",
                List.of("exp-1", "exp-2")));
        JsonNode p = problem(open.run(HttpRequest.GET("/experiments/exp-9")), statusOf(kind), "experiment");
        assertEquals("what went wrong and what to do", p.get("detail").asText());
        assertEquals("exp-9", p.get("value").asText());
        assertEquals(List.of("exp-1", "exp-2"), List.of(p.get("allowed").get(0).asText(), p.get("allowed").get(1).asText()));
        assertFalse(p.has("problems"), "only an invalid scenario lists problems");
    }

    @Test
    void numbersWithNoValueAreJsonNullNotTheStringNaN() throws Exception {
        org.loadlab.shell.cluster.Protocol.NodeView view = new org.loadlab.shell.cluster.Protocol.NodeView(3, null, Double.NaN,
                Double.NaN, false, null, 0, 0);
        org.loadlab.shell.cluster.Protocol.Candidate candidate = new org.loadlab.shell.cluster.Protocol.Candidate(3, -1,
                Double.NaN, 0.25, false, null);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("nodes", List.of(view));
        data.put("candidates", List.of(candidate));
        data.put("boxed", Double.POSITIVE_INFINITY);
        data.put("finite", 1.5);
        answer.set(c -> GatewayReply.ok(data));
        TestRouteResult r = open.run(HttpRequest.GET("/explain-routing"));
        r.assertStatusCode(200);
        assertFalse(r.entityString().contains("NaN") || r.entityString().contains("Infinity"), r.entityString());
        JsonNode b = body(r);
        assertTrue(b.get("nodes").get(0).get("score").isNull(), b.toString());
        assertTrue(b.get("nodes").get(0).get("ageSeconds").isNull(), b.toString());
        assertTrue(b.get("candidates").get(0).get("cpu").isNull(), b.toString());
        assertEquals(0.25, b.get("candidates").get(0).get("score").asDouble(), b.toString());
        assertTrue(b.get("boxed").isNull(), b.toString());
        assertEquals(1.5, b.get("finite").asDouble());
        // A strict JSON parser (one that refuses NaN tokens) reads it.
        new ObjectMapper().readTree(r.entityString());
    }

    @Test
    void a429SaysWhenToRetryAndNoOtherProblemDoes() {
        answer.set(c -> GatewayReply.problem(GatewayReply.Kind.TOO_MANY, "2 experiment(s) running, the limit is 2",
                "experiment", null, List.of("exp-1", "exp-2")));
        TestRouteResult r = open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\"}"));
        problem(r, 429, "experiment");
        r.assertHeaderExists("Retry-After", String.valueOf(ControlApi.TOO_MANY_RETRY_AFTER_SECONDS));
        for (GatewayReply.Kind kind : GatewayReply.Kind.values()) {
            if (kind != GatewayReply.Kind.TOO_MANY) {
                answer.set(c -> GatewayReply.problem(kind, "detail", null, null, null));
                assertTrue(open.run(HttpRequest.GET("/experiments/x")).response().getHeader("Retry-After").isEmpty(), kind.name());
            }
        }
    }

    @Test
    void problemKindsHaveDistinctTitles() {
        Map<String, GatewayReply.Kind> byTitle = new LinkedHashMap<>();
        for (GatewayReply.Kind kind : GatewayReply.Kind.values()) {
            answer.set(c -> GatewayReply.problem(kind, "detail", null, null, null));
            JsonNode p = problem(open.run(HttpRequest.GET("/experiments/x")), statusOf(kind), null);
            assertFalse(p.has("field") || p.has("value") || p.has("allowed"), "absent parts are left out: " + p);
            assertNull(byTitle.put(p.get("title").asText(), kind), "title " + p.get("title") + " names one kind");
            assertTrue(p.get("type").asText().endsWith(p.get("title").asText().replace(' ', '-')), p.toString());
        }
    }

    @Test
    void anInvalidScenarioListsEveryProblem() {
        answer.set(c -> GatewayReply.badScenario("quickstart", List.of("arrivals.utilisation = 1.7: must be in (0, 1)",
                "nodes.count = 0: must be >= 1")));
        JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\"}")), 400,
                "arrivals.utilisation");
        assertEquals("invalid scenario", p.get("title").asText());
        assertEquals("1.7", p.get("value").asText(), "the value of the first problem's key");
        assertEquals(2, p.get("problems").size());
        assertTrue(p.get("problems").get(0).asText().startsWith("arrivals.utilisation"), p.toString());
        assertTrue(p.get("detail").asText().startsWith("scenario quickstart is invalid: "), p.toString());
    }

    /** What {@code loadlab simulate --scenario quickstart --set o...} prints on stderr, with its exit code first. */
    private static List<String> cliSays(String... overrides) {
        List<String> args = new java.util.ArrayList<>(List.of("simulate", "--scenario", "quickstart"));
        for (String o : overrides) {
            args.addAll(List.of("--set", o));
        }
        picocli.CommandLine cli = org.loadlab.app.cli.LoadLabCli.commandLine();
        java.io.StringWriter err = new java.io.StringWriter();
        cli.setOut(new java.io.PrintWriter(new java.io.StringWriter()));
        cli.setErr(new java.io.PrintWriter(err));
        int code = cli.execute(args.toArray(new String[0]));
        List<String> lines = new java.util.ArrayList<>(List.of(String.valueOf(code)));
        err.toString().lines().filter(l -> l.startsWith("  - ")).map(l -> l.substring(4)).forEach(lines::add);
        return lines;
    }

    @Test
    void anInvalidScenariosFieldIsTheKeyOfTheFirstProblemTheCliPrintsForTheSameInput() {
        org.loadlab.experiment.scenario.ScenarioLoader loader = new org.loadlab.experiment.scenario.ScenarioLoader(
                n -> org.loadlab.balancer.policy.PolicyCatalog.find(n).isPresent(), org.loadlab.balancer.policy.PolicyCatalog.names());
        // The scripted gateway loads the request as the real one does (the same loader, the overrides the edge built).
        answer.set(c -> {
            Gateway.ExperimentRequest req = ((Gateway.Create) c).request();
            try {
                loader.load(req.scenarioName(), req.overrides());
                return GatewayReply.ok(Map.of());
            } catch (org.loadlab.experiment.scenario.ScenarioException e) {
                return GatewayReply.badScenario(req.scenarioName(), e.problems());
            }
        });
        record Case(String set, String cliOverride, String field, String value) {
        }
        for (Case k : List.of(new Case("{\"nodes.count\": \"abc\"}", "nodes.count=abc", "nodes.count", "abc"),
                new Case("{\"nodes.cnt\": 3}", "nodes.cnt=3", "nodes.cnt", null),
                new Case("{\"arrivals.utilisation\": -2}", "arrivals.utilisation=-2", "arrivals.utilisation", "-2.0"),
                new Case("[\"duration\"]", "duration", "set", "duration"),
                new Case("{\"nodes.service-rate\": -1}", "nodes.service-rate=-1", "nodes.service-rate", "-1"))) {
            JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"set\":"
                    + k.set() + "}")), 400, k.field());
            List<String> cli = cliSays(k.cliOverride());
            assertEquals("2", cli.get(0), k.toString());
            assertEquals(cli.get(1), p.get("problems").get(0).asText(), "the CLI's first problem is the answer's first: " + p);
            assertEquals(cli.size() - 1, p.get("problems").size(), "the same problems: " + cli + " vs " + p);
            assertEquals(k.value(), p.hasNonNull("value") ? p.get("value").asText() : null, p.toString());
        }
    }

    @Test
    void anInvalidScenarioWithManyProblemsListsTheFirstTwentyAndCountsTheRest() {
        List<String> many = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add("unknown key 'k" + i + "'; allowed here: arrivals, autoscaler, balancers, demand, duration, events,"
                    + " guardrails, information, membership, model, name, nodes, policies, policy, seeds, warmup");
        }
        answer.set(c -> GatewayReply.badScenario("quickstart", many));
        TestRouteResult r = open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\"}"));
        JsonNode p = problem(r, 400, "scenario");
        JsonNode listed = p.get("problems");
        assertEquals(GatewayReply.MAX_LISTED_PROBLEMS + 1, listed.size(), p.toString());
        assertEquals(many.get(0), listed.get(0).asText());
        assertEquals(many.get(19), listed.get(19).asText());
        assertEquals("\u2026 and 980 more problems", listed.get(20).asText());
        assertTrue(p.get("detail").asText().endsWith("; \u2026 and 980 more problems"), "the detail is bounded too");
        assertTrue(r.entityString().length() < 20_000, "a bounded body: " + r.entityString().length() + " chars");
        // 21 problems: 20 listed and one counted; 20: all listed, nothing counted.
        answer.set(c -> GatewayReply.badScenario("quickstart", many.subList(0, 21)));
        assertEquals("\u2026 and 1 more problem", problem(open.run(json(HttpRequest.POST("/experiments"),
                "{\"scenario\":\"quickstart\"}")), 400, "scenario").get("problems").get(20).asText());
        answer.set(c -> GatewayReply.badScenario("quickstart", many.subList(0, 20)));
        assertEquals(20, problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\"}")), 400,
                "scenario").get("problems").size());
    }

    @Test
    void aBodyIsReadAsJsonWhateverItsContentTypeAsDocsHttpApiSays() {
        String body = "{\"scenario\":\"quickstart\",\"policy\":\"p2c\"}";
        for (var type : List.of(ContentTypes.TEXT_PLAIN_UTF8, ContentTypes.create(
                org.apache.pekko.http.javadsl.model.MediaTypes.APPLICATION_X_WWW_FORM_URLENCODED))) {
            open.run(HttpRequest.POST("/experiments").withEntity(type, body)).assertStatusCode(200);
            assertEquals("p2c", ((Gateway.Create) asked.receiveMessage()).request().policy(), "read as JSON: " + type);
        }
    }

    @Test
    void aRerunRunsTheJournaledDefinitionAndRefusesABodyRatherThanIgnoreIt() {
        open.run(HttpRequest.POST("/experiments/exp-4/rerun")).assertStatusCode(200);
        assertEquals("exp-4", ((Gateway.Rerun) asked.receiveMessage()).id());
        for (String body : List.of("{\"policy\":\"p2c\"}", "{}", "seed=3")) {
            JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments/exp-4/rerun"), body)), 400, "body");
            assertEquals(body, p.get("value").asText());
            assertEquals("no body", p.get("allowed").asText());
            assertTrue(p.get("detail").asText().contains("takes no body"), p.toString());
            assertTrue(p.get("detail").asText().contains("POST /experiments"), "says what to do instead: " + p);
        }
        gatewayNotAsked();
    }

    @Test
    void dataThatCannotBeWrittenAsJsonIsA500ProblemThatIsItselfJson() {
        answer.set(c -> GatewayReply.ok(new Unwritable()));
        JsonNode p = problem(open.run(HttpRequest.GET("/experiments")), 500, null);
        assertTrue(p.get("detail").asText().contains("cannot be read"), p.toString());
    }

    /** A bean whose getter fails, with a message that has quotes, a backslash and a line break. */
    public static final class Unwritable {
        /** Always fails. */
        public String getValue() {
            throw new IllegalStateException("\"value\" cannot be read:\n C:\\results is gone");
        }
    }

    // ------------------------------------------------------------------ problems the edge answers itself

    @Test
    void aBodyThatIsNotAJsonObjectIs400NamingTheBody() {
        for (String bad : List.of("not json", "[1, 2]", "{\"scenario\": ")) {
            JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments"), bad)), 400, "body");
            assertEquals(bad, p.get("value").asText());
            assertTrue(p.get("allowed").asText().contains("\"scenario\""), "shows an example: " + p);
        }
        problem(open.run(json(HttpRequest.PUT("/policy"), "p2c")), 400, "body");
        problem(open.run(json(HttpRequest.POST("/chaos/inject"), "node=1")), 400, "body");
        gatewayNotAsked();
    }

    @Test
    void unknownFieldsAre400NamingTheFieldTheValueAndTheAllowedFields() {
        JsonNode p = problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"polcy\":\"p2c\"}")),
                400, "polcy");
        assertEquals("p2c", p.get("value").asText());
        assertEquals("[\"policy\",\"scenario\",\"seed\",\"set\",\"timeScale\"]", p.get("allowed").toString());
        assertEquals("[\"experiment\",\"policy\"]",
                problem(open.run(json(HttpRequest.PUT("/policy"), "{\"policy\":\"p2c\",\"exp\":\"e\"}")), 400, "exp")
                        .get("allowed").toString());
        assertEquals("[\"experiment\",\"fault\",\"node\",\"value\"]",
                problem(open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":1,\"fault\":\"crash\",\"vale\":1}")), 400, "vale")
                        .get("allowed").toString());
        assertEquals("[\"experiment\",\"node\"]",
                problem(open.run(json(HttpRequest.POST("/chaos/clear"), "{\"fault\":\"crash\"}")), 400, "fault")
                        .get("allowed").toString());
        gatewayNotAsked();
    }

    @Test
    void fieldsOfTheWrongTypeAre400NamingTheField() {
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"policy\":\"p2c\"}")), 400, "scenario");
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":7}")), 400, "scenario");
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"seed\":\"abc\"}")), 400, "seed");
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"seed\":1.5}")), 400, "seed");
        JsonNode big = problem(open.run(json(HttpRequest.POST("/experiments"),
                "{\"scenario\":\"quickstart\",\"seed\":100000000000000000000}")), 400, "seed");
        assertTrue(big.get("detail").asText().contains("too large"), "an integer, only too large: " + big);
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"timeScale\":\"fast\"}")), 400,
                "timeScale");
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"policy\":[\"p2c\"]}")), 400,
                "policy");
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"set\":[1]}")), 400, "set");
        problem(open.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\",\"set\":\"duration=3\"}")), 400,
                "set");
        problem(open.run(json(HttpRequest.PUT("/policy"), "{\"experiment\":\"e\"}")), 400, "policy");
        problem(open.run(json(HttpRequest.POST("/chaos/inject"), "{\"fault\":\"crash\"}")), 400, "node");
        problem(open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":1.5,\"fault\":\"crash\"}")), 400, "node");
        problem(open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":1}")), 400, "fault");
        problem(open.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":1,\"fault\":\"latency\",\"value\":\"x\"}")), 400, "value");
        JsonNode last = problem(open.run(HttpRequest.GET("/explain-routing?last=0")), 400, "last");
        assertEquals("1..100", last.get("allowed").asText());
        JsonNode many = problem(open.run(HttpRequest.GET("/explain-routing?last=many")), 400, "last");
        // the detail said only "number of recent decisions per balancer"
        assertEquals("last = 'many': the number of recent decisions per balancer is a whole number from 1 to 100",
                many.get("detail").asText());
        gatewayNotAsked();
    }

    @Test
    void anUnknownQueryParameterIsA400NamingItAndTheAllowedOnes() {
        // They were ignored (GET /nodes?experimnt=x answered for the default experiment) while an unknown body field is a 400.
        JsonNode bogus = problem(open.run(HttpRequest.GET("/explain-routing?bogus=1")), 400, "bogus");
        assertEquals("1", bogus.get("value").asText());
        assertEquals("[\"experiment\",\"last\"]", bogus.get("allowed").toString());
        assertEquals("unknown query parameter 'bogus' for /explain-routing; it takes experiment, last", bogus.get("detail").asText());
        JsonNode typo = problem(open.run(HttpRequest.GET("/nodes?experimnt=x")), 400, "experimnt");
        assertEquals("x", typo.get("value").asText());
        assertEquals("[\"experiment\"]", typo.get("allowed").toString());
        String[][] none = {{"GET", "/health?verbose=1"}, {"GET", "/cluster?x=1"}, {"GET", "/experiments?status=running"},
            {"GET", "/experiments/exp-1?full=1"}, {"DELETE", "/experiments/exp-1?force=1"}};
        for (String[] c : none) {
            HttpRequest req = c[0].equals("GET") ? HttpRequest.GET(c[1]) : HttpRequest.DELETE(c[1]);
            String name = c[1].substring(c[1].indexOf('?') + 1, c[1].indexOf('='));
            JsonNode p = problem(open.run(req), 400, name);
            assertEquals("[]", p.get("allowed").toString(), c[1]);
            assertTrue(p.get("detail").asText().endsWith("; it takes none"), p.toString());
        }
        problem(open.run(json(HttpRequest.POST("/experiments?policy=p2c"), "{\"scenario\":\"quickstart\"}")), 400, "policy");
        problem(open.run(json(HttpRequest.POST("/experiments/exp-1/rerun?seed=3"), "{}")), 400, "seed");
        problem(open.run(json(HttpRequest.PUT("/policy?experimnt=e"), "{\"policy\":\"p2c\"}")), 400, "experimnt");
        problem(open.run(json(HttpRequest.POST("/chaos/inject?node=1"), "{\"node\":1,\"fault\":\"crash\"}")), 400, "node");
        problem(open.run(HttpRequest.POST("/chaos/clear?all=1")), 400, "all");
        // An allowed one given twice is refused too (only the first value would be read).
        JsonNode twice = problem(open.run(HttpRequest.GET("/nodes?experiment=a&experiment=b")), 400, "experiment");
        assertEquals("[\"a\",\"b\"]", twice.get("value").toString());
        gatewayNotAsked();
        // Without the token a state-changing request is 401 first, whatever its parameters.
        problem(guarded.run(HttpRequest.POST("/chaos/clear?all=1")), 401, "Authorization");
        // The documented parameters still pass.
        open.run(HttpRequest.GET("/explain-routing?experiment=exp-3&last=5")).assertStatusCode(200);
        assertInstanceOf(Gateway.Explain.class, asked.receiveMessage());
    }

    @Test
    void stateChangingRequestsNeedTheTokenWhenOneIsRequired() {
        TestRouteResult missing = guarded.run(HttpRequest.DELETE("/experiments/exp-1"));
        JsonNode p = problem(missing, 401, "Authorization");
        assertEquals("Bearer <token>", p.get("allowed").asText());
        missing.assertHeaderExists("WWW-Authenticate", "Bearer realm=\"loadlab\"");
        assertEquals("(wrong token)", problem(guarded.run(HttpRequest.DELETE("/experiments/exp-1")
                .addHeader(Authorization.oauth2("guess"))), 401, "Authorization").get("value").asText(),
                "the wrong token is not echoed");
        problem(guarded.run(json(HttpRequest.POST("/experiments"), "{\"scenario\":\"quickstart\"}")), 401, "Authorization");
        problem(guarded.run(json(HttpRequest.PUT("/policy"), "{\"policy\":\"p2c\"}")), 401, "Authorization");
        problem(guarded.run(json(HttpRequest.POST("/chaos/inject"), "{\"node\":1,\"fault\":\"crash\"}")), 401, "Authorization");
        problem(guarded.run(HttpRequest.POST("/chaos/clear")), 401, "Authorization");
        gatewayNotAsked();

        guarded.run(HttpRequest.DELETE("/experiments/exp-1").addHeader(Authorization.oauth2(TOKEN))).assertStatusCode(200);
        assertEquals("exp-1", ((Gateway.Delete) asked.receiveMessage()).id());
        guarded.run(HttpRequest.GET("/experiments/exp-1")).assertStatusCode(200);
        assertInstanceOf(Gateway.Get.class, asked.receiveMessage(), "reading needs no token");
    }

    @Test
    void beyondLoopbackTheTokenIsRequiredAndTheApiRefusesToStartWithoutOne() {
        ClusterSettings everyone = settings("0.0.0.0", "", "auto");
        assertTrue(ControlApi.tokenRequired(everyone), "bound beyond loopback");
        assertFalse(ControlApi.tokenRequired(settings("", "auto")), "loopback, auto");
        assertTrue(ControlApi.tokenRequired(settings(TOKEN, "on")), "loopback, on");
        ActorRef<Gateway.Command> nobody = testKit.createTestProbe(Gateway.Command.class).ref();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ControlApi(testKit.system(), nobody, everyone));
        assertTrue(e.getMessage().contains("LOADLAB_HTTP_TOKEN") && e.getMessage().contains("0.0.0.0"), e.getMessage());
    }

    @Test
    void aMethodTheResourceDoesNotSupportIs405NamingTheAllowedOnes() {
        TestRouteResult policy = open.run(HttpRequest.GET("/policy"));
        JsonNode p = problem(policy, 405, "method");
        assertEquals("GET", p.get("value").asText());
        assertEquals("[\"PUT\"]", p.get("allowed").toString());
        policy.assertHeaderExists("Allow", "PUT"); // RFC 9110 §15.5.6: a 405 lists the methods the resource takes
        TestRouteResult experiments = open.run(HttpRequest.PUT("/experiments"));
        assertEquals("[\"GET\",\"POST\"]", problem(experiments, 405, "method").get("allowed").toString());
        experiments.assertHeaderExists("Allow", "GET, POST");
        TestRouteResult one = open.run(HttpRequest.POST("/experiments/exp-1"));
        assertEquals("[\"GET\",\"DELETE\"]", problem(one, 405, "method").get("allowed").toString());
        one.assertHeaderExists("Allow", "GET, DELETE");
        TestRouteResult guardedOne = guarded.run(HttpRequest.PUT("/chaos/inject"));
        problem(guardedOne, 405, "method");
        guardedOne.assertHeaderExists("Allow", "POST");
        gatewayNotAsked();
    }

    @Test
    void anUnknownPathIs404NamingThePathAndTheResources() {
        JsonNode p = problem(open.run(HttpRequest.GET("/nowhere")), 404, "path");
        assertEquals("/nowhere", p.get("value").asText());
        assertTrue(p.get("allowed").toString().contains("/experiments/{id}"), p.toString());
        problem(open.run(HttpRequest.GET("/experiments/exp-1/results")), 404, "path");
        gatewayNotAsked();
    }
}

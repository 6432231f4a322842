package org.loadlab.app.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.testkit.TestRoute;
import org.apache.pekko.http.javadsl.testkit.TestRouteResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.shell.gateway.AutonomousStack;

/**
 * The status of a request whose attempt timed out, as docs/autonomous.md states it once: the
 * balancer ends it TIMEOUT (Envoy's 504, the simulation's {@code failed_504}) and the gateway
 * answers 503 with {@code X-Decision-Reason: ...Outcome=TIMEOUT}, as seed 003 answers a failed
 * failover ("then 503"); 504 is only the gateway's own wait ({@link GatewayRoutes#REQUEST_TIMEOUT})
 * running out. The per-try timeout is shortened to 0.5 s, so the failover (one retry) fails after 1 s.
 */
class GatewayTimeoutStatusTest extends JupiterRouteTest {
    private AutonomousStack stack;
    private TestRoute route;

    @BeforeAll
    void startStack() {
        stack = AutonomousStack.start(testKit.system(), TestScenarios.load("autonomous", "balancers.count = 5",
                "autoscaler.enabled = false", "nodes.count = 5", "retry.per-try-timeout = 0.5"),
                "lin-ts", 101, null);
        route = testRoute(new GatewayRoutes(stack).routes());
    }

    @AfterAll
    void closeMetrics() {
        stack.closeMetrics();
    }

    @Override
    public scala.concurrent.duration.FiniteDuration awaitDuration() {
        return scala.concurrent.duration.FiniteDuration.apply(15, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void aTimedOutRequestIs503WithOutcomeTimeoutBeforeTheGatewaysOwn504() {
        for (int j = 0; j < 5; j++) {
            route.run(HttpRequest.POST("/chaos/inject?node_idx=" + j).withEntity(HttpEntities.create(
                    ContentTypes.APPLICATION_JSON, "{\"fault_type\": \"latency\", \"extra_latency_ms\": 60000}")))
                    .assertStatusCode(200);
        }
        long start = System.nanoTime();
        TestRouteResult r = route.run(HttpRequest.GET("/auth"));
        r.assertStatusCode(503); // the testkit's result is lazy: this waits for the answer
        double seconds = (System.nanoTime() - start) / 1e9;
        String reason = r.response().getHeader("X-Decision-Reason").map(h -> h.value()).orElse("");
        assertTrue(reason.endsWith("Outcome=TIMEOUT"), reason);
        String mode = r.response().getHeader("X-Routing-Mode").map(h -> h.value()).orElse("");
        assertTrue(mode.endsWith("_failover"), "retried once: " + mode);
        assertTrue(seconds >= 1.0 && seconds < GatewayRoutes.REQUEST_TIMEOUT.toSeconds(),
                "two per-try timeouts, not the gateway's own wait: " + seconds + " s");
    }
}

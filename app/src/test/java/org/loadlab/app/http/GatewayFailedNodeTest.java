package org.loadlab.app.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.testkit.TestRoute;
import org.apache.pekko.http.javadsl.testkit.TestRouteResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.shell.gateway.AutonomousStack;

/**
 * A request lost at a failed node (a scenario {@code fail} event, retries off so the scenario
 * may have one) is answered 503 with {@code Outcome=RESET} at once. No balancer hears of a
 * fail, so only the node knew; the client used to wait out the gateway's own 10 s for a 504.
 * Every node fails at the start, so whichever node a strategy picks, the request is lost there.
 */
class GatewayFailedNodeTest extends JupiterRouteTest {
    private AutonomousStack stack;
    private TestRoute route;

    @BeforeAll
    void startStack() {
        stack = AutonomousStack.start(testKit.system(), TestScenarios.load("autonomous", "balancers.count = 5",
                "autoscaler.enabled = false", "nodes.count = 5", "retry.max-retries = 0", "retry.per-try-timeout = 0",
                "events = [{type = fail, at = 0, fraction = 1.0}]"), "lin-ts", 101, null);
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
    void aRequestLostAtAFailedNodeIsAnswered503AtOnceNot504AfterTheGatewaysWait() {
        // The fail event is scheduled at t = 0 of the stack's clock: a request may beat it and be served.
        // Each try is quick either way with the fix; without it a lost one waits 10 s and this wait fails.
        await("a request to be lost at the failed nodes").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> route.run(HttpRequest.GET("/auth?strategy=round_robin")).response().status().intValue() == 503);
        for (String strategy : new String[] {"lin_ts", "round_robin"}) {
            long start = System.nanoTime();
            TestRouteResult r = route.run(HttpRequest.GET("/auth?strategy=" + strategy));
            r.assertStatusCode(503); // the testkit's result is lazy: this waits for the answer
            double seconds = (System.nanoTime() - start) / 1e9;
            String reason = r.response().getHeader("X-Decision-Reason").map(h -> h.value()).orElse("");
            assertTrue(reason.endsWith("Outcome=RESET"), strategy + ": " + reason);
            String to = r.response().getHeader("X-Routed-To").map(h -> h.value()).orElse("");
            assertTrue(to.startsWith("Node-"), strategy + ": routed to a node and lost there: " + to);
            assertTrue(seconds < 5, strategy + ": answered when the node lost it, not after the gateway's "
                    + GatewayRoutes.REQUEST_TIMEOUT.toSeconds() + " s: " + seconds + " s");
        }
    }
}

package org.loadlab.app.http;

import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.server.RouteResult;
import org.apache.pekko.http.javadsl.testkit.RouteTest;
import org.apache.pekko.http.javadsl.testkit.TestRouteResult;
import org.apache.pekko.stream.Materializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.TestInstance;
import scala.concurrent.Future;

/**
 * Pekko HTTP's Java route testkit ({@link RouteTest}: {@code testRoute(route).run(request)}
 * without binding a port) on JUnit 5. Pekko HTTP 1.3 ships only a JUnit 4 base class
 * ({@code JUnitRouteTest}, a JUnit 4 rule and JUnit 4 assertions), so this supplies the two
 * things a {@code RouteTest} needs: one actor system for the test class (from the typed
 * {@link ActorTestKit}, so the class can spawn actors the routes talk to) and results that
 * fail with JUnit 5 assertions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JupiterRouteTest extends RouteTest {
    /** The test class's actor system (typed), shut down after its last test. */
    protected final ActorTestKit testKit = ActorTestKit.create();

    @AfterAll
    void shutdownTestKit() {
        testKit.shutdownTestKit();
    }

    /** The classic view of {@link #testKit}'s system, which the route testkit runs on. */
    @Override
    public ActorSystem system() {
        return Adapter.toClassic(testKit.system());
    }

    /** The system's materializer. */
    @Override
    public Materializer materializer() {
        return Materializer.matFromSystem(testKit.system());
    }

    /** A route result whose {@code assert...} methods fail through JUnit 5, naming the request. */
    @Override
    public TestRouteResult createTestRouteResultAsync(HttpRequest request, Future<RouteResult> result) {
        return new TestRouteResult(result, awaitDuration(), system().dispatcher(), materializer()) {
            @Override
            public void assertEquals(Object expected, Object actual, String message) {
                Assertions.assertEquals(expected, actual, () -> message + " (request " + request + ")");
            }

            @Override
            public void assertEquals(int expected, int actual, String message) {
                Assertions.assertEquals(expected, actual, () -> message + " (request " + request + ")");
            }

            @Override
            public void assertTrue(boolean predicate, String message) {
                Assertions.assertTrue(predicate, () -> message + " (request " + request + ")");
            }

            @Override
            public void fail(String message) {
                Assertions.fail(message + " (request " + request + ")");
            }
        };
    }
}

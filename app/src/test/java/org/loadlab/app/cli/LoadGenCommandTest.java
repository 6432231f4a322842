package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loadlab.app.cli.CliCapture.run;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code loadlab loadgen} says what went wrong: requests with no HTTP answer are counted apart
 * with the first error (not as latencies), a gateway's 4xx shows the first problem's detail,
 * no 200 at all is exit code 1, and a bad {@code --url} is exit code 2 naming the flag. The
 * "gateway" here is a JDK HTTP server answering what each test needs.
 */
class LoadGenCommandTest {
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private String serve(int status, String contentType, String body, List<String> paths) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            paths.add(x.getRequestURI().toString());
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", contentType);
            x.getResponseHeaders().add("X-Backend-Latency", "1.000 ms");
            x.sendResponseHeaders(status, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/"; // a trailing slash is fine
    }

    @Test
    void withNoServerTheRequestsAreReportedUnansweredNotAsLatenciesAndTheExitCodeIs1() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free once closed: nothing listens there
        }
        String[] r = run("loadgen", "--rate", "50", "--duration", "0.1", "--url", "http://127.0.0.1:" + port);
        assertEquals("1", r[0], r[1] + r[2]);
        assertTrue(r[1].contains("no answer: 5 of 5 requests got no HTTP answer from http://127.0.0.1:" + port
                + "; the first: connection refused"), r[1]);
        assertTrue(r[1].contains("latency: none (no request was answered)") && !r[1].contains("p50"), r[1]);
        assertTrue(r[1].contains("statuses: none; timed out 0; no answer 5"), r[1]);
        assertTrue(r[2].contains("error: no request succeeded") && r[2].contains("connection refused"), r[2]);
    }

    @Test
    void aGatewaysRefusalShowsTheFirstProblemsDetailAndTheExitCodeIs1() throws Exception {
        List<String> paths = new CopyOnWriteArrayList<>();
        String url = serve(400, "application/problem+json", "{\"type\":\"x\",\"title\":\"bad request\",\"status\":400,"
                + "\"detail\":\"unknown strategy 'foo'; allowed lin_ts, p2c\",\"field\":\"strategy\"}", paths);
        String[] r = run("loadgen", "--rate", "50", "--duration", "0.1", "--url", url, "--strategy", "foo");
        assertEquals("1", r[0], r[1] + r[2]);
        assertTrue(r[1].matches("(?s).*refused: 5 of 5 requests got a 4xx; the first: 400 for GET /[a-z-]+\\?strategy=foo:"
                + " unknown strategy 'foo'; allowed lin_ts, p2c.*"), r[1]);
        assertTrue(r[2].contains("the gateway refused them: unknown strategy 'foo'"), r[2]);
        assertEquals(5, paths.size());
        assertTrue(paths.stream().allMatch(p -> p.matches("/[a-z-]+\\?strategy=foo")), "one slash, the strategy: " + paths);
    }

    @Test
    void answeredRequestsAreMeasuredAndTheExitCodeIs0() throws Exception {
        String url = serve(200, "application/json", "{\"status\":\"success\"}", new CopyOnWriteArrayList<>());
        String[] r = run("loadgen", "--rate", "50", "--duration", "0.1", "--url", url);
        assertEquals("0", r[0], r[1] + r[2]);
        assertTrue(r[1].contains("latency ms from the intended send (5 answered): p50"), r[1]);
        assertTrue(r[1].contains("statuses: 200=5; timed out 0; no answer 0"), r[1]);
        assertFalse(r[1].contains("refused:") || r[1].contains("no answer:"), r[1]);
        assertTrue(r[1].contains("added by the gateway"), r[1]);
    }

    @Test
    void aBadUrlIsBadInputNamingTheFlag() {
        for (String bad : new String[] {"notaurl", "ftp://127.0.0.1:8000", "http://", "http://127.0.0.1:8000/?x=1"}) {
            String[] r = run("loadgen", "--rate", "10", "--url", bad);
            assertEquals("2", r[0], bad + ": " + r[2]);
            assertTrue(r[2].contains("--url = '" + bad + "'") && r[2].contains("allowed http://HOST:PORT")
                    || r[2].contains("--url = '" + bad + "': the gateway's base URL takes no query"), r[2]);
            assertTrue(r[1].isEmpty(), "nothing was sent: " + r[1]);
        }
    }
}

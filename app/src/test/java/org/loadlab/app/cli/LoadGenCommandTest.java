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
        // A gateway that refuses a strategy loadgen knows (e.g. an older one, without round_robin).
        String url = serve(400, "application/problem+json", "{\"type\":\"x\",\"title\":\"bad request\",\"status\":400,"
                + "\"detail\":\"unknown strategy 'round_robin'; allowed lin_ts, p2c\",\"field\":\"strategy\"}", paths);
        String[] r = run("loadgen", "--rate", "50", "--duration", "0.1", "--url", url, "--strategy", "round_robin");
        assertEquals("1", r[0], r[1] + r[2]);
        assertTrue(r[1].matches("(?s).*refused: 5 of 5 requests got a 4xx; the first: 400 for GET /[a-z-]+\\?strategy=round_robin:"
                + " unknown strategy 'round_robin'; allowed lin_ts, p2c.*"), r[1]);
        assertTrue(r[2].contains("the gateway refused them: unknown strategy 'round_robin'"), r[2]);
        assertEquals(5, paths.size());
        assertTrue(paths.stream().allMatch(p -> p.matches("/[a-z-]+\\?strategy=round_robin")), "one slash, the strategy: " + paths);
    }

    @Test
    void theRefusalNamesThePathTheRequestWentToWithTheBaseUrlsPath() throws Exception {
        List<String> paths = new CopyOnWriteArrayList<>();
        String url = serve(404, "application/problem+json", "{\"type\":\"x\",\"title\":\"not found\",\"status\":404,"
                + "\"detail\":\"no resource\",\"field\":\"path\"}", paths);
        // --url .../gw: the requests went to /gw/auth etc., but the report said "404 for GET /auth"
        String[] r = run("loadgen", "--rate", "50", "--duration", "0.1", "--url", url + "gw", "--mix", "1,0,0,0,0");
        assertEquals("1", r[0], r[1] + r[2]);
        assertTrue(paths.stream().allMatch(p -> p.equals("/gw/auth")), paths.toString());
        assertTrue(r[1].contains("refused: 5 of 5 requests got a 4xx; the first: 404 for GET /gw/auth: no resource"), r[1]);
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
    void every5xxCountsAsAnErrorInThePrintedLineAndTheCsv() throws Exception {
        for (int status : new int[] {500, 503, 504}) {
            String url = serve(status, "application/json", "{\"status\":\"unavailable\"}", new CopyOnWriteArrayList<>());
            String[] r = run("loadgen", "--rate", "50", "--duration", "0.1", "--url", url);
            assertTrue(r[1].contains("statuses: " + status + "=5;") && r[1].contains("errors (5xx) 100.00%"), status + ": " + r[1]);
            String csv = r[1].lines().filter(l -> l.startsWith("csv,")).findFirst().orElseThrow();
            assertEquals("100.000", csv.split(",")[8], status + ": the csv's errors column: " + csv);
            stop();
        }
    }

    @Test
    void aBadNumericFlagIsBadInputNamingTheFlagTheValueAndTheRangeBeforeAnythingIsSent() throws Exception {
        List<String> paths = new CopyOnWriteArrayList<>();
        String url = serve(200, "application/json", "{}", paths);
        String[][] cases = {
                {"--sla", "-1", "--sla = -1.0: allowed (0, 3600000] ms"},
                {"--sla", "0", "--sla = 0.0: allowed (0, 3600000] ms"},
                {"--sla", "NaN", "--sla = NaN: allowed (0, 3600000] ms"},
                {"--rate", "0", "--rate = 0.0: allowed (0, 100000] requests/s"},
                {"--rate", "-5", "--rate = -5.0: allowed (0, 100000] requests/s"},
                {"--duration", "-1", "--duration = -1.0: allowed (0, 3600] s"},
                {"--duration", "0.01", "--rate = 10.0 with --duration = 0.01: that is 0 requests"},
                {"--mix", "1,1,1,1,Infinity", "--mix = 1,1,1,1,Infinity: 'Infinity': allowed shares are finite numbers >= 0"},
                {"--strategy", "foo", "--strategy = 'foo': not a strategy of the gateway; allowed lin_ts, least_conn, p2c, round_robin,"
                        + " weighted_round_robin (or lin-ts, least-connections, p2c, round-robin, weighted-random)"},
                {"--strategy", "", "--strategy = '': not a strategy of the gateway; allowed lin_ts"},
        };
        for (String[] c : cases) {
            java.util.Map<String, String> flags = new java.util.LinkedHashMap<>(java.util.Map.of("--url", url, "--rate", "10",
                    "--duration", "0.1"));
            flags.put(c[0], c[1]);
            List<String> args = new java.util.ArrayList<>(List.of("loadgen"));
            flags.forEach((k, v) -> args.addAll(List.of(k, v)));
            String[] r = run(args.toArray(new String[0]));
            assertEquals("2", r[0], c[0] + " " + c[1] + ": " + r[1] + r[2]);
            assertTrue(r[2].contains(c[2]), c[0] + " " + c[1] + ": " + r[2]);
        }
        assertTrue(paths.isEmpty(), "nothing was sent: " + paths);
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

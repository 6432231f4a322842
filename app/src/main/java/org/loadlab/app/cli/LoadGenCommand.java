package org.loadlab.app.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.loadlab.node.protocol.Endpoints;
import org.loadlab.shell.gateway.Strategies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab loadgen}: an open-loop HTTP load generator for the gateway. Request k is due
 * at start + k/rate whatever the earlier ones are doing (no coordinated omission: a slow
 * answer never delays the next send), and its latency is measured from when it was due, not
 * from when it left. Endpoints are drawn from seed 003's mix. Reports latency percentiles, SLA
 * breaches, statuses, achieved throughput and, from the gateway's {@code X-Backend-Latency},
 * the latency the gateway adds. Requests that got no HTTP answer (connection refused, reset)
 * are counted apart with the first error and are not in the latency; a request that timed
 * out is, at its timeout (a lower bound of its latency). The first 4xx answer's problem detail
 * is shown, and the exit code is 1 when no request got a 200. A {@code --strategy} the gateway
 * does not have ({@link Strategies}) is refused before anything is sent, like every other bad
 * flag: sent, each of the requests would only come back as the same 400.
 *
 * <p>Source: Tene, "How NOT to Measure Latency" (coordinated omission); wrk2's constant-rate design.
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true,
        description = "Open-loop load against the gateway: fixed send schedule, latency from the intended send time.")
final class LoadGenCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--url", defaultValue = "http://127.0.0.1:8000", paramLabel = "URL",
            description = "Gateway base URL, http:// or https:// (default http://127.0.0.1:8000).")
    private String url;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    /** How long a request may take before it counts as timed out, s. */
    static final int REQUEST_TIMEOUT_SECONDS = 30;

    @Option(names = "--rate", required = true, paramLabel = "R", description = "Requests per second (> 0).")
    private double rate;

    @Option(names = "--duration", defaultValue = "3", paramLabel = "S", description = "Seconds of sending (default 3, the seed's).")
    private double duration;

    @Option(names = "--strategy", paramLabel = "NAME", description = "?strategy= on every request: lin_ts, least_conn, p2c, round_robin or weighted_round_robin (default: the gateway's).")
    private String strategy;

    /** Largest {@code --sla}, ms: one hour, the latency histogram's range. */
    static final double MAX_SLA_MS = 3_600_000;

    @Option(names = "--sla", defaultValue = "200", paramLabel = "MS", description = "SLA latency, ms (> 0, default 200).")
    private double slaMs;

    @Option(names = "--mix", defaultValue = "0.2,0.15,0.35,0.2,0.1", paramLabel = "W,...",
            description = "Shares of auth,checkout,play-video,analytics,logs (default the autonomous scenario's).")
    private String mix;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed of the endpoint draws.")
    private long seed;

    @Override
    public Integer call() throws Exception {
        String base = baseUrl(url);
        if (!(rate > 0 && rate <= 100_000)) {
            throw new BadInputException("--rate = " + rate + ": allowed (0, 100000] requests/s");
        }
        if (!(duration > 0 && duration <= 3600)) {
            throw new BadInputException("--duration = " + duration + ": allowed (0, 3600] s");
        }
        if (Math.round(rate * duration) < 1) {
            throw new BadInputException("--rate = " + rate + " with --duration = " + duration + ": that is "
                    + Math.round(rate * duration) + " requests; allowed a rate and a duration whose product is at least 1");
        }
        if (strategy != null && Strategies.policyOf(strategy).isEmpty()) {
            throw new BadInputException("--strategy = '" + strategy + "': not a strategy of the gateway; allowed "
                    + Strategies.allowed());
        }
        if (!(slaMs > 0 && slaMs <= MAX_SLA_MS)) {
            throw new BadInputException("--sla = " + slaMs + ": allowed (0, " + (long) MAX_SLA_MS + "] ms");
        }
        String[] parts = mix.split(",");
        if (parts.length != Endpoints.NAMES.size()) {
            throw new BadInputException("--mix = " + mix + ": allowed " + Endpoints.NAMES.size() + " shares for "
                    + String.join(",", Endpoints.NAMES));
        }
        double[] cum = new double[parts.length];
        double total = 0;
        for (int i = 0; i < parts.length; i++) {
            double w;
            try {
                w = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new BadInputException("--mix = " + mix + ": '" + parts[i] + "' is not a number");
            }
            if (!(w >= 0 && Double.isFinite(w))) {
                throw new BadInputException("--mix = " + mix + ": '" + parts[i].trim() + "': allowed shares are finite numbers >= 0");
            }
            total += w;
            cum[i] = total;
        }
        if (!(total > 0)) {
            throw new BadInputException("--mix = " + mix + ": at least one share must be > 0");
        }
        java.util.concurrent.ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "loadgen-http");
            t.setDaemon(true);
            return t;
        });
        try {
            return run(base, cum, total, HttpClient.newBuilder().executor(pool).connectTimeout(Duration.ofSeconds(5))
                    .version(HttpClient.Version.HTTP_1_1).build());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * {@code --url} without trailing slashes, checked: an absolute http(s) URL with a host.
     *
     * @throws BadInputException naming {@code --url}, the value and what is allowed
     */
    static String baseUrl(String url) {
        String trimmed = url.strip().replaceAll("/+$", "");
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (java.net.URISyntaxException e) {
            throw new BadInputException("--url = '" + url + "': not a URL (" + e.getReason() + "); allowed http://HOST:PORT or"
                    + " https://HOST:PORT, e.g. http://127.0.0.1:8000");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new BadInputException("--url = '" + url + "': " + (scheme.isEmpty() ? "no scheme" : uri.getHost() == null
                    ? "no host" : "scheme '" + scheme + "'") + "; allowed http://HOST:PORT or https://HOST:PORT, e.g."
                    + " http://127.0.0.1:8000");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new BadInputException("--url = '" + url + "': the gateway's base URL takes no query or fragment; e.g."
                    + " http://127.0.0.1:8000 (use --strategy for ?strategy=)");
        }
        return trimmed;
    }

    /** The first 4xx answer: status, request path and the problem's detail (or the body). */
    private record FirstRefusal(int status, String path, String detail) {
    }

    private int run(String base, double[] cum, double total, HttpClient client) throws Exception {
        java.io.PrintWriter out = spec.commandLine().getOut();
        long count = Math.round(rate * duration);
        ConcurrentHistogram latency = new ConcurrentHistogram(3_600_000_000L, 3);
        ConcurrentHistogram added = new ConcurrentHistogram(3_600_000_000L, 3);
        ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        LongAdder breaches = new LongAdder();
        LongAdder timeouts = new LongAdder();
        LongAdder failures = new LongAdder();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        AtomicReference<FirstRefusal> firstRefusal = new AtomicReference<>();
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        SplittableRandom rng = new SplittableRandom(seed);
        String query = strategy == null ? "" : "?strategy=" + java.net.URLEncoder.encode(strategy, StandardCharsets.UTF_8);
        // Only a 4xx body is read (its problem detail says what was wrong); the others are discarded unread.
        HttpResponse.BodyHandler<String> bodies = info -> info.statusCode() >= 400 && info.statusCode() < 500
                ? HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8)
                : HttpResponse.BodySubscribers.replacing(null);
        long start = System.nanoTime() + 50_000_000L;
        long lastDue = start;
        long lateSends = 0;
        for (long k = 0; k < count; k++) {
            long due = start + (long) (k * 1e9 / rate);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(Math.min(wait, 1_000_000L));
            }
            if (System.nanoTime() - due > 1_000_000L) {
                lateSends++;
            }
            lastDue = due;
            double u = rng.nextDouble() * total;
            int e = 0;
            while (e < cum.length - 1 && u >= cum[e]) {
                e++;
            }
            String path = "/" + Endpoints.NAMES.get(e) + query;
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(REQUEST_TIMEOUT_SECONDS)).GET().build();
            inFlight.add(client.sendAsync(req, bodies).whenComplete((r, x) -> {
                long took = System.nanoTime() - due; // from when it was due: no coordinated omission
                if (x != null) {
                    Throwable cause = x instanceof java.util.concurrent.CompletionException && x.getCause() != null ? x.getCause() : x;
                    if (cause instanceof java.net.http.HttpTimeoutException
                            && !(cause instanceof java.net.http.HttpConnectTimeoutException)) {
                        timeouts.increment(); // the server took it and never answered: its latency is at least this
                        latency.recordValue(Math.max(0, took / 1000));
                        return;
                    }
                    failures.increment(); // no HTTP answer at all: nothing to say about the server's latency
                    firstFailure.compareAndSet(null, describe(cause));
                    return;
                }
                latency.recordValue(Math.max(0, took / 1000));
                statuses.computeIfAbsent(r.statusCode(), c -> new LongAdder()).increment();
                if (took / 1e6 > slaMs) {
                    breaches.increment();
                }
                if (r.body() != null) {
                    firstRefusal.compareAndSet(null, new FirstRefusal(r.statusCode(), requested(req.uri()), detail(r.body())));
                }
                r.headers().firstValue("X-Backend-Latency").filter(v -> v.endsWith(" ms")).ifPresent(v -> {
                    double backend = Double.parseDouble(v.substring(0, v.length() - 3));
                    added.recordValue(Math.max(0, took / 1000 - (long) (backend * 1000)));
                });
            }));
        }
        double sendSeconds = (lastDue - start) / 1e9;
        CompletableFuture.allOf(inFlight.toArray(new CompletableFuture[0])).exceptionally(t -> null)
                .get(REQUEST_TIMEOUT_SECONDS * 2L, TimeUnit.SECONDS);
        double wall = (System.nanoTime() - start) / 1e9;
        long ok = statuses.getOrDefault(200, new LongAdder()).sum();
        out.printf(Locale.ROOT, "loadgen: %d requests at %.0f/s over %.2f s (open loop, %d sends > 1 ms late), %s%s%n",
                count, rate, sendSeconds, lateSends, base, query);
        if (latency.getTotalCount() > 0) {
            out.printf(Locale.ROOT, "latency ms from the intended send (%d answered%s): p50 %.1f  p95 %.1f  p99 %.1f  max %.1f%n",
                    latency.getTotalCount() - timeouts.sum(), timeouts.sum() > 0 ? ", " + timeouts.sum() + " timed out at "
                            + REQUEST_TIMEOUT_SECONDS + " s" : "",
                    latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(95) / 1000.0,
                    latency.getValueAtPercentile(99) / 1000.0, latency.getMaxValue() / 1000.0);
        } else {
            out.println("latency: none (no request was answered)");
        }
        if (added.getTotalCount() > 0) {
            out.printf(Locale.ROOT, "added by the gateway (client latency - X-Backend-Latency) ms: p50 %.2f  p99 %.2f%n",
                    added.getValueAtPercentile(50) / 1000.0, added.getValueAtPercentile(99) / 1000.0);
        }
        StringBuilder st = new StringBuilder();
        new java.util.TreeMap<>(statuses).forEach((c, n) -> st.append(' ').append(c).append('=').append(n.sum()));
        long errors = statuses.entrySet().stream().filter(x -> x.getKey() >= 500 && x.getKey() < 600)
                .mapToLong(x -> x.getValue().sum()).sum(); // every 5xx: a node's 500, the gateway's 503 and 504
        out.printf(Locale.ROOT, "statuses:%s; timed out %d; no answer %d; SLA breaches (> %.0f ms) %.2f%%; errors (5xx) %.2f%%;"
                        + " shed (429) %.2f%%; achieved %.1f completions/s (200s over the run)%n",
                st.length() == 0 ? " none" : st, timeouts.sum(), failures.sum(), slaMs,
                100.0 * breaches.sum() / count, 100.0 * errors / count,
                100.0 * statuses.getOrDefault(429, new LongAdder()).sum() / count, ok / wall);
        if (failures.sum() > 0) {
            out.printf(Locale.ROOT, "no answer: %d of %d requests got no HTTP answer from %s; the first: %s%n", failures.sum(),
                    count, base, firstFailure.get());
        }
        FirstRefusal refusal = firstRefusal.get();
        if (refusal != null) {
            long n = statuses.entrySet().stream().filter(x -> x.getKey() >= 400 && x.getKey() < 500)
                    .mapToLong(x -> x.getValue().sum()).sum();
            out.printf(Locale.ROOT, "refused: %d of %d requests got a 4xx; the first: %d for GET %s: %s%n", n, count,
                    refusal.status(), refusal.path(), refusal.detail());
        }
        out.printf(Locale.ROOT, "csv,%s,%.0f,%d,%.2f,%.2f,%.2f,%.3f,%.3f,%.3f,%.2f,%.2f%n", strategy == null ? "default" : strategy,
                rate, count, ms(latency, 50), ms(latency, 95), ms(latency, 99), 100.0 * breaches.sum() / count,
                100.0 * errors / count,
                100.0 * statuses.getOrDefault(429, new LongAdder()).sum() / count, ok / wall,
                added.getTotalCount() > 0 ? added.getValueAtPercentile(99) / 1000.0 : Double.NaN);
        out.flush();
        if (ok == 0) {
            throw new CommandFailedException("no request succeeded (no 200 among " + count + "): " + (failures.sum() == count
                    ? "nothing answered at " + base + " (" + firstFailure.get() + "); is the gateway running? (loadlab gateway)"
                    : refusal != null ? "the gateway refused them: " + refusal.detail() : "see the statuses above"));
        }
        return 0;
    }

    /** A percentile of {@code h} in ms, NaN when it holds nothing (no request was answered). */
    private static double ms(ConcurrentHistogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /**
     * An I/O failure in words: the innermost message, else what its kind means (JDK 17's HTTP
     * client reports a refused connection as a message-less ConnectException over a
     * ClosedChannelException, an unknown host over an UnresolvedAddressException).
     */
    private static String describe(Throwable t) {
        String message = null;
        Throwable kind = t;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof java.nio.channels.UnresolvedAddressException || c instanceof java.net.UnknownHostException) {
                return "unknown host (its name does not resolve)";
            }
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                message = c.getMessage();
                kind = c;
            }
        }
        if (message == null) {
            return t instanceof java.net.ConnectException ? "connection refused" : "the connection failed";
        }
        return kind instanceof java.net.ConnectException && !message.toLowerCase(Locale.ROOT).contains("connect")
                ? "could not connect: " + message : message;
    }

    /** A problem body's {@code detail}, or the body itself (shortened) if it is not a problem. */
    private static String detail(String body) {
        try {
            com.fasterxml.jackson.databind.JsonNode n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
            if (n != null && n.hasNonNull("detail")) {
                return n.get("detail").asText();
            }
        } catch (java.io.IOException notJson) {
            // shown as it is
        }
        String b = body.strip();
        return b.isEmpty() ? "(empty body)" : b.length() > 300 ? b.substring(0, 300) + "..." : b;
    }

    /** The path and query a request went to, as the server saw it: the base URL's own path included. */
    private static String requested(URI uri) {
        return uri.getRawPath() + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
    }
}

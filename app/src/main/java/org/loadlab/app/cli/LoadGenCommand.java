package org.loadlab.app.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.loadlab.node.protocol.Endpoints;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab loadgen}: an open-loop HTTP load generator for the gateway. Request k is due
 * at start + k/rate whatever the earlier ones are doing (no coordinated omission: a slow
 * answer never delays the next send), and its latency is measured from when it was due, not
 * from when it left. Endpoints are drawn from seed 003's mix. Reports latency percentiles, SLA
 * breaches, statuses, achieved throughput and, from the gateway's {@code X-Backend-Latency},
 * the latency the gateway adds.
 *
 * <p>Source: Tene, "How NOT to Measure Latency" (coordinated omission); wrk2's constant-rate design.
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true,
        description = "Open-loop load against the gateway: fixed send schedule, latency from the intended send time.")
final class LoadGenCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--url", defaultValue = "http://127.0.0.1:8000", paramLabel = "URL", description = "Gateway base URL.")
    private String url;

    @Option(names = "--rate", required = true, paramLabel = "R", description = "Requests per second (> 0).")
    private double rate;

    @Option(names = "--duration", defaultValue = "3", paramLabel = "S", description = "Seconds of sending (default 3, the seed's).")
    private double duration;

    @Option(names = "--strategy", paramLabel = "NAME", description = "?strategy= on every request (default: the gateway's).")
    private String strategy;

    @Option(names = "--sla", defaultValue = "200", paramLabel = "MS", description = "SLA latency, ms (default 200).")
    private double slaMs;

    @Option(names = "--mix", defaultValue = "0.2,0.15,0.35,0.2,0.1", paramLabel = "W,...",
            description = "Shares of auth,checkout,play-video,analytics,logs (default the autonomous scenario's).")
    private String mix;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed of the endpoint draws.")
    private long seed;

    @Override
    public Integer call() throws Exception {
        if (!(rate > 0 && rate <= 100_000)) {
            throw new BadInputException("--rate = " + rate + ": allowed (0, 100000] requests/s");
        }
        if (!(duration > 0 && duration <= 3600)) {
            throw new BadInputException("--duration = " + duration + ": allowed (0, 3600] s");
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
            if (!(w >= 0)) {
                throw new BadInputException("--mix = " + mix + ": shares must be >= 0");
            }
            total += w;
            cum[i] = total;
        }
        HttpClient client = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4))
                .connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();
        long count = Math.round(rate * duration);
        ConcurrentHistogram latency = new ConcurrentHistogram(3_600_000_000L, 3);
        ConcurrentHistogram added = new ConcurrentHistogram(3_600_000_000L, 3);
        ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        LongAdder breaches = new LongAdder();
        LongAdder failures = new LongAdder();
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        SplittableRandom rng = new SplittableRandom(seed);
        String query = strategy == null ? "" : "?strategy=" + strategy;
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
            HttpRequest req = HttpRequest.newBuilder(URI.create(url + "/" + Endpoints.NAMES.get(e) + query))
                    .timeout(Duration.ofSeconds(30)).GET().build();
            inFlight.add(client.sendAsync(req, HttpResponse.BodyHandlers.discarding()).whenComplete((r, x) -> {
                long took = System.nanoTime() - due; // from when it was due: no coordinated omission
                latency.recordValue(Math.max(0, took / 1000));
                if (x != null) {
                    failures.increment();
                    return;
                }
                statuses.computeIfAbsent(r.statusCode(), c -> new LongAdder()).increment();
                if (took / 1e6 > slaMs) {
                    breaches.increment();
                }
                r.headers().firstValue("X-Backend-Latency").filter(v -> v.endsWith(" ms")).ifPresent(v -> {
                    double backend = Double.parseDouble(v.substring(0, v.length() - 3));
                    added.recordValue(Math.max(0, took / 1000 - (long) (backend * 1000)));
                });
            }));
        }
        double sendSeconds = (lastDue - start) / 1e9;
        CompletableFuture.allOf(inFlight.toArray(new CompletableFuture[0])).exceptionally(t -> null).get(60, TimeUnit.SECONDS);
        double wall = (System.nanoTime() - start) / 1e9;
        long ok = statuses.getOrDefault(200, new LongAdder()).sum();
        System.out.printf(Locale.ROOT, "loadgen: %d requests at %.0f/s over %.2f s (open loop, %d sends > 1 ms late), %s%s%n",
                count, rate, sendSeconds, lateSends, url, query);
        System.out.printf(Locale.ROOT, "latency ms from the intended send: p50 %.1f  p95 %.1f  p99 %.1f  max %.1f%n",
                latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(95) / 1000.0,
                latency.getValueAtPercentile(99) / 1000.0, latency.getMaxValue() / 1000.0);
        if (added.getTotalCount() > 0) {
            System.out.printf(Locale.ROOT, "added by the gateway (client latency - X-Backend-Latency) ms: p50 %.2f  p99 %.2f%n",
                    added.getValueAtPercentile(50) / 1000.0, added.getValueAtPercentile(99) / 1000.0);
        }
        StringBuilder st = new StringBuilder();
        new java.util.TreeMap<>(statuses).forEach((c, n) -> st.append(' ').append(c).append('=').append(n.sum()));
        System.out.printf(Locale.ROOT, "statuses:%s; failures %d; SLA breaches (> %.0f ms) %.2f%%; errors (500) %.2f%%; shed (429)"
                        + " %.2f%%; achieved %.1f completions/s (200s over the run)%n", st, failures.sum(), slaMs,
                100.0 * breaches.sum() / count, 100.0 * statuses.getOrDefault(500, new LongAdder()).sum() / count,
                100.0 * statuses.getOrDefault(429, new LongAdder()).sum() / count, ok / wall);
        System.out.printf(Locale.ROOT, "csv,%s,%.0f,%d,%.2f,%.2f,%.2f,%.3f,%.3f,%.3f,%.2f,%.2f%n", strategy == null ? "default" : strategy,
                rate, count, latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(95) / 1000.0,
                latency.getValueAtPercentile(99) / 1000.0, 100.0 * breaches.sum() / count,
                100.0 * statuses.getOrDefault(500, new LongAdder()).sum() / count,
                100.0 * statuses.getOrDefault(429, new LongAdder()).sum() / count, ok / wall,
                added.getTotalCount() > 0 ? added.getValueAtPercentile(99) / 1000.0 : Double.NaN);
        return 0;
    }
}

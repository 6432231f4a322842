package org.loadlab.analysis.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.loadlab.analysis.stats.JainFairness;

/**
 * Streaming collector of one run's metrics, fed by the simulation engine (or a live shell)
 * on its hot path; {@link #finish(double)} turns it into an immutable {@link RunMetrics}.
 *
 * <p><b>Cost.</b> Every hot-path method is O(1) and allocation-free: primitive counters,
 * running integrals, and an HdrHistogram for response times (whose range grows a few times at
 * most). The only map is {@link #messageSent}'s kind → counter map, which allocates once per
 * new kind. Memory depends on the number of nodes and on simulated time (the time series
 * keeps ~20 bytes per interval), never on the number of requests.
 *
 * <p><b>Time.</b> All times are seconds of (virtual or real) time since the start of the run.
 * Calls must come in non-decreasing {@code now} across all methods; a call that goes back in
 * time, a NaN or infinite time, an out-of-range node index or a negative count throws
 * {@link IllegalArgumentException}. After {@link #finish(double)} every method throws
 * {@link IllegalStateException}.
 *
 * <p><b>Warm-up.</b> Observations of the warm-up period [0, warm-up) are excluded from the
 * statistics but not from the counters:
 * <ul>
 *   <li>response times count only requests whose arrival time is ≥ warm-up;</li>
 *   <li>waiting times count only requests that joined a node's queue (now − wait) at or
 *       after warm-up (the recorder is not told the balancer arrival time here);</li>
 *   <li>throughput, node shares, utilisation integrals, backlog area and queue maxima cover
 *       only the window [warm-up, end];</li>
 *   <li>counts of arrived, completed, rejected and lost requests, decisions, queries,
 *       messages, bytes and state updates include the whole run, warm-up included;</li>
 *   <li>the time series covers the whole run from time 0.</li>
 * </ul>
 *
 * <p>Not thread-safe: one recorder per run, fed from one thread (the engine's event loop or
 * an actor).
 *
 * <p>Source: DESIGN.md (metrics leave the cores as Observe effects; in-memory collector with
 * HdrHistogram); SPEC.md §4–§5 (metric definitions).
 */
public final class RunRecorder {

    /** Default SLA latency, seconds (seed 003: 200 ms). */
    public static final double DEFAULT_SLA_SECONDS = 0.2;
    /** Counter-name prefix whose counts go to {@link RunMetrics#routingModes()} under the rest of the name. */
    public static final String MODE_PREFIX = "routing_mode:";

    /** Default width of a time-series interval, seconds (SPEC.md §4: a 1 s trace). */
    public static final double DEFAULT_SERIES_INTERVAL_SECONDS = 1.0;

    private final int nodes;
    private final double warmup;
    private final TimeSeriesBuckets series;
    private final QueueTracker queues;
    private final ServerTimeIntegrator serverTime;
    private final MessageTally messages = new MessageTally();
    private final DurationStats response = new DurationStats(true);
    private final DurationStats waiting = new DurationStats(false);
    private final NodeRows rows;
    private final PeakNodeShare peakShare;

    private long arrived;
    private long completed;
    private double slaLatency = DEFAULT_SLA_SECONDS;
    private long slaBreaches;
    // Counters by name; the value is a one-element array so a count is one hash lookup.
    private final java.util.HashMap<String, long[]> counts = new java.util.HashMap<>();
    private long completedInWindow;
    private double lastArrival = Double.NaN;
    private long completedByLastArrival;
    private long rejected;
    private long lost;
    private long decisions;
    private long queries;
    private long stateUpdates;
    private double lastTime;
    private boolean finished;

    /**
     * Creates a recorder for a run on {@code nodes} backend nodes.
     *
     * @param nodes number of backend nodes n; node indices are 0..n−1
     * @param warmupSeconds length of the warm-up period excluded from statistics, seconds, ≥ 0
     * @param seriesIntervalSeconds width Δ of a time-series interval, seconds, &gt; 0
     *     (usually {@value #DEFAULT_SERIES_INTERVAL_SECONDS})
     * @throws IllegalArgumentException if {@code nodes} &lt; 1, {@code warmupSeconds} is negative
     *     or not finite, or {@code seriesIntervalSeconds} is not positive and finite
     */
    public RunRecorder(int nodes, double warmupSeconds, double seriesIntervalSeconds) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes: " + nodes + "; must be ≥ 1");
        }
        if (!(warmupSeconds >= 0 && warmupSeconds < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("warmupSeconds: " + warmupSeconds + "; must be finite and ≥ 0");
        }
        if (!(seriesIntervalSeconds > 0 && seriesIntervalSeconds < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(
                    "seriesIntervalSeconds: " + seriesIntervalSeconds + "; must be finite and > 0");
        }
        this.nodes = nodes;
        this.warmup = warmupSeconds;
        this.series = new TimeSeriesBuckets(seriesIntervalSeconds);
        this.rows = new NodeRows(nodes);
        this.queues = new QueueTracker(rows, warmupSeconds, series);
        this.serverTime = new ServerTimeIntegrator(rows, warmupSeconds);
        this.peakShare = new PeakNodeShare(nodes);
    }

    /**
     * Creates a recorder with the default 1 s time-series interval.
     *
     * @param nodes number of backend nodes n
     * @param warmupSeconds warm-up excluded from statistics, seconds, ≥ 0
     * @throws IllegalArgumentException as {@link #RunRecorder(int, double, double)}
     */
    public RunRecorder(int nodes, double warmupSeconds) {
        this(nodes, warmupSeconds, DEFAULT_SERIES_INTERVAL_SECONDS);
    }

    /**
     * A request entered a balancer.
     *
     * @param now current time, seconds
     * @throws IllegalArgumentException if time went back
     */
    public void arrived(double now) {
        tick(now);
        arrived++;
        lastArrival = now;
        completedByLastArrival = completedInWindow;
    }

    /**
     * A routing decision was made after reading the load of {@code queries} nodes (probes sent,
     * cache entries read, or n for an oracle).
     *
     * @param now current time, seconds
     * @param queries nodes whose load the decision read, ≥ 0
     * @throws IllegalArgumentException if time went back or {@code queries} &lt; 0
     */
    public void decision(double now, int queries) {
        tick(now);
        if (queries < 0) {
            throw negative("queries", queries);
        }
        decisions++;
        this.queries += queries;
    }

    /**
     * A balancer sent a request (or a retry of one) to {@code node}: feeds the herding metric
     * {@link RunMetrics#maxNodeShare1s()}.
     *
     * @param now time of the routing, seconds
     * @param node the node, in [0, n)
     * @throws IllegalArgumentException if time went back or the node index is out of range
     */
    public void routed(double now, int node) {
        tick(now);
        checkNode(node);
        peakShare.routed(now, node);
    }

    /**
     * A request was rejected (never served). Counted over the whole run.
     *
     * @param now current time, seconds
     * @param arrivalTime when the request entered the balancer, seconds, ≤ now
     * @throws IllegalArgumentException if time went back or {@code arrivalTime} &gt; now
     */
    public void rejected(double now, double arrivalTime) {
        tick(now);
        if (!(arrivalTime <= now)) {
            throw new IllegalArgumentException("arrivalTime: " + arrivalTime + " is after now " + now);
        }
        rejected++;
    }

    /**
     * A request completed at {@code node}; its response (sojourn) time is
     * {@code now − arrivalTime}. Counted over the whole run; its response time enters the
     * statistics only if {@code arrivalTime} ≥ warm-up; it counts for throughput and node share
     * if {@code now} ≥ warm-up.
     *
     * @param now completion time, seconds
     * @param arrivalTime when the request entered the balancer, seconds, ≤ now
     * @param node node that served it, in [0, n)
     * @throws IllegalArgumentException if time went back, {@code arrivalTime} &gt; now or the
     *     node index is out of range
     */
    public void completed(double now, double arrivalTime, int node) {
        tick(now);
        checkNode(node);
        double responseTime = now - arrivalTime;
        if (!(responseTime >= 0)) {
            throw new IllegalArgumentException("arrivalTime: " + arrivalTime + " is after now " + now);
        }
        queues.advance(now);
        series.countCompletion();
        completed++;
        if (now >= warmup) {
            completedInWindow++;
            rows.values[NodeRows.STRIDE * node + NodeRows.COMPLETIONS]++;
        }
        if (arrivalTime >= warmup) {
            response.record(responseTime);
            if (responseTime > slaLatency) {
                slaBreaches++;
            }
        }
    }

    /**
     * A request started service at {@code node} after waiting {@code waitSeconds} in its queue.
     * The waiting time enters the statistics only if the request joined the queue
     * ({@code now − waitSeconds}) at or after warm-up.
     *
     * @param now time service started, seconds
     * @param node node index, in [0, n)
     * @param waitSeconds waiting time, seconds, ≥ 0
     * @throws IllegalArgumentException if time went back, the node index is out of range or the
     *     wait is negative or NaN
     */
    public void serviceStarted(double now, int node, double waitSeconds) {
        tick(now);
        checkNode(node);
        if (!(waitSeconds >= 0)) {
            throw new IllegalArgumentException("waitSeconds: " + waitSeconds + "; must be ≥ 0");
        }
        if (now - waitSeconds >= warmup) {
            waiting.record(waitSeconds);
        }
    }

    /**
     * {@code count} requests were lost at {@code node} (e.g. the node failed with them queued
     * or in service). Counted over the whole run.
     *
     * @param now current time, seconds
     * @param node node index, in [0, n)
     * @param count requests lost, ≥ 0
     * @throws IllegalArgumentException if time went back, the node index is out of range or
     *     {@code count} &lt; 0
     */
    public void lost(double now, int node, int count) {
        tick(now);
        checkNode(node);
        if (count < 0) {
            throw negative("count", count);
        }
        lost += count;
    }

    /**
     * Node j's queue length q_j changed to {@code q} (requests queued plus in service, as the
     * engine defines it). Before a node's first call its q_j is 0; report initial queues at
     * time 0.
     *
     * @param now time of the change, seconds
     * @param node node index j, in [0, n)
     * @param q new queue length, requests, ≥ 0
     * @throws IllegalArgumentException if time went back, the node index is out of range or
     *     {@code q} &lt; 0
     */
    public void queueLength(double now, int node, int q) {
        tick(now);
        checkNode(node);
        if (q < 0) {
            throw negative("q", q);
        }
        queues.advance(now);
        queues.set(node, q, now);
    }

    /**
     * Node j now has {@code busy} of its {@code servers} servers busy. Utilisation integrates
     * busy server-time and available server-time from warm-up on; before a node's first call it
     * counts as 0 busy of 0 servers.
     *
     * @param now time of the change, seconds
     * @param node node index j, in [0, n)
     * @param busy busy servers, 0 ≤ busy ≤ servers
     * @param servers servers of the node, ≥ 0
     * @throws IllegalArgumentException if time went back, the node index is out of range or
     *     not 0 ≤ busy ≤ servers
     */
    public void busyServers(double now, int node, int busy, int servers) {
        tick(now);
        checkNode(node);
        if (busy < 0 || busy > servers) {
            throw new IllegalArgumentException("busy: " + busy + " with servers: " + servers
                    + "; must satisfy 0 ≤ busy ≤ servers");
        }
        serverTime.set(now, node, busy, servers);
    }

    /**
     * Node j pushed a load report to {@code receivers} balancers; each receiver counts as one
     * state update. (The messages themselves are counted only if also passed to
     * {@link #messageSent}.)
     *
     * @param now current time, seconds
     * @param node reporting node index, in [0, n)
     * @param receivers balancers that receive the report, ≥ 0
     * @throws IllegalArgumentException if time went back, the node index is out of range or
     *     {@code receivers} &lt; 0
     */
    public void stateUpdate(double now, int node, int receivers) {
        tick(now);
        checkNode(node);
        if (receivers < 0) {
            throw negative("receivers", receivers);
        }
        stateUpdates += receivers;
    }

    /**
     * A message of {@code kind} was sent. Pass a small, fixed set of kind strings (e.g. interned
     * class simple names): each new kind allocates one map entry.
     *
     * @param now current time, seconds
     * @param kind message kind, non-null
     * @param estimatedBytes estimated size on the wire, bytes, ≥ 0
     * @throws IllegalArgumentException if time went back or {@code estimatedBytes} &lt; 0
     * @throws NullPointerException if {@code kind} is null
     */
    public void messageSent(double now, String kind, int estimatedBytes) {
        tick(now);
        Objects.requireNonNull(kind, "kind");
        if (estimatedBytes < 0) {
            throw negative("estimatedBytes", estimatedBytes);
        }
        messages.add(kind, estimatedBytes);
    }

    /**
     * The index of message kind {@code kind} for {@link #messageSent(double, int, int)}: a
     * shell that knows its message types resolves each kind once and then counts without a
     * map lookup.
     *
     * @param kind message kind, non-null
     * @return its index in this recorder
     * @throws NullPointerException if {@code kind} is null
     */
    public int messageKind(String kind) {
        Objects.requireNonNull(kind, "kind");
        return messages.kind(kind);
    }

    /**
     * A message of the kind with index {@code kind} (from {@link #messageKind}) was sent;
     * the same as {@link #messageSent(double, String, int)} with its name.
     *
     * @param now current time, seconds
     * @param kind index from {@link #messageKind}
     * @param estimatedBytes estimated size on the wire, bytes, ≥ 0
     * @throws IllegalArgumentException if time went back or {@code estimatedBytes} &lt; 0
     * @throws ArrayIndexOutOfBoundsException if {@code kind} is not an index this recorder gave
     */
    public void messageSent(double now, int kind, int estimatedBytes) {
        tick(now);
        if (estimatedBytes < 0) {
            throw negative("estimatedBytes", estimatedBytes);
        }
        messages.add(kind, estimatedBytes);
    }

    /**
     * A snapshot of the response-time distribution so far (requests arrived at or after
     * warm-up), for CDF plots. Before {@link #finish} it copies the histogram: do not call on
     * the hot path; after it, the final distribution itself.
     *
     * @return an immutable distribution
     */
    public ResponseTimeHistogram responseHistogram() {
        return response.snapshot();
    }

    /** The warm-up period excluded from statistics, seconds (as given to the constructor). */
    public double warmupSeconds() {
        return warmup;
    }

    /**
     * Time of the latest observation so far, the smallest valid argument of {@link #finish}
     * (useful in live mode, where observations may arrive up to the last moment).
     *
     * @return seconds; 0 before any observation
     * @throws IllegalStateException if already finished
     */
    public double lastObservationSeconds() {
        if (finished) {
            throw new IllegalStateException("this recorder is finished");
        }
        return lastTime;
    }

    /**
     * Closes all integrals at {@code endTime} and returns the run's metrics. Call once.
     *
     * @param endTime end of the run, seconds; ≥ every {@code now} passed so far and &gt; warm-up
     * @return the immutable metrics
     * @throws IllegalArgumentException if {@code endTime} is before the last call's time, not
     *     after the warm-up, or not finite
     * @throws IllegalStateException if already finished
     */
    public RunMetrics finish(double endTime) {
        if (finished) {
            throw new IllegalStateException("finish: this recorder is already finished");
        }
        if (!(endTime >= lastTime && endTime < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("endTime: " + endTime
                    + " is before the last observation at " + lastTime + " or not finite");
        }
        if (!(endTime > warmup)) {
            throw new IllegalArgumentException("endTime: " + endTime
                    + " must be after the warm-up of " + warmup + " s");
        }
        queues.advance(endTime);
        serverTime.close(endTime);
        finished = true;
        lastTime = Double.POSITIVE_INFINITY;

        double duration = endTime - warmup;
        ResponseTimeHistogram histogram = response.seal();
        double[] percentiles = histogram.valuesAtPercentiles(50.0, 95.0, 99.0, 99.9);
        List<Double> share = new ArrayList<>(nodes);
        List<Double> utilisation = new ArrayList<>(nodes);
        List<Integer> nodeMax = new ArrayList<>(nodes);
        double[] rho = new double[nodes];
        for (int j = 0; j < nodes; j++) {
            share.add(completedInWindow == 0
                    ? Double.NaN
                    : rows.values[NodeRows.STRIDE * j + NodeRows.COMPLETIONS] / completedInWindow);
            rho[j] = serverTime.utilisation(j);
            utilisation.add(rho[j]);
            nodeMax.add(queues.nodeMax(j));
        }
        return new RunMetrics(
                arrived,
                completed,
                rejected,
                lost,
                duration,
                throughput(duration),
                response.mean(),
                percentiles[0],
                percentiles[1],
                percentiles[2],
                percentiles[3],
                response.max(),
                waiting.mean(),
                queues.windowArea(),
                queues.windowArea() / (duration * nodes),
                queues.maxQueue(),
                queues.clusterMax(),
                decisions,
                decisions == 0 ? Double.NaN : (double) queries / decisions,
                messages.byKind(),
                messages.total(),
                messages.bytes(),
                stateUpdates,
                share,
                utilisation,
                nodeMax,
                JainFairness.of(rho),
                peakShare.peak(warmup, Double.isNaN(lastArrival) ? endTime : lastArrival),
                series.points(endTime, nodes),
                histogram.encode(),
                counters(false),
                new java.util.TreeMap<>(),
                slaBreaches,
                counters(true));
    }

    /**
     * Adds {@code delta} to the protocol counter {@code name} (e.g. "blind_routes"). Not for
     * the per-request hot path of every policy: a map lookup per call.
     *
     * @param now time, seconds
     * @param name counter name, not blank
     * @param delta amount to add
     * @throws IllegalArgumentException if time went back or the name is blank
     */
    public void count(double now, String name, long delta) {
        tick(now);
        long[] c = counts.get(name);
        if (c == null) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("counter name: blank");
            }
            c = new long[1];
            counts.put(name, c);
        }
        c[0] += delta;
    }

    /**
     * Sets the SLA latency: a completed request of the window slower than it counts as an SLA
     * breach ({@link RunMetrics#slaBreaches()}). Call before the first observation.
     *
     * @param seconds the SLA latency, &gt; 0
     * @return this
     * @throws IllegalArgumentException if not positive and finite
     */
    public RunRecorder slaLatency(double seconds) {
        if (!(seconds > 0 && seconds < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("sla latency: " + seconds + "; must be > 0 s");
        }
        this.slaLatency = seconds;
        return this;
    }

    /** The counters (routing modes with their prefix removed, when {@code modes}), sorted by name. */
    private java.util.TreeMap<String, Long> counters(boolean modes) {
        java.util.TreeMap<String, Long> out = new java.util.TreeMap<>();
        for (java.util.Map.Entry<String, long[]> e : counts.entrySet()) {
            boolean mode = e.getKey().startsWith(MODE_PREFIX);
            if (mode == modes) {
                out.put(modes ? e.getKey().substring(MODE_PREFIX.length()) : e.getKey(), e.getValue()[0]);
            }
        }
        return out;
    }

    /**
     * Completions per second while requests were arriving: completions in [warm-up, last
     * arrival] over that span. For a stable system this is λ; a policy that cannot keep up
     * falls below it. Measuring over the arrival window, not the whole run, keeps runs that
     * drain longer from looking slower. Falls back to the whole window when no request
     * arrived after the warm-up.
     */
    private double throughput(double duration) {
        double arrivalWindow = lastArrival - warmup;
        return arrivalWindow > 0 ? completedByLastArrival / arrivalWindow : completedInWindow / duration;
    }

    /** @return allocated time-series capacity, intervals (memory tests) */
    int seriesCapacity() {
        return series.capacity();
    }

    /** @return time-series intervals opened so far (memory tests) */
    int seriesSize() {
        return series.size();
    }

    /** @return estimated memory of the response histogram, bytes (memory tests) */
    int histogramFootprintBytes() {
        return response.histogramFootprintBytes();
    }

    /** @return distinct message kinds held (memory tests) */
    int messageKinds() {
        return messages.kinds();
    }

    private void tick(double now) {
        if (!(now >= lastTime && now < Double.POSITIVE_INFINITY)) {
            timeError(now);
        }
        lastTime = now;
    }

    private void timeError(double now) {
        if (finished) {
            throw new IllegalStateException("this recorder is finished; no more observations");
        }
        throw new IllegalArgumentException("now: " + now + " is before the previous observation at "
                + lastTime + " s (calls must come in non-decreasing time) or not finite");
    }

    private void checkNode(int node) {
        if (node < 0 || node >= nodes) {
            throw new IllegalArgumentException("node: " + node + " is not in [0, " + nodes + ")");
        }
    }

    private static IllegalArgumentException negative(String field, long value) {
        return new IllegalArgumentException(field + ": " + value + "; must be ≥ 0");
    }
}

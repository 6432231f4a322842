package org.loadlab.shell.metrics;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import kamon.Kamon;
import kamon.metric.Instrument;
import kamon.metric.MeasurementUnit;
import kamon.metric.Metric;
import kamon.module.Module;
import kamon.prometheus.PrometheusReporter;
import kamon.tag.TagSet;
import kamon.util.Filter;
import org.loadlab.balancer.autoscale.Autoscaler;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.lints.LinTsControlPlane;
import org.loadlab.kernel.MetricsSink;

/**
 * The autonomous HTTP gateway's metrics ({@code loadlab gateway}, seed 003) as Kamon instruments, rendered by Kamon's
 * Prometheus reporter for the gateway's own {@code GET /metrics} ({@link #scrape()}: no second port). Names follow the
 * reporter's rules (dots become underscores, counters get {@code _total}, time histograms and gauges {@code _seconds});
 * node labels are the seed's {@code Node-k} (1-based, as {@code X-Routed-To}):
 * <table>
 *   <caption>instruments</caption>
 *   <tr><th>name</th><th>kind</th><th>tags</th><th>what</th></tr>
 *   <tr><td>loadlab.gateway.requests</td><td>counter</td><td>endpoint, strategy, status</td><td>answered requests by HTTP status</td></tr>
 *   <tr><td>loadlab.gateway.request.latency</td><td>histogram (time)</td><td>endpoint, strategy</td><td>receipt to answer at the gateway, every status</td></tr>
 *   <tr><td>loadlab.gateway.added.latency</td><td>histogram (time)</td><td>strategy</td><td>what the gateway adds: its latency minus the balancer's decision-to-answer time (requests a node answered)</td></tr>
 *   <tr><td>loadlab.gateway.routing.mode</td><td>counter</td><td>strategy, mode</td><td>answered requests by routing mode ({@code X-Routing-Mode})</td></tr>
 *   <tr><td>loadlab.gateway.shed</td><td>counter</td><td>strategy, endpoint, priority</td><td>requests refused by QoS shedding (429)</td></tr>
 *   <tr><td>loadlab.gateway.control.steps</td><td>counter</td><td></td><td>LinTS control-plane steps (model update and publication)</td></tr>
 *   <tr><td>loadlab.gateway.autoscaler.actions</td><td>counter</td><td>action (scale_up, scale_down)</td><td>autoscaler decisions</td></tr>
 *   <tr><td>loadlab.gateway.events</td><td>counter</td><td>name and one of strategy, node, service</td><td>every other counter of the cores (retries, guardrail masks, node errors, ...)</td></tr>
 *   <tr><td>loadlab.gateway.node.weight</td><td>gauge</td><td>node, profile</td><td>LinTS weight (0 when masked or not a member)</td></tr>
 *   <tr><td>loadlab.gateway.node.mask</td><td>gauge</td><td>node, profile, reason</td><td>1 for the node's current mask reason (none, high_cpu, offline, outlier, other), 0 for the others seen</td></tr>
 *   <tr><td>loadlab.gateway.node.cpu</td><td>gauge</td><td>node, profile</td><td>newest CPU the lin-ts balancer has, percent</td></tr>
 *   <tr><td>loadlab.gateway.node.queue</td><td>gauge</td><td>node, profile</td><td>newest queue depth</td></tr>
 *   <tr><td>loadlab.gateway.node.recent.p99</td><td>gauge (time)</td><td>node, profile</td><td>the control plane's recent p99 of the node</td></tr>
 *   <tr><td>loadlab.gateway.node.member</td><td>gauge</td><td>node, profile</td><td>1 while the node is a member (autoscaled slots are not until started)</td></tr>
 *   <tr><td>loadlab.gateway.nodes.active</td><td>gauge</td><td></td><td>nodes the autoscaler keeps active</td></tr>
 *   <tr><td>loadlab.gateway.circuit.breaker.tripped</td><td>gauge</td><td></td><td>1 while lin-ts's staleness circuit breaker is open</td></tr>
 *   <tr><td>loadlab.gateway.weights.age</td><td>gauge (time)</td><td></td><td>age of the weights the lin-ts balancer uses (absent before the first publication)</td></tr>
 * </table>
 * Kamon is one per JVM: {@link #start} starts it (ticking every {@code loadlab.gateway.metrics.tick-interval}, no
 * modules of its own, so no other port) unless it runs already, and the reporter shows the instruments as of Kamon's
 * last tick. {@link #close} removes the reporter and the instruments, and stops Kamon if a gateway started it, so a
 * later gateway or cluster member in the same JVM starts from zero.
 */
public final class GatewayMetrics implements AutoCloseable {
    /** Where the gateway's settings are ({@code tick-interval}, {@code prometheus}: the reporter's). */
    public static final String CONFIG = "loadlab.gateway.metrics";
    /** The mask reasons of {@code loadlab.gateway.node.mask}. */
    public static final List<String> MASK_REASONS = List.of("none", "high_cpu", "offline", "outlier", "other");

    private static final AtomicLong REPORTERS = new AtomicLong();
    private static int users;
    private static boolean ownsKamon;
    private static final long NANOS = 1_000_000_000L;

    private final PrometheusReporter reporter;
    private final Module.Registration registration;
    private final Duration tick;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConcurrentHashMap<Key, Instrument<?, ?>> instruments = new ConcurrentHashMap<>();

    private final Metric.Counter requests = Kamon.counter("loadlab.gateway.requests", "Gateway requests by endpoint, strategy and HTTP status.");
    private final Metric.Histogram latency = Kamon.histogram("loadlab.gateway.request.latency",
            "Gateway latency, receipt to answer, by endpoint and strategy.", MeasurementUnit.time().nanoseconds());
    private final Metric.Histogram added = Kamon.histogram("loadlab.gateway.added.latency",
            "What the gateway adds: its latency minus the balancer's decision-to-answer time.", MeasurementUnit.time().nanoseconds());
    private final Metric.Counter modes = Kamon.counter("loadlab.gateway.routing.mode", "Answered requests by routing mode (X-Routing-Mode).");
    private final Metric.Counter shed = Kamon.counter("loadlab.gateway.shed", "Requests refused by QoS shedding (429).");
    private final Metric.Counter steps = Kamon.counter("loadlab.gateway.control.steps", "LinTS control-plane steps.");
    private final Metric.Counter scaling = Kamon.counter("loadlab.gateway.autoscaler.actions", "Autoscaler actions.");
    private final Metric.Counter events = Kamon.counter("loadlab.gateway.events", "Other counters of the cores.");
    private final Metric.Gauge weight = Kamon.gauge("loadlab.gateway.node.weight", "LinTS routing weight of each node.");
    private final Metric.Gauge mask = Kamon.gauge("loadlab.gateway.node.mask", "1 for the node's current mask reason.");
    private final Metric.Gauge cpu = Kamon.gauge("loadlab.gateway.node.cpu", "Newest CPU of the node, percent.");
    private final Metric.Gauge queue = Kamon.gauge("loadlab.gateway.node.queue", "Newest queue depth of the node.");
    private final Metric.Gauge p99 = Kamon.gauge("loadlab.gateway.node.recent.p99", "The control plane's recent p99 of the node.",
            MeasurementUnit.time().milliseconds());
    private final Metric.Gauge member = Kamon.gauge("loadlab.gateway.node.member", "1 while the node is a member.");
    private final Metric.Gauge active = Kamon.gauge("loadlab.gateway.nodes.active", "Nodes the autoscaler keeps active.");
    private final Metric.Gauge breaker = Kamon.gauge("loadlab.gateway.circuit.breaker.tripped",
            "1 while lin-ts's staleness circuit breaker is open.");
    private final Metric.Gauge age = Kamon.gauge("loadlab.gateway.weights.age", "Age of the weights the lin-ts balancer uses.",
            MeasurementUnit.time().seconds());
    private final ConcurrentHashMap<Integer, String> maskShown = new ConcurrentHashMap<>();

    private GatewayMetrics(Config config) {
        this.tick = config.getDuration(CONFIG + ".tick-interval");
        acquireKamon(config, tick);
        this.reporter = new PrometheusReporter(CONFIG + ".prometheus", config);
        this.registration = Kamon.addReporter("loadlab-gateway-" + REPORTERS.incrementAndGet(), reporter,
                Filter.fromRegex("loadlab\\.gateway\\..*"));
    }

    /**
     * Starts Kamon for the gateways of this JVM unless it runs already (a cluster member in the same JVM started it: then
     * its tick interval stays): its ticks at {@code tick}, none of the modules of {@code kamon.modules} (the gateway's
     * reporter is added by hand, and no other port is opened).
     */
    private static synchronized void acquireKamon(Config config, Duration tick) {
        if (users == 0 && !KamonMetrics.started()) {
            StringBuilder own = new StringBuilder("kamon.metric.tick-interval = " + tick.toMillis() + "ms\n");
            config.getConfig("kamon.modules").root().keySet().forEach(m -> own.append("kamon.modules.\"").append(m)
                    .append("\".enabled = no\n"));
            KamonMetrics.start(ConfigFactory.parseString(own.toString()).withFallback(config), false);
            ownsKamon = true;
        }
        users++;
    }

    /** Stops Kamon when the last gateway that started it closes. */
    private static synchronized void releaseKamon() {
        users--;
        if (users == 0 && ownsKamon) {
            ownsKamon = false;
            KamonMetrics.stop();
        }
    }

    /**
     * Registers a Prometheus reporter for the gateway's instruments with Kamon, starting Kamon first unless it runs
     * already (Kamon is one per JVM, see the class comment).
     *
     * @param config a config with {@value #CONFIG} (shell's reference.conf has the defaults)
     * @throws com.typesafe.config.ConfigException if the settings are missing or malformed
     */
    public static GatewayMetrics start(Config config) {
        return new GatewayMetrics(config);
    }

    /** How often Kamon snapshots the instruments; the gauges should be sampled as often. */
    public Duration tickInterval() {
        return tick;
    }

    /** The Prometheus text exposition of the gateway's instruments as of Kamon's last tick (empty once closed). */
    public String scrape() {
        return closed.get() ? "" : reporter.scrapeData();
    }

    private record Key(String metric, TagSet tags) {
    }

    /** The instrument of {@code metric} with {@code tags}, kept so that {@link #close} can remove it. */
    @SuppressWarnings("unchecked")
    private <I extends Instrument<I, S>, S extends Metric.Settings> I instrument(Metric<I, S> metric, TagSet tags) {
        return (I) instruments.computeIfAbsent(new Key(metric.name(), tags), k -> metric.withTags(tags));
    }

    /**
     * Records one answered gateway request.
     *
     * @param endpoint the endpoint, e.g. {@code /auth}
     * @param priority its priority's name (high, medium, low)
     * @param strategy the seed's name of the strategy that routed it
     * @param status the HTTP status answered
     * @param mode its routing mode ({@code X-Routing-Mode})
     * @param seconds receipt to answer at the gateway, s
     * @param backendSeconds the balancer's decision to answer, s (NaN when no node answered)
     */
    public void answered(String endpoint, String priority, String strategy, int status, String mode, double seconds,
                         double backendSeconds) {
        if (closed.get()) {
            return;
        }
        instrument(requests, TagSet.builder().add("endpoint", endpoint).add("strategy", strategy)
                .add("status", String.valueOf(status)).build()).increment();
        instrument(latency, TagSet.builder().add("endpoint", endpoint).add("strategy", strategy).build())
                .record(Math.max(0L, (long) (seconds * NANOS)));
        instrument(modes, TagSet.builder().add("strategy", strategy).add("mode", mode).build()).increment();
        if (!Double.isNaN(backendSeconds)) {
            instrument(added, TagSet.of("strategy", strategy)).record(Math.max(0L, (long) ((seconds - backendSeconds) * NANOS)));
        }
        if (status == 429) {
            instrument(shed, TagSet.builder().add("strategy", strategy).add("endpoint", endpoint).add("priority", priority).build())
                    .increment();
        }
    }

    /**
     * The observation sink of one of the gateway's actors: its cores' counters become {@code loadlab.gateway.control.steps},
     * {@code loadlab.gateway.autoscaler.actions} or {@code loadlab.gateway.events} tagged {@code key=value} (routing-mode
     * counters are left out: {@link #answered} counts each request's mode). Thread-safe.
     *
     * @param key the tag naming the actor: {@code strategy} (a balancer), {@code node} or {@code service}
     * @param value its value, e.g. {@code lin_ts}, {@code Node-3}, {@code autoscaler}
     */
    public MetricsSink sink(String key, String value) {
        TagSet who = TagSet.of(key, value);
        return new MetricsSink() {
            @Override
            public void count(double now, String name, long delta) {
                if (closed.get() || name.startsWith(BalancerLogic.MODE_PREFIX)) {
                    return;
                }
                switch (name) {
                    case LinTsControlPlane.UPDATES -> instrument(steps, TagSet.Empty()).increment(delta);
                    case Autoscaler.SCALE_UPS -> instrument(scaling, TagSet.of("action", "scale_up")).increment(delta);
                    case Autoscaler.SCALE_DOWNS -> instrument(scaling, TagSet.of("action", "scale_down")).increment(delta);
                    default -> instrument(events, who.withTag("name", name)).increment(delta);
                }
            }
        };
    }

    /**
     * Sets one node's gauges.
     *
     * @param node index (labelled {@code Node-(node+1)})
     * @param profile its profile's name
     * @param weightNow its LinTS weight
     * @param maskReason why a guardrail masks it (the balancer's explanation), or null when it is not masked
     * @param cpuPercent newest CPU, percent (NaN unknown: left as it was)
     * @param queueDepth newest queue depth (negative unknown: left as it was)
     * @param recentP99Ms the control plane's recent p99, ms (NaN unknown: left as it was)
     * @param isMember whether it is a member now
     */
    public void node(int node, String profile, double weightNow, String maskReason, double cpuPercent, int queueDepth,
                     double recentP99Ms, boolean isMember) {
        if (closed.get()) {
            return;
        }
        TagSet tags = TagSet.builder().add("node", "Node-" + (node + 1)).add("profile", profile).build();
        instrument(weight, tags).update(weightNow);
        instrument(member, tags).update(isMember ? 1 : 0);
        if (!Double.isNaN(cpuPercent)) {
            instrument(cpu, tags).update(cpuPercent);
        }
        if (queueDepth >= 0) {
            instrument(queue, tags).update(queueDepth);
        }
        if (!Double.isNaN(recentP99Ms)) {
            instrument(p99, tags).update(recentP99Ms);
        }
        String reason = maskReason(maskReason);
        String before = maskShown.put(node, reason);
        if (before != null && !before.equals(reason)) {
            instrument(mask, tags.withTag("reason", before)).update(0);
        }
        instrument(mask, tags.withTag("reason", reason)).update(1);
    }

    /**
     * The reason label of a balancer's mask explanation (e.g. {@code "cpu 0.97 > 0.85"} is {@code high_cpu}), one of
     * {@link #MASK_REASONS}: the explanation itself carries numbers, which would make a label per value.
     */
    public static String maskReason(String explanation) {
        if (explanation == null) {
            return "none";
        }
        String e = explanation.toLowerCase(Locale.ROOT);
        return e.startsWith("cpu") ? "high_cpu" : e.startsWith("offline") ? "offline" : e.startsWith("outlier") ? "outlier" : "other";
    }

    /**
     * Sets lin-ts's breaker and weights' age.
     *
     * @param tripped whether the staleness circuit breaker is open
     * @param weightsAgeSeconds age of the weights, s (NaN before the first publication: left unset)
     */
    public void linTs(boolean tripped, double weightsAgeSeconds) {
        if (closed.get()) {
            return;
        }
        instrument(breaker, TagSet.Empty()).update(tripped ? 1 : 0);
        if (!Double.isNaN(weightsAgeSeconds)) {
            instrument(age, TagSet.Empty()).update(weightsAgeSeconds);
        }
    }

    /** Sets the number of nodes the autoscaler keeps active. */
    public void activeNodes(int nodes) {
        if (closed.get()) {
            return;
        }
        instrument(active, TagSet.Empty()).update(nodes);
    }

    /** Removes the reporter from Kamon and the instruments from its registry; later records are dropped (idempotent). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            registration.cancel();
            instruments.values().forEach(Instrument::remove);
            instruments.clear();
            releaseKamon();
        }
    }
}

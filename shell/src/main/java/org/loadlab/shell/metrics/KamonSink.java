package org.loadlab.shell.metrics;

import java.util.HashMap;
import java.util.Map;
import kamon.Kamon;
import kamon.metric.Counter;
import kamon.metric.Gauge;
import kamon.metric.Histogram;
import kamon.metric.MeasurementUnit;
import kamon.tag.TagSet;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.observe.ForwardingSink;

/**
 * A stage of one experiment's sink chain on one member: turns its observations into Kamon instruments (exported by the
 * Prometheus reporter; names with dots become underscores, counters get {@code _total},
 * time histograms {@code _seconds}):
 * <table>
 *   <caption>instruments</caption>
 *   <tr><th>name</th><th>kind</th><th>tags</th><th>what</th></tr>
 *   <tr><td>loadlab.request.latency</td><td>histogram (time)</td><td>experiment</td><td>response time of completed requests (scenario time)</td></tr>
 *   <tr><td>loadlab.routing.decision.latency</td><td>histogram (time)</td><td>experiment</td><td>arrival at the balancer → routing decision (real time)</td></tr>
 *   <tr><td>loadlab.node.queue</td><td>gauge</td><td>experiment, node</td><td>q_j, requests waiting + in service</td></tr>
 *   <tr><td>loadlab.node.busy</td><td>gauge</td><td>experiment, node</td><td>busy servers</td></tr>
 *   <tr><td>loadlab.requests.arrived</td><td>counter</td><td>experiment, balancer</td><td>requests that reached a balancer</td></tr>
 *   <tr><td>loadlab.requests.completed</td><td>counter</td><td>experiment, node</td><td>requests served</td></tr>
 *   <tr><td>loadlab.requests.rejected</td><td>counter</td><td>experiment</td><td>rejections (policy, full queue, no probe reply, chaos errors)</td></tr>
 *   <tr><td>loadlab.requests.lost</td><td>counter</td><td>experiment, node</td><td>requests lost at failed or removed nodes</td></tr>
 *   <tr><td>loadlab.decisions</td><td>counter</td><td>experiment, balancer</td><td>routing decisions</td></tr>
 *   <tr><td>loadlab.decision.queries</td><td>counter</td><td>experiment, balancer</td><td>nodes read per decision, summed</td></tr>
 *   <tr><td>loadlab.probes</td><td>counter</td><td>experiment</td><td>Probe messages sent</td></tr>
 *   <tr><td>loadlab.state.updates</td><td>counter</td><td>experiment</td><td>load reports delivered</td></tr>
 *   <tr><td>loadlab.messages</td><td>counter</td><td>experiment, kind</td><td>protocol messages sent</td></tr>
 *   <tr><td>loadlab.events</td><td>counter</td><td>experiment, name</td><td>protocol counters (chaos_errors, policy_switches, ...)</td></tr>
 * </table>
 */
public final class KamonSink extends ForwardingSink {
    private static final long NANOS = 1_000_000_000L;

    private final TagSet tags;
    private final double timeScale;
    private final Histogram latency;
    private final Histogram decisionLatency;
    private final Counter rejected;
    private final Counter probes;
    private final Counter stateUpdates;
    private final Map<Integer, Gauge> queue = new HashMap<>();
    private final Map<Integer, Gauge> busy = new HashMap<>();
    private final Map<Integer, Counter> arrived = new HashMap<>();
    private final Map<Integer, Counter> completed = new HashMap<>();
    private final Map<Integer, Counter> lost = new HashMap<>();
    private final Map<Integer, Counter> decisions = new HashMap<>();
    private final Map<Integer, Counter> queries = new HashMap<>();
    private final Map<String, Counter> messages = new HashMap<>();
    private final Map<String, Counter> events = new HashMap<>();

    /**
     * @param experiment the experiment id (tag {@code experiment})
     * @param timeScale scenario seconds per real second (decision latencies are reported in real time)
     * @param next where every observation goes on
     */
    public KamonSink(String experiment, double timeScale, MetricsSink next) {
        super(next);
        this.timeScale = timeScale;
        this.tags = TagSet.of("experiment", experiment);
        MeasurementUnit nanos = MeasurementUnit.time().nanoseconds();
        this.latency = Kamon.histogram("loadlab.request.latency", "response time of completed requests", nanos).withTags(tags);
        this.decisionLatency = Kamon.histogram("loadlab.routing.decision.latency",
                "arrival at the balancer to routing decision", nanos).withTags(tags);
        this.rejected = Kamon.counter("loadlab.requests.rejected").withTags(tags);
        this.probes = Kamon.counter("loadlab.probes").withTags(tags);
        this.stateUpdates = Kamon.counter("loadlab.state.updates").withTags(tags);
    }

    private TagSet with(String key, long value) {
        return tags.withTag(key, value);
    }

    private Counter counter(Map<Integer, Counter> cache, String name, String key, int index) {
        return cache.computeIfAbsent(index, i -> Kamon.counter(name).withTags(with(key, i)));
    }

    private Gauge gauge(Map<Integer, Gauge> cache, String name, int node) {
        return cache.computeIfAbsent(node, i -> Kamon.gauge(name).withTags(with("node", i)));
    }

    @Override
    public synchronized void arrived(double now, int balancer) {
        counter(arrived, "loadlab.requests.arrived", "balancer", balancer).increment();
        super.arrived(now, balancer);
    }

    @Override
    public synchronized void decision(double now, int balancer, int nodesRead) {
        counter(decisions, "loadlab.decisions", "balancer", balancer).increment();
        if (nodesRead > 0) {
            counter(queries, "loadlab.decision.queries", "balancer", balancer).increment(nodesRead);
        }
        super.decision(now, balancer, nodesRead);
    }

    @Override
    public synchronized void rejected(double now, double arrivalTime) {
        rejected.increment();
        super.rejected(now, arrivalTime);
    }

    @Override
    public synchronized void completed(double now, double arrivalTime, int node) {
        counter(completed, "loadlab.requests.completed", "node", node).increment();
        latency.record(Math.max(0L, (long) ((now - arrivalTime) * NANOS)));
        super.completed(now, arrivalTime, node);
    }

    @Override
    public synchronized void lost(double now, int node, int count) {
        counter(lost, "loadlab.requests.lost", "node", node).increment(count);
        super.lost(now, node, count);
    }

    @Override
    public synchronized void queueLength(double now, int node, int queueLength) {
        gauge(queue, "loadlab.node.queue", node).update(queueLength);
        super.queueLength(now, node, queueLength);
    }

    @Override
    public synchronized void busyServers(double now, int node, int busyServers, int servers) {
        gauge(busy, "loadlab.node.busy", node).update(busyServers);
        super.busyServers(now, node, busyServers, servers);
    }

    @Override
    public synchronized void stateUpdate(double now, int node, int receivers) {
        stateUpdates.increment(receivers);
        super.stateUpdate(now, node, receivers);
    }

    @Override
    public synchronized void count(double now, String name, long delta) {
        events.computeIfAbsent(name, n -> Kamon.counter("loadlab.events").withTags(tags.withTag("name", n))).increment(delta);
        super.count(now, name, delta);
    }

    @Override
    public synchronized void messageSent(double now, String kind, int bytes) {
        countMessage(kind);
        super.messageSent(now, kind, bytes);
    }

    @Override
    public synchronized void messageSent(double now, org.loadlab.kernel.Message message) {
        countMessage(org.loadlab.kernel.MessageKinds.of(message));
        super.messageSent(now, message);
    }

    private void countMessage(String kind) {
        if (kind.equals("Probe")) {
            probes.increment();
        }
        messages.computeIfAbsent(kind, k -> Kamon.counter("loadlab.messages").withTags(tags.withTag("kind", k))).increment();
    }

    @Override
    public synchronized void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
        decisionLatency.record(Math.max(0L, (long) ((now - decisionStart) / timeScale * NANOS)));
        super.routed(now, balancer, node, decisionStart, arrivalTime);
    }
}

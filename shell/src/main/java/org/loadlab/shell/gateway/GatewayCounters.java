package org.loadlab.shell.gateway;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.loadlab.kernel.MetricsSink;

/**
 * The gateway stack's observation sink: the cores' counters (routing modes, shedding,
 * retries, control steps, autoscaler actions, node errors) and request counts, thread-safe,
 * for GET /metrics. Cheap enough for every actor's hot path (one hash lookup and an adder).
 */
public final class GatewayCounters implements MetricsSink {
    private final ConcurrentHashMap<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final LongAdder arrived = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder lost = new LongAdder();

    @Override
    public void arrived(double now, int balancer) {
        arrived.increment();
    }

    @Override
    public void completed(double now, double arrivalTime, int node) {
        completed.increment();
    }

    @Override
    public void rejected(double now, double arrivalTime) {
        rejected.increment();
    }

    @Override
    public void lost(double now, int node, int count) {
        lost.add(count);
    }

    @Override
    public void count(double now, String name, long delta) {
        counters.computeIfAbsent(name, k -> new LongAdder()).add(delta);
    }

    /** Every counter now, sorted by name. */
    public Map<String, Long> counters() {
        TreeMap<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Requests that reached a balancer. */
    public long arrived() {
        return arrived.sum();
    }

    /** Requests served (HTTP 200). */
    public long completed() {
        return completed.sum();
    }

    /** Requests refused or failed (shed 429, node 500, 503). */
    public long rejected() {
        return rejected.sum();
    }

    /** Requests lost at failed nodes. */
    public long lost() {
        return lost.sum();
    }
}

package org.loadlab.runtime.live;

import org.loadlab.node.kernel.Message;
import org.loadlab.node.kernel.MetricsSink;

/**
 * Makes a {@link MetricsSink} safe for actors on several threads: calls are serialised
 * and their times clamped to be non-decreasing (two actors may read the clock in one
 * order and report in the other; the recorder integrates over time and needs order).
 */
final class SynchronizedSink implements MetricsSink {
    private final MetricsSink delegate;
    private double last;
    private long messages;

    SynchronizedSink(MetricsSink delegate) {
        this.delegate = delegate;
    }

    private double clamp(double now) {
        if (now > last) {
            last = now;
        }
        return last;
    }

    @Override
    public synchronized void arrived(double now, int balancer) {
        delegate.arrived(clamp(now), balancer);
    }

    @Override
    public synchronized void decision(double now, int balancer, int queries) {
        delegate.decision(clamp(now), balancer, queries);
    }

    @Override
    public synchronized void rejected(double now, double arrivalTime) {
        delegate.rejected(clamp(now), arrivalTime);
    }

    @Override
    public synchronized void completed(double now, double arrivalTime, int node) {
        delegate.completed(clamp(now), arrivalTime, node);
    }

    @Override
    public synchronized void serviceStarted(double now, int node, double waitSeconds) {
        delegate.serviceStarted(clamp(now), node, waitSeconds);
    }

    @Override
    public synchronized void lost(double now, int node, int count) {
        delegate.lost(clamp(now), node, count);
    }

    @Override
    public synchronized void queueLength(double now, int node, int queueLength) {
        delegate.queueLength(clamp(now), node, queueLength);
    }

    @Override
    public synchronized void busyServers(double now, int node, int busy, int servers) {
        delegate.busyServers(clamp(now), node, busy, servers);
    }

    @Override
    public synchronized void stateUpdate(double now, int node, int receivers) {
        delegate.stateUpdate(clamp(now), node, receivers);
    }

    @Override
    public synchronized void messageSent(double now, Message message) {
        messages++;
        delegate.messageSent(clamp(now), message);
    }

    /** Messages sent so far (call under the lock, e.g. through {@link #read}). */
    long messages() {
        return messages;
    }

    /** Runs {@code read} under the sink's lock (to read counters the actors update). */
    synchronized long read(java.util.function.LongSupplier read) {
        return read.getAsLong();
    }
}

package org.loadlab.shell.live;

import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;

/**
 * Makes a {@link MetricsSink} safe for actors on several threads: calls are serialised
 * and their times clamped to be non-decreasing (two actors may read the clock in one
 * order and report in the other; the recorder integrates over time and needs order).
 * After {@link #close} observations are dropped: actors still winding down must not
 * touch a finished recorder.
 */
final class SynchronizedSink implements MetricsSink {
    private final MetricsSink delegate;
    private double last;
    private long messages;
    private boolean closed;

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
        if (closed) {
            return;
        }
        delegate.arrived(clamp(now), balancer);
    }

    @Override
    public synchronized void decision(double now, int balancer, int queries) {
        if (closed) {
            return;
        }
        delegate.decision(clamp(now), balancer, queries);
    }

    @Override
    public synchronized void rejected(double now, double arrivalTime) {
        if (closed) {
            return;
        }
        delegate.rejected(clamp(now), arrivalTime);
    }

    @Override
    public synchronized void completed(double now, double arrivalTime, int node) {
        if (closed) {
            return;
        }
        delegate.completed(clamp(now), arrivalTime, node);
    }

    @Override
    public synchronized void serviceStarted(double now, int node, double waitSeconds) {
        if (closed) {
            return;
        }
        delegate.serviceStarted(clamp(now), node, waitSeconds);
    }

    @Override
    public synchronized void lost(double now, int node, int count) {
        if (closed) {
            return;
        }
        delegate.lost(clamp(now), node, count);
    }

    @Override
    public synchronized void queueLength(double now, int node, int queueLength) {
        if (closed) {
            return;
        }
        delegate.queueLength(clamp(now), node, queueLength);
    }

    @Override
    public synchronized void busyServers(double now, int node, int busy, int servers) {
        if (closed) {
            return;
        }
        delegate.busyServers(clamp(now), node, busy, servers);
    }

    @Override
    public synchronized void stateUpdate(double now, int node, int receivers) {
        if (closed) {
            return;
        }
        delegate.stateUpdate(clamp(now), node, receivers);
    }

    @Override
    public synchronized void count(double now, String name, long delta) {
        if (closed) {
            return;
        }
        delegate.count(clamp(now), name, delta);
    }

    @Override
    public synchronized void messageSent(double now, Message message) {
        if (closed) {
            return;
        }
        messages++;
        delegate.messageSent(clamp(now), message);
    }

    /** Drops every later observation (the recorder is about to be finished). */
    synchronized void close() {
        closed = true;
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

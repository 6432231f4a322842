package org.loadlab.kernel.observe;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.kernel.MetricsSink;

/**
 * A sink that records every observation as an {@link Observation} record, for a shell that
 * ships them elsewhere (a cluster member to its gateway). Thread-safe: the actors of one
 * member share it. Taken out in chunks of a bounded size ({@link #drain(int)}), so no
 * message outgrows the transport's frame.
 */
public final class ObservationLog implements MetricsSink {
    private List<Observation> records = new ArrayList<>();
    private boolean closed;
    private long recorded;
    private long droppedAfterClose;

    private synchronized void add(Observation o) {
        if (closed) {
            droppedAfterClose++;
            return;
        }
        records.add(o);
        recorded++;
    }

    /**
     * Takes up to {@code max} records, oldest first.
     *
     * @param max largest chunk, ≥ 1
     * @return the records, empty if none
     */
    public synchronized List<Observation> drain(int max) {
        if (records.isEmpty()) {
            return List.of();
        }
        if (records.size() <= max) {
            List<Observation> out = records;
            records = new ArrayList<>();
            return out;
        }
        List<Observation> out = new ArrayList<>(records.subList(0, max));
        records = new ArrayList<>(records.subList(max, records.size()));
        return out;
    }

    /** Records waiting to be drained. */
    public synchronized int size() {
        return records.size();
    }

    /** Records made since the start. */
    public synchronized long recorded() {
        return recorded;
    }

    /** Observations refused because they came after {@link #close()}. */
    public synchronized long droppedAfterClose() {
        return droppedAfterClose;
    }

    /** Refuses every later observation (the actors are stopping); they are counted. */
    public synchronized void close() {
        closed = true;
    }

    @Override
    public void arrived(double now, int balancer) {
        add(new Observation.Arrived(now, balancer));
    }

    @Override
    public void decision(double now, int balancer, int queries) {
        add(new Observation.Decided(now, balancer, queries));
    }

    @Override
    public void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
        add(new Observation.Routed(now, balancer, node, decisionStart, arrivalTime));
    }

    @Override
    public void rejected(double now, double arrivalTime) {
        add(new Observation.Rejected(now, arrivalTime));
    }

    @Override
    public void completed(double now, double arrivalTime, int node) {
        add(new Observation.Completed(now, arrivalTime, node));
    }

    @Override
    public void serviceStarted(double now, int node, double waitSeconds) {
        add(new Observation.ServiceStarted(now, node, waitSeconds));
    }

    @Override
    public void lost(double now, int node, int count) {
        add(new Observation.Lost(now, node, count));
    }

    @Override
    public void queueLength(double now, int node, int queueLength) {
        add(new Observation.QueueLength(now, node, queueLength));
    }

    @Override
    public void busyServers(double now, int node, int busy, int servers) {
        add(new Observation.BusyServers(now, node, busy, servers));
    }

    @Override
    public void stateUpdate(double now, int node, int receivers) {
        add(new Observation.StateUpdate(now, node, receivers));
    }

    @Override
    public void count(double now, String name, long delta) {
        add(new Observation.Counted(now, name, delta));
    }

    @Override
    public void messageSent(double now, String kind, int bytes) {
        add(new Observation.MessageSent(now, kind, bytes));
    }
}

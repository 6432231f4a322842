package org.loadlab.kernel.observe;

import org.loadlab.kernel.MetricsSink;

/**
 * The one place that counts requests: arrived, completed, rejected and lost, as they pass
 * through a sink chain. Every shell puts one in front of its recorder and asks it whether a
 * run is over ({@link #resolved()} against the driver's arrivals) and whether the books
 * balance at the end. Not thread-safe: a shell that observes from several threads puts a
 * lock in front of it.
 */
public final class RequestLedger extends ForwardingSink {
    private long arrived;
    private long completed;
    private long rejected;
    private long lost;

    /** @param next where every observation goes on to */
    public RequestLedger(MetricsSink next) {
        super(next);
    }

    @Override
    public void arrived(double now, int balancer) {
        arrived++;
        super.arrived(now, balancer);
    }

    @Override
    public void rejected(double now, double arrivalTime) {
        rejected++;
        super.rejected(now, arrivalTime);
    }

    @Override
    public void completed(double now, double arrivalTime, int node) {
        completed++;
        super.completed(now, arrivalTime, node);
    }

    @Override
    public void lost(double now, int node, int count) {
        lost += count;
        super.lost(now, node, count);
    }

    /** Requests that arrived at a balancer (or, in a load-sharing run, at a node). */
    public long arrived() {
        return arrived;
    }

    /** Requests completed. */
    public long completed() {
        return completed;
    }

    /** Requests rejected. */
    public long rejected() {
        return rejected;
    }

    /** Requests lost. */
    public long lost() {
        return lost;
    }

    /** Requests whose fate is known: completed, rejected or lost. */
    public long resolved() {
        return completed + rejected + lost;
    }
}

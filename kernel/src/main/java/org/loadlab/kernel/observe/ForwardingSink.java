package org.loadlab.kernel.observe;

import org.loadlab.kernel.MetricsSink;

/**
 * A stage of a sink chain: forwards every observation to the next sink. Subclasses
 * override what they act on and call {@code super} to pass it on, so no stage has to
 * forward each call by hand.
 */
public class ForwardingSink implements MetricsSink {
    private final MetricsSink next;

    /** @param next where every observation goes on to */
    public ForwardingSink(MetricsSink next) {
        this.next = next;
    }

    /** The next stage. */
    public MetricsSink next() {
        return next;
    }

    @Override
    public void arrived(double now, int balancer) {
        next.arrived(now, balancer);
    }

    @Override
    public void decision(double now, int balancer, int queries) {
        next.decision(now, balancer, queries);
    }

    @Override
    public void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
        next.routed(now, balancer, node, decisionStart, arrivalTime);
    }

    @Override
    public void rejected(double now, double arrivalTime) {
        next.rejected(now, arrivalTime);
    }

    @Override
    public void completed(double now, double arrivalTime, int node) {
        next.completed(now, arrivalTime, node);
    }

    @Override
    public void serviceStarted(double now, int node, double waitSeconds) {
        next.serviceStarted(now, node, waitSeconds);
    }

    @Override
    public void lost(double now, int node, int count) {
        next.lost(now, node, count);
    }

    @Override
    public void queueLength(double now, int node, int queueLength) {
        next.queueLength(now, node, queueLength);
    }

    @Override
    public void busyServers(double now, int node, int busy, int servers) {
        next.busyServers(now, node, busy, servers);
    }

    @Override
    public void stateUpdate(double now, int node, int receivers) {
        next.stateUpdate(now, node, receivers);
    }

    @Override
    public void count(double now, String name, long delta) {
        next.count(now, name, delta);
    }

    @Override
    public void messageSent(double now, org.loadlab.kernel.Message message) {
        next.messageSent(now, message); // passed on whole: the last stage may count by class without a name lookup
    }

    @Override
    public void messageSent(double now, String kind, int bytes) {
        next.messageSent(now, kind, bytes);
    }
}

package org.loadlab.kernel;

/**
 * Observations leaving the protocol cores (the "Observe" effect of DESIGN.md). The
 * simulation shell feeds an in-memory run recorder; the Pekko shells feed the same
 * recorder and Kamon. All times are in seconds on the participant's clock.
 *
 * <p>Implementations must be cheap: they sit on the simulation's hot path.
 */
public interface MetricsSink {
    /** A sink that drops everything. */
    MetricsSink NONE = new MetricsSink() {
    };

    /** A new request arrived at a balancer (from the workload driver). */
    default void arrived(double now, int balancer) {
    }

    /**
     * A balancer routed (or rejected) a request after reading the load of {@code queries}
     * nodes (probe replies, cache reads or oracle reads).
     */
    default void decision(double now, int balancer, int queries) {
    }

    /**
     * A balancer routed a request to {@code node}.
     *
     * @param now time of the routing, seconds
     * @param decisionStart when the balancer started deciding (received the request), seconds
     * @param arrivalTime when the request entered the system, seconds
     */
    default void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
    }

    /** A request was rejected (by a policy threshold, a full queue or no probe reply). */
    default void rejected(double now, double arrivalTime) {
    }

    /**
     * A response reached its balancer: response (sojourn) time is {@code now - arrivalTime}.
     *
     * @param node index of the node that served the request
     */
    default void completed(double now, double arrivalTime, int node) {
    }

    /** A request entered service at {@code node} after waiting {@code waitSeconds} in its queue. */
    default void serviceStarted(double now, int node, double waitSeconds) {
    }

    /** {@code count} requests were lost at {@code node} (failure while queued, in service or in flight). */
    default void lost(double now, int node, int count) {
    }

    /** Queue length q_j of {@code node} (waiting + in service) changed to {@code queueLength}. */
    default void queueLength(double now, int node, int queueLength) {
    }

    /** The number of busy servers at {@code node} changed to {@code busy} of {@code servers}. */
    default void busyServers(double now, int node, int busy, int servers) {
    }

    /** {@code node} pushed a state update (LoadReport) to {@code receivers} balancers. */
    default void stateUpdate(double now, int node, int receivers) {
    }

    /**
     * Adds {@code delta} to a protocol-specific counter (e.g. Sticky-Lazy's "blind_routes",
     * load sharing's "transfers"), reported per run under {@code counters}.
     */
    default void count(double now, String name, long delta) {
    }

    /**
     * A message left its sender (counted by the shell): by default recorded as its class's
     * simple name and estimated size through {@link #messageSent(double, String, int)}.
     */
    default void messageSent(double now, Message message) {
        messageSent(now, MessageKinds.of(message), message.estimatedBytes());
    }

    /**
     * A message of kind {@code kind} (its class's simple name) and about {@code bytes} on the
     * wire left its sender.
     */
    default void messageSent(double now, String kind, int bytes) {
    }
}

package org.loadlab.node.protocol;

/**
 * The outcome of one attempt at a request, with the HTTP status a gateway would answer.
 * Nodes answer {@link #OK}, {@link #ERROR} (the node failed the request: its error rate, a
 * chaos {@code error-rate} fault) or {@link #OVERLOADED} (its queue is full: it sheds the
 * request at once). The balancer itself ends a request with {@link #UNAVAILABLE} (no node,
 * a retry refused by the retry budget) or {@link #TIMEOUT} (its last attempt exceeded the
 * per-try timeout) or {@link #REQUEST_TIMEOUT} (the request had no response within the
 * balancer's request timeout, {@code balancers.request-timeout}: Envoy's route timeout, gRPC's
 * deadline), and {@link #RESET} stands for an attempt whose node was removed while the request
 * was in flight.
 *
 * <p>Source: Envoy's retry conditions ({@code 5xx}, {@code reset}, {@code retriable-4xx},
 * per-try timeout) and its local replies (503 no healthy upstream / overflow, 504 timeout);
 * seed 003 (HTTP 500 errors, 429 shedding, 503 after the failover retry).
 */
public enum ResponseStatus {
    /** Served (HTTP 200). */
    OK(200),
    /** The node answered with an error (HTTP 500). */
    ERROR(500),
    /** The node shed the request because its queue was full (HTTP 429 Too Many Requests). */
    OVERLOADED(429),
    /** The balancer had no node for it, or its retry budget refused the retry (HTTP 503). */
    UNAVAILABLE(503),
    /** The attempt exceeded the per-try timeout (HTTP 504). */
    TIMEOUT(504),
    /** The attempt's node was removed from the cluster while the request was in flight (a reset stream). */
    RESET(503),
    /**
     * The request had no response within the balancer's request timeout (HTTP 504, Envoy's
     * "upstream request timeout"; gRPC's DEADLINE_EXCEEDED).
     */
    REQUEST_TIMEOUT(504);

    private final int code;

    ResponseStatus(int code) {
        this.code = code;
    }

    /** The HTTP status code a gateway answers with. */
    public int code() {
        return code;
    }

    /** True for {@link #OK}. */
    public boolean served() {
        return this == OK;
    }

    /**
     * True for the statuses Envoy's outlier detection counts as a failure of the node
     * (5xx, timeouts and resets; a 429 is the node protecting itself and counts as a success).
     */
    public boolean nodeFailure() {
        return this == ERROR || this == UNAVAILABLE || this == TIMEOUT || this == RESET || this == REQUEST_TIMEOUT;
    }
}

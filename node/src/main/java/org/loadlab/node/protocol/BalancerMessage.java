package org.loadlab.node.protocol;

import org.loadlab.kernel.Message;

/**
 * Messages a balancer (frontend) accepts: new requests from the workload driver, probe
 * replies, load reports and heartbeats from nodes, responses of served requests, membership
 * news (from the cluster shell's Pekko membership, or from a simulated scenario's events),
 * and its own timers.
 *
 * <p>Source: DESIGN.md ("balancers sample k peers by message"), SPEC.md §2.
 */
public sealed interface BalancerMessage extends Message {

    /**
     * A new request from the workload driver, to be routed.
     *
     * @param id request id, unique within a run
     * @param demand service demand D in work units
     * @param arrivalTime time the request entered the system, seconds
     * @param key the request's affinity key (a user, session or object id the hashing
     *     policies map to a node), ≥ 0, or {@link #NO_KEY}
     * @param endpoint index of the request's endpoint in {@link Endpoints} (its path and
     *     priority, seed 003), or {@link #NO_ENDPOINT}
     */
    record Arrival(long id, double demand, double arrivalTime, long key, int endpoint) implements BalancerMessage {
        /** {@link #key} of a request that carries none. */
        public static final long NO_KEY = -1;
        /** {@link #endpoint} of a request that names none. */
        public static final int NO_ENDPOINT = -1;

        /** A request without an affinity key. */
        public Arrival(long id, double demand, double arrivalTime) {
            this(id, demand, arrivalTime, NO_KEY, NO_ENDPOINT);
        }

        /** A request without an endpoint. */
        public Arrival(long id, double demand, double arrivalTime, long key) {
            this(id, demand, arrivalTime, key, NO_ENDPOINT);
        }

        /** True if the request carries an affinity key. */
        public boolean hasKey() {
            return key >= 0;
        }

        /** The request's priority ({@link Endpoints#HIGH} .. {@link Endpoints#LOW}), HIGH when it names no endpoint. */
        public int priority() {
            return endpoint < 0 ? Endpoints.HIGH : Endpoints.priority(endpoint);
        }

        @Override
        public int estimatedBytes() {
            return (key >= 0 ? 40 : 32) + (endpoint >= 0 ? 4 : 0);
        }
    }

    /**
     * A node's answer to a {@link NodeMessage.Probe}.
     *
     * @param probeId the probe's id
     * @param load the node's state when it answered
     */
    record ProbeReply(long probeId, LoadSnapshot load) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 80;
        }
    }

    /**
     * A node's periodic state push (cached information model).
     *
     * @param load the node's state when the report was taken
     */
    record LoadReport(LoadSnapshot load) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 80;
        }
    }

    /**
     * The outcome of a routed request.
     *
     * @param id request id
     * @param node index of the node that handled it
     * @param arrivalTime the request's arrival time, seconds
     * @param status {@link ResponseStatus#OK} if served; {@link ResponseStatus#ERROR} if the node
     *     failed it; {@link ResponseStatus#OVERLOADED} if its queue was full
     * @param routedAt the {@link NodeMessage.Request#routedAt()} the node received, echoed
     *     (NaN when the balancer does not measure latency)
     */
    record Response(long id, int node, double arrivalTime, ResponseStatus status, double routedAt)
            implements BalancerMessage {
        /** Validates. @throws IllegalArgumentException if the status is missing */
        public Response {
            if (status == null) {
                throw new IllegalArgumentException("a response needs a status");
            }
        }

        /** A response without a routing timestamp: served, or refused because the node's queue was full. */
        public Response(long id, int node, double arrivalTime, boolean served) {
            this(id, node, arrivalTime, served ? ResponseStatus.OK : ResponseStatus.OVERLOADED, Double.NaN);
        }

        /** A response to {@code request} from {@code node} with {@code status}, echoing its routing timestamp. */
        public static Response to(NodeMessage.Request request, int node, ResponseStatus status) {
            return new Response(request.id(), node, request.arrivalTime(), status, request.routedAt());
        }

        /** True if the request was served. */
        public boolean served() {
            return status.served();
        }

        @Override
        public int estimatedBytes() {
            return Double.isNaN(routedAt) ? 40 : 48;
        }
    }

    /**
     * Routing weights published by a control plane (seed 003's LinTS agent): the data plane
     * draws nodes by them. {@code weights[j]} is node j's share (they sum to 1 over the nodes
     * the control plane knows; a node beyond the array has weight 0).
     *
     * @param version increases with every publication (a stale, reordered one is ignored)
     * @param publishedAt when the control plane computed them, on its clock, seconds
     * @param weights one weight per node index, ≥ 0
     */
    record Weights(long version, double publishedAt, double[] weights) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 24 + 8 * weights.length;
        }

        /** Equal when version, time and every weight are equal (the array by content). */
        @Override
        public boolean equals(Object o) {
            return o instanceof Weights w && w.version == version && Double.compare(w.publishedAt, publishedAt) == 0
                    && java.util.Arrays.equals(w.weights, weights);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(version, publishedAt, java.util.Arrays.hashCode(weights));
        }

        @Override
        public String toString() {
            return "Weights[version=" + version + ", publishedAt=" + publishedAt + ", weights="
                    + java.util.Arrays.toString(weights) + "]";
        }
    }

    /**
     * Timer: time to send the control services what this balancer saw since the last time
     * (outcomes, arrivals, the nodes' latest load).
     */
    record FeedbackTick() implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: probe replies for request {@code requestId} are overdue. */
    record ProbeTimeout(long requestId) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Timer: time for the guardrails to look at every node's silence and report age (nothing
     * else tells a balancer that a node has gone quiet).
     */
    record GuardrailTick() implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Timer: attempt {@code attempt} (0 = the first) of request {@code requestId} has been
     * out for the per-try timeout without an answer.
     *
     * @param requestId the request
     * @param attempt which attempt the timer belongs to (a stale timer of an earlier attempt is ignored)
     */
    record AttemptTimeout(long requestId, int attempt) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Timer: request {@code requestId} was dispatched {@code balancers.request-timeout} seconds
     * ago and has had no response (Envoy's route timeout, gRPC's deadline): the balancer ends it.
     * The message object is also the timer's key, so each request has its own timer.
     *
     * @param requestId the request
     */
    record RequestTimeout(long requestId) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: the end of an outlier-detection interval (success-rate test, returns of ejected nodes). */
    record OutlierTick() implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: a request held back by the delay mode (instead of being rejected) is due for another try. */
    record RetryDue(long requestId) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * A node's periodic sign of life ({@code nodes.heartbeat-period}): lets the guardrails
     * tell a silent node from an idle one.
     *
     * @param node index of the node
     * @param sentAt time it was sent, seconds
     */
    record Heartbeat(int node, double sentAt) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /**
     * Membership: node {@code node} cannot be reached now (its member is unreachable to the
     * failure detector, or a partition cuts it off). It may come back ({@link NodeReachable}).
     *
     * @param node node index
     */
    record NodeUnreachable(int node) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** Membership: node {@code node} is reachable again. @param node node index */
    record NodeReachable(int node) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /**
     * Membership: node {@code node} left the cluster or was downed; it never comes back under
     * this id, and the requests the balancer has in flight there are lost.
     *
     * @param node node index
     */
    record NodeRemoved(int node) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /**
     * Membership: node {@code node} is leaving gracefully (a scale-down): it takes no new
     * requests, and the ones in flight there still complete. A later {@link NodeJoined} brings
     * a node back under this id.
     *
     * @param node node index
     */
    record NodeLeaving(int node) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** Membership: node {@code node} joined (a new or restarted member, an autoscaled node). @param node node index */
    record NodeJoined(int node) implements BalancerMessage {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }
}

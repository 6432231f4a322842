package org.loadlab.node.protocol;

import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Message;

/**
 * Messages a backend node accepts. Requests and probes come from balancers; control
 * messages (failure, recovery, degradation) from the scenario's event script or the
 * chaos API; the rest are the node's own timers.
 *
 * <p>Source: SPEC.md §1 (backend node), DESIGN.md (probe / report protocol).
 */
public sealed interface NodeMessage extends Message {

    /**
     * A request to serve.
     *
     * @param id request id, unique within a run
     * @param demand service demand D in work units (service time is D / μ_j)
     * @param arrivalTime time the request entered the system (at the driver), seconds
     * @param replyTo balancer that routed it and receives the {@link BalancerMessage.Response}
     * @param routedAt when the balancer sent this attempt, on the balancer's clock, seconds, or
     *     NaN when the balancer does not measure response latency; the node echoes it in its
     *     {@link BalancerMessage.Response} (a timestamp header, as latency-aware balancers keep)
     */
    record Request(long id, double demand, double arrivalTime, BalancerId replyTo, double routedAt) implements NodeMessage {
        /** A request without a routing timestamp. */
        public Request(long id, double demand, double arrivalTime, BalancerId replyTo) {
            this(id, demand, arrivalTime, replyTo, Double.NaN);
        }

        @Override
        public int estimatedBytes() {
            return Double.isNaN(routedAt) ? 48 : 56;
        }
    }

    /**
     * A load query: the node answers with a {@link BalancerMessage.ProbeReply} carrying {@code probeId}.
     *
     * @param probeId id the balancer uses to match the reply (the request id)
     * @param replyTo balancer that asked
     */
    record Probe(long probeId, BalancerId replyTo) implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 24;
        }
    }

    /** Crash: the node stops serving and answering; queued and in-service requests are lost. */
    record Fail() implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /** Recovery after {@link Fail}: the node serves again with an empty queue. */
    record Recover() implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /**
     * Capacity change: μ_j becomes {@code factor} × its nominal rate (1 restores it).
     *
     * @param factor multiplier of the nominal service rate, ≥ 0
     */
    record Degrade(double factor) implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /** Timer: the request in server slot {@code slot} finished service. */
    record ServiceDone(int slot) implements NodeMessage {
        private static final ServiceDone[] SHARED = new ServiceDone[64];

        static {
            for (int i = 0; i < SHARED.length; i++) {
                SHARED[i] = new ServiceDone(i);
            }
        }

        /**
         * The timer message of server slot {@code slot}: one instance per slot shared by every
         * node (for slots below 64), so the completion event of a large cluster reads a
         * message that is in the cache, not one allocated with the node a long time ago.
         *
         * @param slot server slot, ≥ 0
         * @throws IllegalArgumentException if {@code slot} is negative
         */
        public static ServiceDone of(int slot) {
            if (slot < 0) {
                throw new IllegalArgumentException("a server slot is >= 0, was " + slot);
            }
            return slot < SHARED.length ? SHARED[slot] : new ServiceDone(slot);
        }

        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: time to take a load snapshot for the cached information model. */
    record ReportTick() implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: a snapshot taken {@code report-delay} ago is now pushed to the balancers. */
    record ReportDue(LoadSnapshot snapshot) implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Crash of the node's member: the node stops at once and says nothing more: it neither
     * serves, answers probes, reports nor counts what it held (the cluster cannot either; the
     * balancers count their requests in flight there as lost when membership removes the
     * node). A {@link Recover} restarts it with an empty queue.
     */
    record Crash() implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /**
     * Heartbeats and load reports stop ({@code on = false}) or resume: the node keeps serving
     * and answering probes (scenario event {@code heartbeat-loss}).
     *
     * @param on true to send them again
     */
    record SignsOfLife(boolean on) implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /** Timer: time to send a heartbeat. */
    record HeartbeatTick() implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Chaos: inject fault {@code fault} with parameter {@code value} (scenario event
     * {@code chaos}, or POST /chaos/inject on a cluster): {@code cpu-spike} pins CPU at
     * {@code value} (a share in [0, 1]); {@code latency} delays every reply by {@code value}
     * seconds; {@code error-rate} refuses each request with probability {@code value}
     * (answered at once with status {@link ResponseStatus#ERROR}, HTTP 500); {@code crash} fails the node as {@link Fail} does.
     *
     * @param fault one of {@link ChaosFaults#NAMES}
     * @param value the fault's parameter
     */
    record InjectFault(String fault, double value) implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 24;
        }
    }

    /** Chaos: clear every fault (unpin CPU, no extra latency, no errors, recover from a chaos crash). */
    record ClearFaults() implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /** Timer: the reply held under {@code seq} by a latency fault is due. */
    record DelayedSend(long seq) implements NodeMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }
}

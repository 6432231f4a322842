package org.loadlab.kernel.observe;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.loadlab.kernel.CborSerializable;
import org.loadlab.kernel.MetricsSink;

/**
 * One observation leaving a protocol core, as data: the typed record of one
 * {@link MetricsSink} call. The simulation feeds sinks directly (no record is made on its
 * hot path); a shell that must ship observations elsewhere (a cluster member to its
 * gateway) records them with an {@link ObservationLog} and the receiver replays them into
 * its own sink chain with {@link #applyTo}. All times are scenario seconds.
 *
 * <p>Source: DESIGN.md ("Metrics leave the cores as Observe effects").
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "k")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Observation.Arrived.class, name = "arrived"),
        @JsonSubTypes.Type(value = Observation.Decided.class, name = "decided"),
        @JsonSubTypes.Type(value = Observation.Routed.class, name = "routed"),
        @JsonSubTypes.Type(value = Observation.Rejected.class, name = "rejected"),
        @JsonSubTypes.Type(value = Observation.Completed.class, name = "completed"),
        @JsonSubTypes.Type(value = Observation.ServiceStarted.class, name = "started"),
        @JsonSubTypes.Type(value = Observation.Lost.class, name = "lost"),
        @JsonSubTypes.Type(value = Observation.QueueLength.class, name = "queue"),
        @JsonSubTypes.Type(value = Observation.BusyServers.class, name = "busy"),
        @JsonSubTypes.Type(value = Observation.StateUpdate.class, name = "update"),
        @JsonSubTypes.Type(value = Observation.Counted.class, name = "count"),
        @JsonSubTypes.Type(value = Observation.MessageSent.class, name = "message")})
public sealed interface Observation extends CborSerializable {
    /** When it happened, scenario seconds. */
    double time();

    /**
     * Makes the {@link MetricsSink} call this record stands for, at time {@code at}
     * (normally {@link #time()}; a merger may move it to keep time order).
     */
    void applyTo(MetricsSink sink, double at);

    /** Makes the call at its own time. */
    default void applyTo(MetricsSink sink) {
        applyTo(sink, time());
    }

    /** A request arrived at balancer {@code balancer}. */
    record Arrived(double time, int balancer) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.arrived(at, balancer);
        }
    }

    /** Balancer {@code balancer} decided after {@code queries} reads. */
    record Decided(double time, int balancer, int queries) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.decision(at, balancer, queries);
        }
    }

    /** Balancer {@code balancer} routed a request to {@code node}; it started deciding at {@code decisionStart}. */
    record Routed(double time, int balancer, int node, double decisionStart, double arrivalTime) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.routed(at, balancer, node, decisionStart, arrivalTime);
        }
    }

    /** A request that arrived at {@code arrivalTime} was rejected. */
    record Rejected(double time, double arrivalTime) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.rejected(at, arrivalTime);
        }
    }

    /** A request that arrived at {@code arrivalTime} completed at {@code node}. */
    record Completed(double time, double arrivalTime, int node) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.completed(at, arrivalTime, node);
        }
    }

    /** A request entered service at {@code node} after waiting {@code waitSeconds}. */
    record ServiceStarted(double time, int node, double waitSeconds) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.serviceStarted(at, node, waitSeconds);
        }
    }

    /** {@code count} requests were lost at {@code node}. */
    record Lost(double time, int node, int count) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.lost(at, node, count);
        }
    }

    /** {@code node}'s queue length became {@code length}. */
    record QueueLength(double time, int node, int length) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.queueLength(at, node, length);
        }
    }

    /** {@code busy} of {@code servers} servers of {@code node} are busy. */
    record BusyServers(double time, int node, int busy, int servers) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.busyServers(at, node, busy, servers);
        }
    }

    /** {@code node} pushed a state update to {@code receivers} balancers. */
    record StateUpdate(double time, int node, int receivers) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.stateUpdate(at, node, receivers);
        }
    }

    /** Counter {@code name} grew by {@code delta}. */
    record Counted(double time, String name, long delta) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.count(at, name, delta);
        }
    }

    /** A message of class {@code kind}, about {@code bytes} on the wire, was sent. */
    record MessageSent(double time, String kind, int bytes) implements Observation {
        @Override
        public void applyTo(MetricsSink sink, double at) {
            sink.messageSent(at, kind, bytes);
        }
    }
}

package org.loadlab.shell.cluster;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.loadlab.kernel.CborSerializable;
import org.loadlab.kernel.observe.ObservationColumns;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Message;

/**
 * The messages of cluster mode that cross JVM boundaries, all {@link CborSerializable}
 * (Jackson CBOR, see {@code ClusterSerializationTest}), plus the service keys under which
 * members find each other through the Receptionist.
 *
 * <pre>
 *   gateway (ExperimentRunner)                 member (Host → HostedExperiment → LogicActors)
 *   PrepareExperiment ───────────────────────►  builds the run's cores, spawns its nodes/balancers
 *                     ◄─────────────────────── HostReady (directory complete) | HostFailed
 *   BeginRun(origin)  ───────────────────────►  Start to every actor, clocks share the origin
 *                     ◄─────────────────────── ObservationBatch every flush-interval
 *   Chaos / SwitchPolicy / QueryNodes / QueryExplain ► Ack / NodesReply / ExplainReply
 *   StopExperiment    ───────────────────────►  stops the actors, last batch
 *                     ◄─────────────────────── ObservationBatch(last) , HostStopped
 * </pre>
 * The protocol messages between the logic cores (NodeMessage, BalancerMessage) travel
 * unchanged between the LogicActors; load reports are such messages (not Distributed Data).
 */
public final class Protocol {
    private Protocol() {
    }

    /** Every member with the node or balancer role registers its {@link Host} under this key. */
    public static final ServiceKey<HostCommand> HOST_KEY = ServiceKey.create(HostCommand.class, "loadlab-host");

    /** Node actors of {@code experiment} (actor name {@code node-<j>}). */
    public static ServiceKey<Message> nodesKey(String experiment) {
        return ServiceKey.create(Message.class, "loadlab-nodes-" + experiment);
    }

    /** Balancer actors of {@code experiment} (actor name {@code balancer-<i>}). */
    public static ServiceKey<Message> balancersKey(String experiment) {
        return ServiceKey.create(Message.class, "loadlab-balancers-" + experiment);
    }

    /**
     * The Receptionist key of an experiment's control services (seed 003's LinTS control plane
     * and autoscaler): the member hosting balancer 0 runs them, once for the whole cluster.
     */
    public static ServiceKey<Message> servicesKey(String experiment) {
        return ServiceKey.create(Message.class, experiment + "-services");
    }

    // ------------------------------------------------------------------ to a member's Host

    /** Commands a {@link Host} accepts (remote ones from the gateway, local ones from itself). */
    public interface HostCommand extends CborSerializable {
    }

    /**
     * Build the cores of one run and spawn the nodes and balancers assigned to this member.
     *
     * @param experiment experiment id
     * @param scenarioJson the resolved scenario (JSON), parsed again on the member
     * @param baseDir directory relative trace paths are resolved against
     * @param policy initial policy name
     * @param seed master seed
     * @param timeScale scenario seconds per real second
     * @param nodes node indices this member hosts
     * @param balancers balancer indices this member hosts
     * @param runner where observations and readiness go
     */
    public record PrepareExperiment(String experiment, String scenarioJson, String baseDir, String policy, long seed,
                                    double timeScale, List<Integer> nodes, List<Integer> balancers,
                                    ActorRef<RunnerCommand> runner) implements HostCommand {
        /** Copies the lists. */
        public PrepareExperiment {
            nodes = List.copyOf(nodes);
            balancers = List.copyOf(balancers);
        }
    }

    /**
     * Start the run: every actor of the experiment gets {@code LogicActor.Start}; scenario time 0
     * is the wall-clock instant {@code originEpochMicros} on every member.
     */
    public record BeginRun(String experiment, long originEpochMicros) implements HostCommand {
    }

    /** Stop the experiment's actors, send the last observations and answer {@link HostStopped}. */
    public record StopExperiment(String experiment) implements HostCommand {
    }

    /**
     * Inject a fault into node {@code node}, or clear its faults.
     *
     * @param fault cpu-spike, latency, error-rate, crash, or clear
     * @param value the fault's parameter (CPU level, extra seconds, error probability); ignored by crash and clear
     */
    public record Chaos(String experiment, int node, String fault, double value, ActorRef<Ack> replyTo) implements HostCommand {
    }

    /** Switch the policy of this member's balancers of {@code experiment}. */
    public record SwitchPolicy(String experiment, String policy, ActorRef<Ack> replyTo) implements HostCommand {
    }

    /** Ask the status of this member's nodes of {@code experiment}. */
    public record QueryNodes(String experiment, ActorRef<NodesReply> replyTo) implements HostCommand {
    }

    /** Ask this member's balancers of {@code experiment} to explain their routing. */
    public record QueryExplain(String experiment, int lastDecisions, ActorRef<ExplainReply> replyTo) implements HostCommand {
    }

    // ------------------------------------------------------------------ to an ExperimentRunner

    /** Messages an {@link ExperimentRunner} accepts from members (remote) and from itself. */
    public interface RunnerCommand extends CborSerializable {
    }

    /** A member built and registered its actors, and found every actor they talk to. */
    public record HostReady(String experiment, String member) implements RunnerCommand {
    }

    /** A member could not prepare the experiment. */
    public record HostFailed(String experiment, String member, String error) implements RunnerCommand {
    }

    /**
     * A member stopped its actors; its last {@link ObservationBatch} was sent before this.
     *
     * @param experiment experiment id
     * @param member the member's address
     * @param held what each of its balancers still held when it stopped (its last state: no
     *     message was handled after it), one entry per balancer that answered in time
     * @param peers the same for each of its peer nodes in a load-sharing run (empty otherwise)
     */
    public record HostStopped(String experiment, String member, List<BalancerHeld> held, List<PeerHeld> peers)
            implements RunnerCommand {
        /** Copies the lists. */
        public HostStopped {
            held = List.copyOf(held);
            peers = List.copyOf(peers);
        }
    }

    /**
     * What one peer node of a load-sharing run held when its actor stopped (its last state).
     *
     * @param node index j
     * @param queued tasks waiting or in service
     * @param transfersOut tasks it sent to other peers (transfers and tasks sent back)
     * @param transfersIn task messages it received from other peers
     */
    public record PeerHeld(int node, int queued, long transfersOut, long transfersIn) implements CborSerializable {
    }

    /**
     * The requests one balancer still held when its actor stopped: the census the gateway's
     * books need to account for every request that arrived and was not resolved.
     *
     * @param balancer index i
     * @param deciding decisions waiting for probe replies
     * @param delayed requests held back in delay mode
     * @param inBackoff retries waiting for their backoff timer
     * @param inFlight requests routed to a node and not yet answered
     */
    public record BalancerHeld(int balancer, int deciding, int delayed, int inBackoff, long inFlight) implements CborSerializable {
    }

    /**
     * Observations of one member since its previous batch: the cores' {@code MetricsSink}
     * calls as columns ({@link ObservationColumns}, written so by the member's
     * {@code ObservationLog}: no object per record on either side, no type id or field name
     * per record on the wire), at most {@link #MAX_RECORDS} per message so that no batch
     * outgrows the transport's frame; a flush sends as many batches as it takes. Batches
     * travel on Artery's large-message stream (the gateway's children are
     * {@code large-message-destinations} in loadlab-cluster.conf), so probes and replies never
     * queue behind one.
     *
     * @param experiment experiment id
     * @param member sending member's address
     * @param flush the member's flush number (1, 2, ...): the batches of one flush share it
     * @param watermark scenario time up to which the member has sent every record (its clock at the flush, less a
     *     margin for a record being written as the flush drained the log)
     * @param records the observations, oldest first
     * @param droppedAfterClose observations the member refused so far because they came after its actors
     *     stopped (a running total: the latest batch's value is the member's count)
     */
    public record ObservationBatch(String experiment, String member, long flush, double watermark,
                                   ObservationColumns records, long droppedAfterClose) implements RunnerCommand {
        /** Most records per batch (about 15 bytes each in columns: far below even the ordinary stream's 256 KiB frame). */
        public static final int MAX_RECORDS = 2000;

        /** @throws NullPointerException if {@code records} is null */
        public ObservationBatch {
            java.util.Objects.requireNonNull(records, "records");
        }
    }

    /**
     * How late the timers of one member's actors fired since its previous report (sent with
     * each flush that handled timers): the gateway adds the members' reports up and stops an
     * experiment that falls behind its scaled clock ({@code ScaledClockCheck}, as live mode does).
     *
     * @param experiment experiment id
     * @param member sending member's address
     * @param timers timers handled in the span
     * @param meanLateNanos their mean lateness, real nanoseconds
     * @param maxLateNanos the largest lateness, real nanoseconds
     */
    public record TimerLagReport(String experiment, String member, long timers, double meanLateNanos, long maxLateNanos)
            implements RunnerCommand {
    }

    // ------------------------------------------------------------------ replies

    /** Outcome of a command: ok, or what went wrong. */
    public record Ack(boolean ok, String member, String detail) implements CborSerializable {
    }

    /** Status of the nodes one member hosts. */
    public record NodesReply(String member, List<NodeStatus> nodes) implements CborSerializable {
        /** Copies the list. */
        public NodesReply {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * One node as GET /nodes shows it.
     *
     * @param node index j
     * @param member address of the member hosting it
     * @param status up, failed (crashed by chaos or a scenario event), removed (its member left the cluster)
     * @param load its current state (queue q_j, in service, μ_j, CPU/MEM/IO/NET, correction), null when removed
     * @param nominalRate nominal μ_j, work units/s
     * @param faults active chaos faults, e.g. {@code latency=0.2}
     */
    public record NodeStatus(int node, String member, String status, LoadSnapshot load, double nominalRate,
                             List<String> faults) implements CborSerializable {
        /** Copies the list. */
        public NodeStatus {
            faults = List.copyOf(faults);
        }
    }

    /** Explanations of the balancers one member hosts. */
    public record ExplainReply(String member, List<BalancerExplain> balancers) implements CborSerializable {
        /** Copies the list. */
        public ExplainReply {
            balancers = List.copyOf(balancers);
        }
    }

    /**
     * How one balancer sees the nodes and what it decided lately (GET /explain-routing).
     *
     * @param balancer index i
     * @param member its member's address
     * @param policy the policy now in use
     * @param informationModel probe or cached
     * @param scoreRule what the score of a node is under this policy and which wins
     * @param now the balancer's scenario time, seconds
     * @param nodes per allowed node: its load view, age, score and mask
     * @param lastDecisions the latest decisions, newest first
     */
    /**
     * How old the control plane's routing weights were when they reached a balancer (its clock
     * minus their publication time: the push's network and mailbox delay across members).
     *
     * @param received publications received
     * @param meanSeconds mean age, scenario seconds
     * @param maxSeconds largest age, scenario seconds
     */
    public record WeightsAge(long received, double meanSeconds, double maxSeconds) implements CborSerializable {
        /** No weights received. */
        public static final WeightsAge NONE = new WeightsAge(0, 0, 0);
    }

    public record BalancerExplain(int balancer, String member, String policy, String informationModel, String scoreRule,
                                  double now, List<NodeView> nodes, List<Decision> lastDecisions, WeightsAge weightsAge)
            implements CborSerializable {
        /** Copies the lists. */
        public BalancerExplain {
            nodes = List.copyOf(nodes);
            lastDecisions = List.copyOf(lastDecisions);
        }

        /** An explanation without routing weights (no control plane publishes to the balancer). */
        public BalancerExplain(int balancer, String member, String policy, String informationModel, String scoreRule,
                               double now, List<NodeView> nodes, List<Decision> lastDecisions) {
            this(balancer, member, policy, informationModel, scoreRule, now, nodes, lastDecisions, WeightsAge.NONE);
        }
    }

    /**
     * A balancer's view of one node.
     *
     * @param node index j
     * @param load the latest snapshot the balancer received (probe reply or load report), null if none
     * @param ageSeconds how old that snapshot is (balancer time − snapshot time), NaN if none
     * @param score the policy's score of the node from that snapshot, NaN when the policy has none
     * @param masked whether the guardrails exclude it now
     * @param maskReason why, null when not masked
     * @param inFlight requests this balancer sent it and has not seen answered
     * @param routed requests this balancer routed to it in this experiment
     */
    public record NodeView(int node, LoadSnapshot load, double ageSeconds, double score, boolean masked, String maskReason,
                           int inFlight, long routed) implements CborSerializable {
    }

    /**
     * One routing decision.
     *
     * @param request request id
     * @param at balancer time of the decision, seconds
     * @param candidates the nodes the policy chose among, with what it knew
     * @param chosen node index routed to, −1 when rejected
     * @param outcome routed, rejected, or lost (routed to a node whose member was removed)
     * @param reason why, in words
     * @param decisionMicros time from the arrival at the balancer to the decision (probes included), µs
     */
    public record Decision(long request, double at, List<Candidate> candidates, int chosen, String outcome, String reason,
                           double decisionMicros) implements CborSerializable {
        /** Copies the list. */
        public Decision {
            candidates = List.copyOf(candidates);
        }
    }

    /**
     * One candidate of a decision.
     *
     * @param node index j
     * @param queueLength q_j as known, −1 if unknown
     * @param cpu CPU as known, NaN if unknown
     * @param score policy score, NaN if none
     * @param masked excluded by a guardrail
     * @param maskReason why, null if not masked
     */
    public record Candidate(int node, int queueLength, double cpu, double score, boolean masked, String maskReason)
            implements CborSerializable {
    }
}

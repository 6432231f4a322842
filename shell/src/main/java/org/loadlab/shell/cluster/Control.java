package org.loadlab.shell.cluster;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.loadlab.balancer.policy.SelectionPolicy;
import org.loadlab.kernel.Message;

/**
 * Control messages a member's {@link HostedExperiment} gives the LogicActors it spawned
 * ({@link ClusterNodeLogic}, {@link ClusterBalancerLogic}). They never leave the member:
 * the gateway's requests reach it as {@link Protocol} messages first. They are
 * {@link Message}s only because a LogicActor's mailbox takes Messages.
 */
public final class Control {
    private Control() {
    }

    /** Base of the control messages (no protocol bytes: they are not part of the experiment's traffic). */
    public interface ControlMessage extends Message {
        @Override
        default int estimatedBytes() {
            return 0;
        }
    }

    /** Node: inject a chaos fault (cpu-spike, latency, error-rate, crash) with its parameter. */
    public record InjectFault(String fault, double value) implements ControlMessage {
    }

    /** Node: clear every chaos fault (unpin CPU, no extra latency, no errors, recover from a crash). */
    public record ClearFaults() implements ControlMessage {
    }

    /** Node: report its status. */
    public record NodeStatusQuery(String member, ActorRef<Protocol.NodeStatus> replyTo) implements ControlMessage {
    }

    /** Node (timer): send the reply held under {@code seq} now that the injected latency has passed. */
    public record DelayedSend(long seq) implements ControlMessage {
    }

    /** Balancer: from now on decide with {@code policy} (built on the member from the catalog). */
    public record UsePolicy(String name, SelectionPolicy policy) implements ControlMessage {
    }

    /**
     * Balancer: the nodes whose actors the Receptionist does not list as reachable now (their
     * member is unreachable, leaving or gone, or the actor stopped). Replaces the previous set.
     */
    public record NodesUnreachable(List<Integer> nodes) implements ControlMessage {
        /** Copies the list. */
        public NodesUnreachable {
            nodes = List.copyOf(nodes);
        }
    }

    /** Balancer: these nodes' member was removed from the cluster; their in-flight requests are lost. */
    public record NodesRemoved(List<Integer> nodes) implements ControlMessage {
        /** Copies the list. */
        public NodesRemoved {
            nodes = List.copyOf(nodes);
        }
    }

    /** Balancer: explain the routing (see {@link Protocol.BalancerExplain}). */
    public record ExplainQuery(String member, int lastDecisions, ActorRef<Protocol.BalancerExplain> replyTo)
            implements ControlMessage {
    }
}

package org.loadlab.balancer.information;

import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

/**
 * The probe information model: a {@code Probe} message to each node read, now; the
 * decision waits for every {@code ProbeReply} or the probe timeout, and a node that has not
 * answered by then is excluded. One query per probe.
 *
 * @param timeout seconds to wait for the replies, > 0 ({@code information.probe-timeout})
 *     <p>Source: SPEC.md §2 (probe, timeout default 50 ms), DESIGN.md ("sample k peers by message").
 */
public record ProbeModel(double timeout) implements InformationModel {
    /** Validates. @throws IllegalArgumentException if the timeout is not positive */
    public ProbeModel {
        if (!(timeout > 0)) {
            throw new IllegalArgumentException("information.probe-timeout must be > 0 s, was " + timeout);
        }
    }

    @Override
    public String name() {
        return "probe";
    }

    @Override
    public boolean read(long requestId, int[] nodes, LoadSnapshot[] out, Object timeoutKey, Message timeoutMessage, Env env) {
        NodeMessage.Probe probe = new NodeMessage.Probe(requestId, (BalancerId) env.self());
        for (int node : nodes) {
            env.send(NodeId.of(node), probe);
        }
        env.startTimer(timeoutKey, timeout, timeoutMessage);
        return false;
    }
}

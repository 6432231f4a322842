package org.loadlab.node.backend;

import java.util.List;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

/**
 * A backend node core that serves requests: the FCFS queue of SPEC.md §1 ({@link BackendNode})
 * or seed 003's latency model ({@link org.loadlab.node.profile.ProfileNode}). What the shells
 * and the run's checks read of a node, whichever model it runs.
 *
 * <p>A node handles {@link NodeMessage}s; it is a {@code Logic<Message>} (it ignores
 * anything else) so the engine's cast to {@link Message} is the only interface check per
 * event (JDK-8180450, docs/performance.md).
 *
 * <p>Source: SPEC.md §1 and §6.
 */
public interface ServingNode extends Logic<Message> {
    /** This node's address. */
    NodeId id();

    /** Requests at the node now (waiting plus in service; the seed model's active requests). */
    int queueLength();

    /**
     * The node's state now, as a probe reply or report carries it (also the oracle view).
     *
     * @param now current time, seconds
     */
    LoadSnapshot snapshot(double now);

    /** The active chaos faults, e.g. {@code latency=0.200}; empty when none. */
    List<String> faults();

    /** True once the node has failed (or crashed) and not recovered. */
    boolean failed();

    /** True once the node's member has crashed and not recovered. */
    boolean crashed();

    /**
     * Tells {@code listener} of every request this node loses without answering (see
     * {@link LostRequests}); replaces any earlier listener. Set before the node starts.
     *
     * @param listener who hears, {@link LostRequests#NONE} for nobody
     */
    void lostRequests(LostRequests listener);
}

package org.loadlab.node.backend;

import org.loadlab.node.protocol.NodeMessage;

/**
 * Hears of each request a node loses without answering: the node failed (a {@code fail}
 * event, a chaos {@code crash} fault) with the request queued or in service, or the request
 * reached it while it was failed. The node counts those with
 * {@link org.loadlab.kernel.MetricsSink#lost}, but no balancer hears of them (a {@code fail}
 * is not membership news), so a shell that must end each request one by one (the decision-log
 * file's row, the gateway's answer to its client) listens here. Not called for a crash of the
 * node's member, which counts nothing: the balancers end those requests when membership
 * removes the node ({@code DecisionLog.nodeRemoved}).
 *
 * <p>Called on the node's thread (the simulation's only thread; in a Pekko shell the node
 * actor's), at the time of the loss; the requests one failure loses come in request-id order.
 */
@FunctionalInterface
public interface LostRequests {
    /** Hears nothing (the default of every node). */
    LostRequests NONE = (request, now) -> {
    };

    /**
     * The node lost {@code request}.
     *
     * @param request the lost request (its id and the balancer it came from)
     * @param now when, seconds on the node's clock
     */
    void lost(NodeMessage.Request request, double now);
}

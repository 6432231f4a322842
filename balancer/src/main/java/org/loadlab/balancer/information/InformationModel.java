package org.loadlab.balancer.information;

import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * How one balancer learns the load of the nodes a policy reads (SPEC.md §2), applied to
 * every policy so that staleness is an experimental variable: {@link ProbeModel} (ask now,
 * by message), {@link CachedModel} (the last pushed report) or {@link OracleModel} (exact
 * state). One instance per balancer (the cached model keeps that balancer's cache).
 * Scenarios choose one by name in one place (the experiment layer's run assembly).
 *
 * <p>Source: SPEC.md §2, DESIGN.md ("the information model is a scenario parameter").
 */
public interface InformationModel {
    /** The scenario's name of this model: {@code probe}, {@code cached} or {@code oracle}. */
    String name();

    /**
     * Starts reading {@code nodes} for request {@code requestId}.
     *
     * @param requestId the request being decided (probe replies carry it)
     * @param nodes the nodes to read
     * @param out where the loads go, same positions (null for unknown)
     * @param timeoutKey key of the read's timeout timer (asynchronous models)
     * @param timeout the message that timer delivers when the answers are overdue
     * @param env the balancer's effects
     * @return true if {@code out} is complete now; false if the answers arrive later as
     *     {@code ProbeReply} messages (or the timeout fires)
     */
    boolean read(long requestId, int[] nodes, LoadSnapshot[] out, Object timeoutKey, Message timeout, Env env);

    /** A node pushed a report (cached model keeps the newest per node; the others ignore it). */
    default void onReport(LoadSnapshot load) {
    }

    /**
     * Queries one read is charged (SPEC.md §2): one per node read, except the oracle, which
     * charges |allowed| for a single-round policy's read of its global view.
     *
     * @param nodesRead nodes in the read
     * @param wholeView true for a single-round policy's read
     * @param allowedCount |allowed| of the balancer
     */
    default int charge(int nodesRead, boolean wholeView, int allowedCount) {
        return nodesRead;
    }

    /** True if a null load means "not reported yet" (cached) rather than "no answer" (probe). */
    default boolean unknownLoadRoutable() {
        return false;
    }
}

package org.loadlab.balancer.pipeline;

import org.loadlab.node.protocol.ResponseStatus;

/**
 * A pipeline stage that learns from how requests end (a latency scorer, an error tracker):
 * its {@link PipelinePolicy} forwards the balancer's outcomes and pool news to it.
 */
public interface OutcomeListener {
    /**
     * An attempt sent to {@code node} ended.
     *
     * @param node the node
     * @param status how it ended
     * @param latency seconds from routing to the end, NaN when not measured
     * @param now the balancer's time, seconds
     */
    void onOutcome(int node, ResponseStatus status, double latency, double now);

    /** {@code node} came (back) into the pool at {@code now}: forget what is known of its past. Default: nothing. */
    default void onNodeBack(int node, double now) {
    }

    /** True if the stage needs measured latencies. Default false. */
    default boolean measuresLatency() {
        return false;
    }
}

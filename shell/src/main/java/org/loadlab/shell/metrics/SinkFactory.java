package org.loadlab.shell.metrics;

import org.loadlab.kernel.MetricsSink;

/**
 * Puts a stage in front of each experiment's observation chain on a member (Kamon), so
 * every observation also reaches it before it is shipped to the gateway.
 */
@FunctionalInterface
public interface SinkFactory {
    /** No extra stage. */
    SinkFactory NONE = (experiment, timeScale, next) -> next;

    /**
     * The sink the cores of {@code experiment} write to on this member.
     *
     * @param experiment experiment id
     * @param timeScale scenario seconds per real second (to report real latencies)
     * @param next where every observation goes on to
     */
    MetricsSink wrap(String experiment, double timeScale, MetricsSink next);
}

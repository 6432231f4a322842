package org.loadlab.shell.cluster;

import org.loadlab.kernel.MetricsSink;

/** Gives each experiment's observations a second destination besides the run recorder (Kamon). */
@FunctionalInterface
public interface SinkFactory {
    /** No second destination. */
    SinkFactory NONE = experiment -> MetricsSink.NONE;

    /** The sink for the observations of {@code experiment} made on this member. */
    MetricsSink forExperiment(String experiment);
}

package org.loadlab.balancer.core;

/**
 * How a balancer learns the load of the nodes it reads (SPEC.md §2), applied to every
 * policy so that staleness is an experimental variable.
 *
 * @param kind probe, cached or oracle
 * @param probeTimeout seconds a balancer waits for probe replies (probe model), > 0;
 *     a node that has not answered by then is excluded from the decision
 */
public record InformationModel(Kind kind, double probeTimeout) {
    /** The three information models. */
    public enum Kind {
        /** Probe/ProbeReply messages sent now to the sampled nodes; one query per probe. */
        PROBE,
        /** The last LoadReport each node pushed; one query per cache read, no messages. */
        CACHED,
        /** Exact current state of the nodes read; one query per node read. */
        ORACLE
    }

    /** Validates. @throws IllegalArgumentException if the timeout is not positive */
    public InformationModel {
        if (kind == null) {
            throw new IllegalArgumentException("information.model must be one of probe, cached, oracle");
        }
        if (!(probeTimeout > 0)) {
            throw new IllegalArgumentException("information.probe-timeout must be > 0 s, was " + probeTimeout);
        }
    }
}

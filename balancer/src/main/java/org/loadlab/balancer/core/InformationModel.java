package org.loadlab.balancer.core;

import org.loadlab.node.protocol.ClusterView;

/**
 * How a balancer learns the load of the nodes it reads (SPEC.md §2), applied to every
 * policy so that staleness is an experimental variable.
 *
 * @param kind probe, cached or oracle
 * @param probeTimeout seconds a balancer waits for probe replies (probe model), > 0;
 *     a node that has not answered by then is excluded from the decision
 * @param oracle the exact state the oracle model reads (null for probe and cached)
 */
public record InformationModel(Kind kind, double probeTimeout, ClusterView oracle) {
    /** The three information models. */
    public enum Kind {
        /** Probe/ProbeReply messages sent now to the sampled nodes; one query per probe. */
        PROBE,
        /** The last LoadReport each node pushed; one query per cache read, no messages. */
        CACHED,
        /** Exact current state of the nodes read; one query per node read. */
        ORACLE
    }

    /**
     * A probe or cached model, or an oracle model whose view is bound later ({@link #withOracle}).
     *
     * @param kind probe, cached or oracle
     * @param probeTimeout see the record
     */
    public InformationModel(Kind kind, double probeTimeout) {
        this(kind, probeTimeout, null);
    }

    /** The same model reading {@code view} (oracle). */
    public InformationModel withOracle(ClusterView view) {
        return new InformationModel(kind, probeTimeout, view);
    }

    /**
     * The oracle's view.
     *
     * @throws IllegalStateException if this oracle model was given no view
     */
    public ClusterView oracleView() {
        if (oracle == null) {
            throw new IllegalStateException("information.model = oracle, but this shell offers no oracle view");
        }
        return oracle;
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

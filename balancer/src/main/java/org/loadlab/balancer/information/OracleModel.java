package org.loadlab.balancer.information;

import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The oracle information model, for global baselines: the exact current state of the nodes
 * read, from a {@link ClusterView} the shell provides (the simulation reads the node objects;
 * live mode a board the node actors publish to). A single-round policy's read is charged
 * |allowed| queries (SPEC.md §2: the price of global state), a multi-round policy's one per
 * node read.
 *
 * @param view the exact state of every node
 *     <p>Source: SPEC.md §2 (oracle).
 */
public record OracleModel(ClusterView view) implements InformationModel {
    /** Validates. @throws IllegalArgumentException if the view is missing */
    public OracleModel {
        if (view == null) {
            throw new IllegalArgumentException("information.model = oracle needs a view of the nodes, which this shell does not offer");
        }
    }

    @Override
    public String name() {
        return "oracle";
    }

    @Override
    public boolean read(long requestId, int[] nodes, LoadSnapshot[] out, Object timeoutKey, Message timeout, Env env) {
        double now = env.now();
        for (int i = 0; i < nodes.length; i++) {
            out[i] = view.load(nodes[i], now);
        }
        return true;
    }

    @Override
    public int charge(int nodesRead, boolean wholeView, int allowedCount) {
        return wholeView ? allowedCount : nodesRead;
    }
}

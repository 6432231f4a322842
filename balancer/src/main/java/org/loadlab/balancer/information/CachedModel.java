package org.loadlab.balancer.information;

import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The cached information model: the last {@code LoadReport} each node pushed to this
 * balancer (every {@code report-period}, {@code report-delay} old when sent); reading costs
 * no message. A node that never reported reads as unknown, and a policy may then choose
 * blindly among such nodes. One query per node read (a cache read).
 *
 * <p>Source: SPEC.md §2 (cached(period, delay)).
 */
public final class CachedModel implements InformationModel {
    private final LoadSnapshot[] cache;

    /** @param nodeCount n, number of nodes (reports carry indices in [0, n)) */
    public CachedModel(int nodeCount) {
        this.cache = new LoadSnapshot[nodeCount];
    }

    @Override
    public String name() {
        return "cached";
    }

    @Override
    public boolean read(long requestId, int[] nodes, LoadSnapshot[] out, Object timeoutKey, Message timeout, Env env) {
        for (int i = 0; i < nodes.length; i++) {
            out[i] = cache[nodes[i]];
        }
        return true;
    }

    @Override
    public void onReport(LoadSnapshot load) {
        LoadSnapshot current = cache[load.node()];
        if (current == null || current.sampledAt() <= load.sampledAt()) {
            cache[load.node()] = load;
        }
    }

    @Override
    public boolean unknownLoadRoutable() {
        return true;
    }
}

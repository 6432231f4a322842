package org.loadlab.balancer.control;

import java.util.Arrays;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * What a control service knows of the fleet from the balancers' reports: the freshest load of
 * each node (by the time it was sampled) and whether any balancer counts it as a member.
 *
 * <p>Source: seed 003 (the control plane and the HPA read the nodes' heartbeats).
 */
public final class FleetView {
    private LoadSnapshot[] latest;
    private boolean[][] members;

    /**
     * @param nodes node indices 0..nodes−1
     * @param balancers balancers reporting
     */
    public FleetView(int nodes, int balancers) {
        this.latest = new LoadSnapshot[nodes];
        this.members = new boolean[balancers][nodes];
        for (boolean[] m : members) {
            Arrays.fill(m, true);
        }
    }

    /** Takes in a balancer's report. */
    public void update(ControlMessage.Feedback f) {
        int n = f.loads().length;
        if (n > latest.length) {
            latest = Arrays.copyOf(latest, n);
        }
        for (int j = 0; j < n; j++) {
            LoadSnapshot s = f.loads()[j];
            if (s != null && (latest[j] == null || latest[j].sampledAt() < s.sampledAt())) {
                latest[j] = s;
            }
        }
        if (f.balancer() < members.length) {
            members[f.balancer()] = f.members().clone();
        }
    }

    /** The freshest load of node {@code j}, or null. */
    public LoadSnapshot load(int j) {
        return j < latest.length ? latest[j] : null;
    }

    /** True if some balancer counts node {@code j} as a member. */
    public boolean member(int j) {
        for (boolean[] m : members) {
            if (j < m.length && m[j]) {
                return true;
            }
        }
        return false;
    }

    /** Node indices known. */
    public int nodes() {
        return latest.length;
    }
}

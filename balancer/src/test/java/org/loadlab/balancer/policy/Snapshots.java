package org.loadlab.balancer.policy;

import org.loadlab.balancer.decision.Candidates;

import org.loadlab.node.protocol.LoadSnapshot;

/** Hand-built load snapshots for policy tests. */
final class Snapshots {
    private Snapshots() {
    }

    static LoadSnapshot q(int node, int queueLength) {
        return new LoadSnapshot(node, queueLength, Math.min(1, queueLength), 1.0, 0, 0, 0, 0, 1.0, 0, true);
    }

    static LoadSnapshot muQ(int node, double mu, int queueLength) {
        return new LoadSnapshot(node, queueLength, Math.min(1, queueLength), mu, 0, 0, 0, 0, 1.0, 0, true);
    }

    static LoadSnapshot full(int node, double mu, int queueLength, double cpu, double mem, double io, double net,
                             double correction) {
        return new LoadSnapshot(node, queueLength, Math.min(1, queueLength), mu, cpu, mem, io, net, correction, 0, true);
    }

    static LoadSnapshot down(int node, int queueLength) {
        return new LoadSnapshot(node, queueLength, 0, 1.0, 0, 0, 0, 0, 1.0, 0, false);
    }

    static int[] iota(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    static Candidates set(LoadSnapshot... loads) {
        return new Candidates(new int[loads.length]).reset(iota(loads.length), loads, null, loads.length);
    }
}

package org.loadlab.balancer.policy;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A consistent-hash ring (Karger et al.; Envoy's ring hash): every node places
 * ⌈minRingSize / n_sizing⌉ points on a 64-bit circle, and a key belongs to the node of the
 * first point at or after its hash, wrapping around. The number of points per node is fixed
 * by the size of the whole allowed set (n_sizing), not of the nodes on the ring now, so a node
 * that leaves takes its points with it and nothing else changes: exactly the keys on its arcs
 * move (each to the next point's node), a share of about 1/n. Lookup is a binary search,
 * O(log ring size).
 *
 * <p>Source: Karger et al., "Consistent hashing and random trees" (STOC 1997); Envoy ring
 * hash load balancer ({@code minimum_ring_size} 1024).
 */
public final class HashRing {
    private final long[] points;
    private final int[] owners;

    /**
     * @param nodes the nodes on the ring (distinct; the ring depends only on the set)
     * @param minRingSize the smallest number of points with every node of the sizing set on it, ≥ 1
     * @param sizing n_sizing: the number of nodes the ring is sized for (the allowed set), ≥ 1
     * @throws IllegalArgumentException if there is no node
     */
    public HashRing(int[] nodes, int minRingSize, int sizing) {
        if (nodes.length == 0) {
            throw new IllegalArgumentException("a hash ring needs at least one node");
        }
        int[] sorted = nodes.clone();
        Arrays.sort(sorted);
        int per = Math.max(1, sizing);
        int replicas = Math.max(1, (minRingSize + per - 1) / per);
        int total = replicas * sorted.length;
        long[][] pairs = new long[total][];
        int k = 0;
        for (int node : sorted) {
            for (int r = 0; r < replicas; r++) {
                pairs[k++] = new long[] {KeyHash.ofNode(node, r), node};
            }
        }
        Arrays.sort(pairs, (a, b) -> a[0] != b[0] ? Long.compareUnsigned(a[0], b[0]) : Long.compare(a[1], b[1]));
        points = new long[total];
        owners = new int[total];
        for (int i = 0; i < total; i++) {
            points[i] = pairs[i][0];
            owners[i] = (int) pairs[i][1];
        }
    }

    /** Points on the ring. */
    public int size() {
        return points.length;
    }

    /** The node the key hash {@code hash} maps to. */
    public int node(long hash) {
        return owners[position(hash)];
    }

    /**
     * The node of the first point at or after {@code hash} (wrapping) that {@code usable}
     * accepts, or −1 if it accepts none (a retry walks on to the next distinct node).
     */
    public int node(long hash, IntPredicate usable) {
        int start = position(hash);
        for (int i = 0; i < points.length; i++) {
            int owner = owners[(start + i) % points.length];
            if (usable.test(owner)) {
                return owner;
            }
        }
        return -1;
    }

    private int position(long hash) {
        int lo = 0;
        int hi = points.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(points[mid], hash) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == points.length ? 0 : lo;
    }
}

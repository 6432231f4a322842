package org.loadlab.kernel;

/**
 * Address of backend node number {@code index} (0-based, dense: 0..n-1).
 *
 * <p>{@link #of} hands out shared instances from a process-wide cache so that sending a
 * message to a node allocates no id: the first 4,096 indices always, and every index below
 * the largest node count announced with {@link #cacheUpTo} (a balancer announces its run's n).
 * Ids stay records: two ids are equal when their indices are, cached or not.
 *
 * @param index node index, must be non-negative
 */
public record NodeId(int index) implements Address {
    /** Indices cached from the start. */
    private static final int INITIAL = 4096;
    /**
     * Shared ids by index. Replaced (never modified) when it grows; volatile so that a
     * thread that sees the new array sees its filled elements too.
     */
    private static volatile NodeId[] cache = fill(new NodeId[INITIAL], 0);

    /** Validates the index. @throws IllegalArgumentException if {@code index < 0} */
    public NodeId {
        if (index < 0) {
            throw new IllegalArgumentException("node index must be >= 0, was " + index);
        }
    }

    /**
     * Returns the id of node {@code index}: a shared instance below the cached count (no
     * allocation), else a new one.
     *
     * @throws IllegalArgumentException if {@code index < 0}
     */
    public static NodeId of(int index) {
        NodeId[] c = cache;
        return index >= 0 && index < c.length ? c[index] : new NodeId(index);
    }

    /**
     * Makes {@link #of} allocation-free for every index below {@code count}, for the rest of
     * the process (the cache only grows: 20 bytes per index, 20 MB at 10^6 nodes). Called
     * once per run by whoever knows its node count; cheap when the cache is large enough.
     * Thread-safe.
     *
     * @param count number of node indices (n of a run), ≥ 0
     * @throws IllegalArgumentException if {@code count < 0}
     */
    public static void cacheUpTo(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("node count must be >= 0, was " + count);
        }
        if (count <= cache.length) {
            return;
        }
        synchronized (NodeId.class) {
            NodeId[] old = cache;
            if (count > old.length) {
                NodeId[] grown = java.util.Arrays.copyOf(old, count);
                cache = fill(grown, old.length);
            }
        }
    }

    /** Fills {@code ids[from..]} with new ids and returns the array. */
    private static NodeId[] fill(NodeId[] ids, int from) {
        for (int i = from; i < ids.length; i++) {
            ids[i] = new NodeId(i);
        }
        return ids;
    }

    @Override
    public String toString() {
        return "node-" + index;
    }
}

package org.loadlab.kernel;

/**
 * Address of backend node number {@code index} (0-based, dense: 0..n-1).
 *
 * @param index node index, must be non-negative
 */
public record NodeId(int index) implements Address {
    private static final NodeId[] CACHE = new NodeId[4096];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new NodeId(i);
        }
    }

    /** Validates the index. @throws IllegalArgumentException if {@code index < 0} */
    public NodeId {
        if (index < 0) {
            throw new IllegalArgumentException("node index must be >= 0, was " + index);
        }
    }

    /** Returns the id of node {@code index}, shared for small indices to avoid allocation. */
    public static NodeId of(int index) {
        return index >= 0 && index < CACHE.length ? CACHE[index] : new NodeId(index);
    }

    @Override
    public String toString() {
        return "node-" + index;
    }
}

package org.loadlab.balancer.policy;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Maglev's lookup table (Eisenbud et al.): a table of M slots (M prime) filled by letting
 * each node, in turn, claim the next free slot of its own permutation
 * (offset + j × skip) mod M, so every node owns ⌊M/n⌋ or ⌈M/n⌉ slots; a key maps to the node
 * of slot hash mod M in O(1). When a node leaves, its slots go to others and, because the
 * table is refilled, a few other slots change hands too: the share of keys that moves is
 * slightly above 1/n (minimal disruption is traded for an even spread).
 *
 * <p>Source: Eisenbud et al., "Maglev: A Fast and Reliable Software Network Load Balancer"
 * (NSDI 2016), §3.4 (Pseudocode 1); Envoy maglev load balancer (table size 65537).
 */
public final class MaglevTable {
    private final int[] table;

    /**
     * @param nodes the nodes in the table (distinct; the table depends only on the set)
     * @param size M, a prime ≥ the number of nodes
     * @throws IllegalArgumentException if there is no node or M is smaller than the node count
     */
    public MaglevTable(int[] nodes, int size) {
        if (nodes.length == 0 || size < nodes.length) {
            throw new IllegalArgumentException("a maglev table needs 1..M nodes, had " + nodes.length + " for M = " + size);
        }
        int[] sorted = nodes.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        long[] offset = new long[n];
        long[] skip = new long[n];
        for (int i = 0; i < n; i++) {
            offset[i] = Long.remainderUnsigned(KeyHash.ofNode(sorted[i], 0x6d61676c6576L), size);
            skip[i] = Long.remainderUnsigned(KeyHash.ofNode(sorted[i], 0x736b6970L), size - 1) + 1;
        }
        table = new int[size];
        Arrays.fill(table, -1);
        long[] next = new long[n];
        int filled = 0;
        while (true) {
            for (int i = 0; i < n; i++) {
                int slot = (int) ((offset[i] + next[i] * skip[i]) % size);
                while (table[slot] >= 0) {
                    next[i]++;
                    slot = (int) ((offset[i] + next[i] * skip[i]) % size);
                }
                table[slot] = sorted[i];
                next[i]++;
                if (++filled == size) {
                    return;
                }
            }
        }
    }

    /** M, the number of slots. */
    public int size() {
        return table.length;
    }

    /** The node the key hash {@code hash} maps to. */
    public int node(long hash) {
        return table[(int) Long.remainderUnsigned(hash, table.length)];
    }

    /**
     * The node of the first slot from hash mod M on (wrapping) that {@code usable} accepts,
     * or −1 if it accepts none.
     */
    public int node(long hash, IntPredicate usable) {
        int start = (int) Long.remainderUnsigned(hash, table.length);
        for (int i = 0; i < table.length; i++) {
            int owner = table[(start + i) % table.length];
            if (usable.test(owner)) {
                return owner;
            }
        }
        return -1;
    }
}

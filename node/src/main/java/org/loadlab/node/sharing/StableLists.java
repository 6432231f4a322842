package org.loadlab.node.sharing;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A node's Senders, Receivers and OK lists of the stable symmetrically initiated algorithm
 * (Shivaratri, Krueger and Singhal 1992; the slides, "A Stable Symmetrically Initiated
 * Algorithm"): every other node is in exactly one list; news about a node moves it to the head
 * of the list of its reported state, so heads hold the freshest information and tails the
 * stalest. Three intrusive doubly linked lists over node indices: O(1) moves, O(n) memory.
 */
final class StableLists {
    private static final int NONE = -1;

    private final int self;
    private final int[] prev;
    private final int[] next;
    private final byte[] list;
    private final int[] head = {NONE, NONE, NONE};
    private final int[] tail = {NONE, NONE, NONE};
    private final int[] size = new int[3];

    /**
     * @param self this node's index (never in a list)
     * @param n number of nodes
     */
    StableLists(int self, int n) {
        this.self = self;
        this.prev = new int[n];
        this.next = new int[n];
        this.list = new byte[n];
        java.util.Arrays.fill(list, (byte) NONE);
    }

    /**
     * "Initially, each node assumes that every other node is a receiver": every peer goes to the
     * Receivers list, in an order shuffled with {@code rng} so that the nodes do not all poll
     * the same peer first.
     */
    void reset(RandomGenerator rng) {
        int n = list.length;
        java.util.Arrays.fill(list, (byte) NONE);
        for (int s = 0; s < 3; s++) {
            head[s] = NONE;
            tail[s] = NONE;
            size[s] = 0;
        }
        for (int j : PeerOrder.shuffle(new int[n - 1], self, rng)) {
            moveToHead(j, PeerState.RECEIVER);
        }
    }

    /** Moves {@code node} to the head of the list of {@code state}. */
    void moveToHead(int node, PeerState state) {
        if (node == self) {
            return;
        }
        unlink(node);
        int s = state.ordinal();
        prev[node] = NONE;
        next[node] = head[s];
        if (head[s] != NONE) {
            prev[head[s]] = node;
        } else {
            tail[s] = node;
        }
        head[s] = node;
        list[node] = (byte) s;
        size[s]++;
    }

    private void unlink(int node) {
        int s = list[node];
        if (s == NONE) {
            return;
        }
        if (prev[node] != NONE) {
            next[prev[node]] = next[node];
        } else {
            head[s] = next[node];
        }
        if (next[node] != NONE) {
            prev[next[node]] = prev[node];
        } else {
            tail[s] = prev[node];
        }
        size[s]--;
        list[node] = (byte) NONE;
    }

    /** The list {@code node} is in, or null for this node itself. */
    PeerState listOf(int node) {
        int s = list[node];
        return s == NONE ? null : PeerState.values()[s];
    }

    /** Head of the list of {@code state}, or −1 if empty. */
    int head(PeerState state) {
        return head[state.ordinal()];
    }

    /** Tail of the list of {@code state}, or −1 if empty. */
    int tail(PeerState state) {
        return tail[state.ordinal()];
    }

    /** The node after {@code node} (towards the tail) in its list, or −1. */
    int after(int node) {
        return next[node];
    }

    /** The node before {@code node} (towards the head) in its list, or −1. */
    int before(int node) {
        return prev[node];
    }

    /** Number of nodes in the list of {@code state}. */
    int size(PeerState state) {
        return size[state.ordinal()];
    }

    /** The list of {@code state} from head to tail (for tests and docs). */
    List<Integer> members(PeerState state) {
        List<Integer> out = new ArrayList<>();
        for (int j = head(state); j != NONE; j = next[j]) {
            out.add(j);
        }
        return out;
    }
}

package org.loadlab.balancer.core;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.NodeWeights;

/**
 * The nodes a balancer may sample now: its allowed set without the nodes membership took
 * away and without the ones the guardrails mask. Keeps the partial Fisher–Yates sampling
 * buffer across decisions (so a sample of k costs O(k)), and an ordered view (allowed
 * order) for uniform draws and whole-pool reads. While every allowed node is in the pool,
 * the ordered view is the allowed array itself and every draw is what it was before nodes
 * could leave.
 *
 * <p>Draws may be weighted (slow start): a drawn node is kept with probability equal to its
 * weight in (0, 1], else drawn again (at most {@value #MAX_WEIGHTED_TRIES} times), so nodes
 * are drawn in proportion to their weights. Without weights (null) the draws are exactly the
 * unweighted ones.
 *
 * <p>Source: SPEC.md §2 (sampling without replacement).
 */
final class SamplingPool {
    /** Most draws for one weighted position before the last one drawn is kept. */
    static final int MAX_WEIGHTED_TRIES = 64;

    private final int[] allowed;
    private final int[] positionInAllowed;
    /** True if every node of the run is allowed: {@link #allowed} then reads no per-node state. */
    private final boolean everyNode;
    private final int[] buffer;
    private final int[] positionInBuffer;
    private int size;
    private int[] ordered;
    private int[] positionInOrdered;
    private boolean dirty;

    /**
     * @param allowed the balancer's allowed nodes (distinct, in [0, nodeCount))
     * @param nodeCount n
     */
    SamplingPool(int[] allowed, int nodeCount) {
        this.allowed = allowed.clone();
        this.positionInAllowed = new int[nodeCount];
        Arrays.fill(positionInAllowed, -1);
        for (int i = 0; i < allowed.length; i++) {
            positionInAllowed[allowed[i]] = i;
        }
        this.everyNode = allowed.length == nodeCount;
        this.buffer = allowed.clone();
        this.positionInBuffer = positionInAllowed.clone();
        this.size = allowed.length;
        this.ordered = this.allowed;
        this.positionInOrdered = positionInAllowed;
    }

    /**
     * True if {@code node} is in the allowed set. A balancer that may use every node (the
     * common case) answers from the bounds alone: each decision checks the nodes it reads and
     * routes to, and at 10^5 nodes a look-up in {@code positionInAllowed} is a cache miss.
     */
    boolean allowed(int node) {
        return node >= 0 && node < positionInAllowed.length && (everyNode || positionInAllowed[node] >= 0);
    }

    /** The allowed nodes (do not modify). */
    int[] allowedNodes() {
        return allowed;
    }

    /** Nodes in the pool. */
    int size() {
        return size;
    }

    /** True if {@code node} is in the pool. */
    boolean contains(int node) {
        return allowed(node) && positionInBuffer[node] < size;
    }

    /** Puts {@code node} in the pool or takes it out. */
    void set(int node, boolean in) {
        if (!allowed(node) || contains(node) == in) {
            return;
        }
        int p = positionInBuffer[node];
        int q = in ? size : size - 1;
        int other = buffer[q];
        buffer[p] = other;
        positionInBuffer[other] = p;
        buffer[q] = node;
        positionInBuffer[node] = q;
        size += in ? 1 : -1;
        dirty = true;
    }

    /**
     * {@code k} distinct pool nodes, uniformly without replacement; the ordered pool itself
     * when {@code k} covers it.
     */
    int[] sample(int k, RandomGenerator rng) {
        return sample(k, rng, null);
    }

    /**
     * {@code k} distinct pool nodes drawn without replacement, each in proportion to its
     * weight among the nodes not drawn yet; the ordered pool itself when {@code k} covers it.
     *
     * @param weights dynamic weights, or null for uniform draws
     */
    int[] sample(int k, RandomGenerator rng, NodeWeights weights) {
        if (k >= size) {
            return ordered();
        }
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            int j = i + rng.nextInt(size - i);
            if (weights != null) {
                for (int tries = 1; tries < MAX_WEIGHTED_TRIES; tries++) {
                    double w = weights.weight(buffer[j]);
                    if (w >= 1 || rng.nextDouble() < w) {
                        break;
                    }
                    j = i + rng.nextInt(size - i);
                }
            }
            int a = buffer[i];
            int b = buffer[j];
            buffer[i] = b;
            buffer[j] = a;
            positionInBuffer[b] = i;
            positionInBuffer[a] = j;
            out[i] = b;
        }
        return out;
    }

    /** A uniformly random pool node, or −1 if the pool is empty. */
    int uniform(RandomGenerator rng) {
        int[] o = ordered();
        return size == 0 ? -1 : o[rng.nextInt(size)];
    }

    /** A pool node drawn in proportion to {@code weights} (uniform when null), or −1 if the pool is empty. */
    int uniform(RandomGenerator rng, NodeWeights weights) {
        int node = uniform(rng);
        if (weights == null || node < 0) {
            return node;
        }
        for (int tries = 1; tries < MAX_WEIGHTED_TRIES; tries++) {
            double w = weights.weight(node);
            if (w >= 1 || rng.nextDouble() < w) {
                break;
            }
            node = uniform(rng);
        }
        return node;
    }

    /** A pool node other than {@code node} drawn in proportion to {@code weights} (uniform when null), or −1. */
    int uniformExcept(int node, RandomGenerator rng, NodeWeights weights) {
        int other = uniformExcept(node, rng);
        if (weights == null || other < 0) {
            return other;
        }
        for (int tries = 1; tries < MAX_WEIGHTED_TRIES; tries++) {
            double w = weights.weight(other);
            if (w >= 1 || rng.nextDouble() < w) {
                break;
            }
            other = uniformExcept(node, rng);
        }
        return other;
    }

    /** A uniformly random pool node other than {@code node}, or −1 if there is none. */
    int uniformExcept(int node, RandomGenerator rng) {
        int[] o = ordered();
        int pos = positionInOrdered(node);
        if (pos < 0) {
            return uniform(rng);
        }
        if (size < 2) {
            return -1;
        }
        // Uniform over the other size - 1 positions: draw in [0, size-1) and skip pos.
        int i = rng.nextInt(size - 1);
        return o[i >= pos ? i + 1 : i];
    }

    /** The pool in allowed order (the allowed array itself while nothing is out); do not modify. */
    int[] ordered() {
        if (dirty) {
            dirty = false;
            if (size == allowed.length) {
                ordered = allowed;
                positionInOrdered = positionInAllowed;
            } else {
                ordered = new int[size];
                positionInOrdered = new int[positionInAllowed.length];
                Arrays.fill(positionInOrdered, -1);
                int k = 0;
                for (int node : allowed) {
                    if (positionInBuffer[node] < size) {
                        positionInOrdered[node] = k;
                        ordered[k++] = node;
                    }
                }
            }
        }
        return ordered;
    }

    /** Position of {@code node} in {@link #ordered()}, or −1. */
    int positionInOrdered(int node) {
        ordered();
        return node >= 0 && node < positionInOrdered.length ? positionInOrdered[node] : -1;
    }
}

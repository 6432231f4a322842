package org.loadlab.balancer.pipeline;

/**
 * Which nodes a single-round policy reads per decision: none (load-blind policies), k
 * distinct nodes of the pool drawn without replacement (power-of-d, the default), k
 * independent uniform draws with replacement (the supermarket model's i.i.d. choices), or
 * the whole pool (JSQ, gmsr). A <em>local</em> sampler draws k nodes but reads nothing: its
 * scorer ranks them by what the balancer itself knows (requests in flight, measured
 * latency), as client-side P2C balancers do.
 *
 * @param k nodes to read: 0 for none, {@link #ALL} for the whole pool, else ≥ 1 (draws)
 * @param withReplacement true: k independent uniform draws, a node drawn twice is read once
 *     (so a decision reads between 1 and k distinct nodes); false: k distinct nodes
 * @param read true to read the drawn nodes' load through the information model
 *     <p>Source: SPEC.md §2 (sampling without replacement); Mitzenmacher 2001 and
 *     Vvedenskaya, Dobrushin, Karpelevich 1996 (the supermarket model's i.i.d. choices);
 *     Finagle and Envoy (P2C over local state).
 */
public record Sampler(int k, boolean withReplacement, boolean read) {
    /** {@link #k} value meaning the whole pool. */
    public static final int ALL = Integer.MAX_VALUE;
    /** Reads no load. */
    public static final Sampler NONE = new Sampler(0);
    /** Reads every node of the pool. */
    public static final Sampler WHOLE_POOL = new Sampler(ALL);

    /**
     * Validates.
     *
     * @throws IllegalArgumentException if k &lt; 0, or with replacement and k is 0 or {@link #ALL},
     *     or a local sampler draws with replacement
     */
    public Sampler {
        if (k < 0) {
            throw new IllegalArgumentException("a sampler reads k >= 0 nodes, was " + k);
        }
        if (withReplacement && (k == 0 || k == ALL)) {
            throw new IllegalArgumentException("sampling with replacement draws a finite k >= 1 nodes, was " + k);
        }
        if (withReplacement && !read) {
            throw new IllegalArgumentException("a local sampler draws distinct nodes");
        }
    }

    /** A sampler without replacement that reads what it draws (none, k distinct nodes, or the whole pool). */
    public Sampler(int k) {
        this(k, false, true);
    }

    /** k distinct nodes. @throws IllegalArgumentException if k &lt; 1 */
    public static Sampler distinct(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("power-of-k needs k >= 1, was " + k);
        }
        return new Sampler(k);
    }

    /** k independent uniform draws from the pool (duplicates read once). @throws IllegalArgumentException if k &lt; 1 */
    public static Sampler withReplacement(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("power-of-k needs k >= 1, was " + k);
        }
        return new Sampler(k, true, true);
    }

    /**
     * k distinct nodes drawn by weight, read through nothing: candidates carry no load.
     *
     * @throws IllegalArgumentException if k &lt; 1
     */
    public static Sampler local(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("a local sampler draws k >= 1 nodes, was " + k);
        }
        return new Sampler(k, false, false);
    }

    /** True if this sampler draws nodes without reading them. */
    public boolean local() {
        return !read && k > 0;
    }

    /**
     * Nodes drawn from a pool of {@code poolSize} nodes: the whole pool, min(k, pool) distinct
     * nodes, or k draws with replacement (fewer distinct nodes are read when draws repeat).
     */
    public int reads(int poolSize) {
        if (withReplacement) {
            return poolSize == 0 ? 0 : k;
        }
        return k == ALL ? poolSize : Math.min(k, poolSize);
    }

    /** True if this sampler reads load at all. */
    public boolean readsLoad() {
        return read && k > 0;
    }
}

package org.loadlab.balancer.pipeline;

/**
 * Which nodes a single-round policy reads per decision: none (load-blind policies), k
 * distinct nodes of the pool drawn without replacement (power-of-d), or the whole pool
 * (JSQ, gmsr). A <em>local</em> sampler draws k nodes but reads nothing: its scorer ranks
 * them by what the balancer itself knows (requests in flight, measured latency), as
 * client-side P2C balancers do.
 *
 * @param k nodes to read: 0 for none, {@link #ALL} for the whole pool, else ≥ 1
 * @param read true to read the drawn nodes' load through the information model
 *     <p>Source: SPEC.md §2 (sampling without replacement), Mitzenmacher 2001; Finagle and
 *     Envoy (P2C over local state).
 */
public record Sampler(int k, boolean read) {
    /** {@link #k} value meaning the whole pool. */
    public static final int ALL = Integer.MAX_VALUE;
    /** Reads no load. */
    public static final Sampler NONE = new Sampler(0);
    /** Reads every node of the pool. */
    public static final Sampler WHOLE_POOL = new Sampler(ALL);

    /** Validates. @throws IllegalArgumentException if k &lt; 0 */
    public Sampler {
        if (k < 0) {
            throw new IllegalArgumentException("a sampler reads k >= 0 nodes, was " + k);
        }
    }

    /** A sampler that reads the nodes it draws (none when k = 0). */
    public Sampler(int k) {
        this(k, true);
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
        return new Sampler(k, false);
    }

    /** True if this sampler draws nodes without reading them. */
    public boolean local() {
        return !read && k > 0;
    }

    /** k distinct nodes. @throws IllegalArgumentException if k &lt; 1 */
    public static Sampler distinct(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("power-of-k needs k >= 1, was " + k);
        }
        return new Sampler(k);
    }

    /** Nodes read from a pool of {@code poolSize} nodes. */
    public int reads(int poolSize) {
        return k == ALL ? poolSize : Math.min(k, poolSize);
    }

    /** True if this sampler reads load at all. */
    public boolean readsLoad() {
        return read && k > 0;
    }
}

package org.loadlab.balancer.policy;

/**
 * Sticky-Lazy's balancer-side state: at most one cached server and its blind credit, with
 * the seed's caching rule. Shared by the simulated policy ({@link StickyLazyPolicy}) and the
 * in-process library ({@code org.loadlab.balancer.library.StickyLazyBalancer}), so both
 * follow exactly the same rule. Servers are named by int ids. Not thread-safe.
 *
 * <p>Rule (seed 001, §2): a probe that finds server {@code s} with load {@code L < T} caches it
 * with credit {@code T − L}; a server with {@code L ≥ T} is never cached; every blind request
 * spends one credit; the cache is invalidated by the safety net, or when the cached server is
 * removed or refuses a request. Invariants (checked by tests): at any time
 * {@code credit() ≤ T − loadAtCaching()} and {@code loadAtCaching() < T} while a server is
 * cached.
 *
 * <p>Source: seed 001 ("get_next" pseudo-code), SPEC.md §3 and §5.
 */
public final class StickyCache {
    /** "No server": returned by {@link #takeBlind()} and {@link #node()} when nothing is cached. */
    public static final int NONE = -1;

    /** Observes every caching event (for tests and tracing). */
    @FunctionalInterface
    public interface Listener {
        /**
         * A server was cached.
         *
         * @param node the cached server's id
         * @param load the load it reported (the probe's reply), {@code < T}
         * @param credit the credit granted, {@code T − load}
         */
        void cached(int node, int load, int credit);
    }

    private final int threshold;
    private int node = NONE;
    private int credit;
    private int loadAtCaching;
    private long caches;
    private long creditGranted;
    private long generation;
    private Listener listener;

    /**
     * @param threshold T, the sticky threshold, ≥ 1
     * @throws IllegalArgumentException if T &lt; 1
     */
    public StickyCache(int threshold) {
        if (threshold < 1) {
            throw new IllegalArgumentException("sticky-lazy threshold T must be >= 1, was " + threshold);
        }
        this.threshold = threshold;
    }

    /** T, the sticky threshold. */
    public int threshold() {
        return threshold;
    }

    /**
     * Blind phase: if a server is cached with credit left, spends one credit and returns it.
     *
     * @return the cached server's id, or {@link #NONE} (then the caller probes)
     */
    public int takeBlind() {
        if (node == NONE || credit <= 0) {
            return NONE;
        }
        credit--;
        return node;
    }

    /**
     * Offers a probed load: caches {@code node} with credit {@code T − load} if
     * {@code load < T} (replacing any cached server), else leaves the cache as it is.
     *
     * @param node the probed server's id (≥ 0)
     * @param load its load (queue length q_j, or local outstanding count), ≥ 0
     * @return true if the server is now cached
     * @throws IllegalArgumentException if node &lt; 0 or load &lt; 0
     */
    public boolean offer(int node, int load) {
        if (node < 0 || load < 0) {
            throw new IllegalArgumentException("offer(node " + node + ", load " + load + "): both must be >= 0");
        }
        if (load >= threshold) {
            return false;
        }
        this.node = node;
        this.loadAtCaching = load;
        this.credit = threshold - load;
        caches++;
        creditGranted += credit;
        generation++;
        if (listener != null) {
            listener.cached(node, load, credit);
        }
        return true;
    }

    /** Safety net: drops the cached server and its credit. */
    public void invalidate() {
        generation++;
        node = NONE;
        credit = 0;
        loadAtCaching = 0;
    }

    /**
     * Invalidates the cache if it holds {@code node} (the server was removed or refused a request).
     *
     * @param node a server id
     * @return true if it was cached
     */
    public boolean forget(int node) {
        if (this.node == node && node != NONE) {
            invalidate();
            return true;
        }
        return false;
    }

    /** The cached server's id, or {@link #NONE}. */
    public int node() {
        return node;
    }

    /** Blind requests left for the cached server (0 when none is cached). */
    public int credit() {
        return credit;
    }

    /** Load the cached server reported when it was cached (0 when none is cached). */
    public int loadAtCaching() {
        return loadAtCaching;
    }

    /**
     * Changes so far (every caching and every invalidation): a decision that remembers the
     * generation it started in can tell whether another, overlapping decision has installed a
     * fresher cache meanwhile.
     */
    public long generation() {
        return generation;
    }

    /** Caching events so far. */
    public long caches() {
        return caches;
    }

    /** Sum of the credits granted so far, requests. */
    public long creditGranted() {
        return creditGranted;
    }

    /**
     * Sets (or clears, with null) the observer of caching events.
     *
     * @param listener called after every caching event
     */
    public void listener(Listener listener) {
        this.listener = listener;
    }
}

package org.loadlab.balancer.policy;

/**
 * Sticky-Lazy's balancer-side state: at most one cached server and its blind credit, with
 * the seed's caching rule. Shared by the simulated policy ({@link StickyLazyPolicy}) and the
 * in-process library ({@code org.loadlab.balancer.library.StickyLazyBalancer}), so both
 * follow exactly the same rule. Servers are named by int ids. Not thread-safe.
 *
 * <p>Rule (seed 001, §2): a probe that finds server {@code s} with load {@code L < T} caches it
 * with credit {@code T − L} (the seed's pseudo-code; {@link Credit#HEADROOM}) or, as an option,
 * {@code T − L − 1} ({@link Credit#HEADROOM_MINUS_ONE}: the convention under which the seed's
 * E[P] derivation, T − L requests per cache cycle, is exact, because the request the probe
 * routes is one of them); a server with {@code L ≥ T} is never cached; every blind request
 * spends one credit; the cache is invalidated by the safety net, or when the cached server is
 * removed or refuses a request. Invariants (checked by tests): at any time
 * {@code credit() ≤ rule().credit(T, loadAtCaching())} and {@code loadAtCaching() < T} while
 * a server is cached.
 *
 * <p>Source: seed 001 ("get_next" pseudo-code), SPEC.md §3 and §5.
 */
public final class StickyCache {
    /** "No server": returned by {@link #takeBlind()} and {@link #node()} when nothing is cached. */
    public static final int NONE = -1;

    /**
     * How much blind credit a caching grants: the headroom T − L, or one less.
     *
     * <p>Source: seed 001 (§2 pseudo-code: {@code blind_capacity = T - load[s1]}; §3 "E[P] for
     * Sticky-Lazy": a cycle serves T − L requests).
     */
    public enum Credit {
        /** T − L: the seed's pseudo-code; a cycle sends 1 + T − L requests (the probed one and the credit). */
        HEADROOM("T-q"),
        /** T − L − 1: a cycle sends T − L requests, as the seed's E[P] derivation counts. */
        HEADROOM_MINUS_ONE("T-q-1");

        private final String key;

        Credit(String key) {
            this.key = key;
        }

        /** The value of {@code policy.sticky-lazy.credit} that names this rule. */
        public String key() {
            return key;
        }

        /**
         * The credit granted to a server caught at {@code load} below {@code threshold}.
         *
         * @param threshold T ≥ 1
         * @param load L, 0 ≤ L &lt; T
         * @return T − L or T − L − 1, ≥ 0
         */
        public int credit(int threshold, int load) {
            return this == HEADROOM ? threshold - load : threshold - load - 1;
        }

        /** The names of the rules, for error messages. */
        public static java.util.List<String> keys() {
            return java.util.Arrays.stream(values()).map(Credit::key).toList();
        }

        /**
         * The rule named {@code key}.
         *
         * @param key {@code T-q} or {@code T-q-1}
         * @return the rule
         * @throws IllegalArgumentException naming the value and the allowed names
         */
        public static Credit of(String key) {
            for (Credit c : values()) {
                if (c.key.equals(key)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("sticky-lazy credit rule '" + key + "' is unknown; allowed: "
                    + String.join(", ", keys()));
        }
    }

    /** Observes every caching event (for tests and tracing). */
    @FunctionalInterface
    public interface Listener {
        /**
         * A server was cached.
         *
         * @param node the cached server's id
         * @param load the load it reported (the probe's reply), {@code < T}
         * @param credit the credit granted, {@code T − load} (or {@code T − load − 1})
         */
        void cached(int node, int load, int credit);
    }

    private final int threshold;
    private final Credit rule;
    private int node = NONE;
    private int credit;
    private int loadAtCaching;
    private long caches;
    private long creditGranted;
    private long generation;
    private Listener listener;

    /**
     * A cache with the seed's credit rule T − L.
     *
     * @param threshold T, the sticky threshold, ≥ 1
     * @throws IllegalArgumentException if T &lt; 1
     */
    public StickyCache(int threshold) {
        this(threshold, Credit.HEADROOM);
    }

    /**
     * @param threshold T, the sticky threshold, ≥ 1
     * @param rule the credit a caching grants
     * @throws IllegalArgumentException if T &lt; 1
     * @throws NullPointerException if {@code rule} is null
     */
    public StickyCache(int threshold, Credit rule) {
        if (threshold < 1) {
            throw new IllegalArgumentException("sticky-lazy threshold T must be >= 1, was " + threshold);
        }
        this.threshold = threshold;
        this.rule = java.util.Objects.requireNonNull(rule, "rule");
    }

    /** T, the sticky threshold. */
    public int threshold() {
        return threshold;
    }

    /** The credit rule. */
    public Credit rule() {
        return rule;
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
     * Offers a probed load: caches {@code node} with the rule's credit ({@code T − load} or
     * {@code T − load − 1}) if {@code load < T} (replacing any cached server), else leaves the
     * cache as it is. A server cached with credit 0 (T − L − 1 at L = T − 1) gets no blind
     * request: the next one probes again.
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
        this.credit = rule.credit(threshold, load);
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

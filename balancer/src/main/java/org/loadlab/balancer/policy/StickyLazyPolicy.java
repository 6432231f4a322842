package org.loadlab.balancer.policy;

import org.loadlab.balancer.decision.RoutingPolicy;

import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.Step;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * {@code sticky-lazy} (threshold T): seed 001's protocol as a multi-round policy.
 *
 * <ol>
 *   <li><b>Lazy (blind)</b>: while a server is cached with credit left, route to it with zero
 *       probes and spend one credit.</li>
 *   <li><b>Sticky</b>: otherwise read one uniformly random allowed node (1 probe). If its
 *       load (queue length q_j from the {@code ProbeReply}) is below T, cache it with credit
 *       {@code T − q} (or {@code T − q − 1}, {@link StickyCache.Credit}) and route there.</li>
 *   <li><b>Safety net</b>: else read a second, distinct random node (Po2C fallback) and route
 *       to the lighter of the two (ties at random). If the winner is below T it is cached with
 *       credit {@code T − q}; otherwise the cache is invalidated.</li>
 * </ol>
 * A node that did not answer (probe timeout), is down, or never reported (cached model) is
 * not usable; it is never cached. With no usable node the request is rejected (probe,
 * oracle) or, in the cached model before any report, routed uniformly among the unknown
 * nodes without caching. A refusal (queue full) from the cached node invalidates the cache.
 * When decisions overlap (probe replies in flight while new requests arrive), the newest
 * caching wins, and a safety net only invalidates the cache it saw when its decision began,
 * never a fresher one installed meanwhile by another decision.
 * The request routed by a probe does not spend credit, so one cache cycle sends at most
 * {@code 1 + T − L} requests to the server (at most T + 1 with L = 0); with the credit rule
 * T − q − 1, at most {@code T − L}.
 *
 * <p>Counters (per run, summed over balancers): {@value #BLIND_ROUTES}, {@value #FIRST_PROBES},
 * {@value #FIRST_PROBE_HITS} (first probe found load &lt; T: the seed's t is hits / first
 * probes), {@value #FALLBACK_PROBES}, {@value #FALLBACK_CACHES}, {@value #INVALIDATIONS},
 * {@value #CREDIT_GRANTED} (Σ of the credits granted, T − L or T − L − 1). Probes per request = (first + fallback probes) / requests.
 *
 * <p>Several balancers each run their own instance, hence their own cache.
 *
 * <p>Source: seed 001 (get_next pseudo-code; §2 "three phases per cache cycle"), SPEC.md §3, §5.
 */
public final class StickyLazyPolicy implements RoutingPolicy {
    /** Counter: requests routed blindly from the cache (0 probes). */
    public static final String BLIND_ROUTES = "blind_routes";
    /** Counter: first probes (one per non-blind request). */
    public static final String FIRST_PROBES = "first_probes";
    /** Counter: first probes that found a usable node with load &lt; T (then cached). */
    public static final String FIRST_PROBE_HITS = "first_probe_hits";
    /** Counter: second (fallback) probes of the safety net. */
    public static final String FALLBACK_PROBES = "fallback_probes";
    /** Counter: safety-net decisions whose winner had load &lt; T and was cached. */
    public static final String FALLBACK_CACHES = "fallback_caches";
    /** Counter: safety-net decisions that invalidated the cache (winner at or above T, or none usable). */
    public static final String INVALIDATIONS = "cache_invalidations";
    /** Counter: sum of credits T − L granted at caching, requests. */
    public static final String CREDIT_GRANTED = "credit_granted";

    private final StickyCache cache;

    /**
     * With the seed's credit rule T − q.
     *
     * @param threshold T ≥ 1 ({@code policy.sticky-lazy.threshold}, default 3)
     * @throws IllegalArgumentException if T &lt; 1
     */
    public StickyLazyPolicy(int threshold) {
        this(threshold, StickyCache.Credit.HEADROOM);
    }

    /**
     * @param threshold T ≥ 1 ({@code policy.sticky-lazy.threshold}, default 3)
     * @param credit the credit a caching grants ({@code policy.sticky-lazy.credit}: T − q, or T − q − 1)
     * @throws IllegalArgumentException if T &lt; 1
     * @throws NullPointerException if {@code credit} is null
     */
    public StickyLazyPolicy(int threshold, StickyCache.Credit credit) {
        this.cache = new StickyCache(threshold, credit);
    }

    @Override
    public String name() {
        return "sticky-lazy";
    }

    /** T. */
    public int threshold() {
        return cache.threshold();
    }

    /** This balancer's cache (read it in tests; do not modify it while a run is going). */
    public StickyCache cache() {
        return cache;
    }

    @Override
    public Step start(DecisionContext c) {
        int blind = cache.takeBlind();
        if (blind != StickyCache.NONE) {
            c.count(BLIND_ROUTES, 1);
            return Step.route(blind);
        }
        int first = c.sampleAllowed();
        if (first < 0) {
            return Step.reject(); // every allowed node is gone
        }
        long generation = cache.generation();
        c.count(FIRST_PROBES, 1);
        return Step.read((read, cx) -> afterFirst(first, read, generation, cx), first);
    }

    private Step afterFirst(int first, Candidates firstRead, long generation, DecisionContext c) {
        Seen a = Seen.of(first, firstRead);
        if (a.usable && a.queue < cache.threshold()) {
            c.count(FIRST_PROBE_HITS, 1);
            cacheAt(first, a.queue, c);
            return Step.route(first);
        }
        int second = c.sampleAllowedExcept(first);
        if (second < 0) {
            return settle(a, null, generation, c); // a single node in the pool: no distinct second probe
        }
        c.count(FALLBACK_PROBES, 1);
        return Step.read((read, cx) -> settle(a, Seen.of(second, read), generation, cx), second);
    }

    /**
     * Safety net: the lighter usable node of the two wins; cache it if below T, else invalidate
     * the cache, unless an overlapping decision installed a fresher one since this decision
     * started (its probe says nothing about our two nodes' loads).
     */
    private Step settle(Seen a, Seen b, long generation, DecisionContext c) {
        boolean ua = a.usable;
        boolean ub = b != null && b.usable;
        int winner;
        int load;
        if (ua && ub) {
            boolean pickA = a.queue < b.queue || (a.queue == b.queue && c.random().nextBoolean());
            winner = pickA ? a.node : b.node;
            load = pickA ? a.queue : b.queue;
        } else if (ua || ub) {
            winner = ua ? a.node : b.node;
            load = ua ? a.queue : b.queue;
        } else {
            invalidate(generation, c);
            if (c.unknownLoadRoutable()) {
                boolean unknownA = a.unknown;
                boolean unknownB = b != null && b.unknown;
                if (unknownA && unknownB) {
                    return Step.route(c.random().nextBoolean() ? a.node : b.node);
                }
                if (unknownA || unknownB) {
                    return Step.route(unknownA ? a.node : b.node);
                }
            }
            return Step.reject();
        }
        if (load < cache.threshold()) {
            cacheAt(winner, load, c);
            c.count(FALLBACK_CACHES, 1);
        } else {
            invalidate(generation, c);
        }
        return Step.route(winner);
    }

    /** What one probe of the decision found: usable (answered, up, not masked) with its queue, or unknown. */
    private record Seen(int node, boolean usable, int queue, boolean unknown) {
        static Seen of(int node, Candidates read) {
            LoadSnapshot s = read.load(0);
            return new Seen(node, read.usable(0), s == null ? 0 : s.queueLength(), read.unknown(0));
        }
    }

    private void invalidate(long generation, DecisionContext c) {
        if (cache.generation() == generation) {
            cache.invalidate();
            c.count(INVALIDATIONS, 1);
        }
    }

    private void cacheAt(int node, int load, DecisionContext c) {
        cache.offer(node, load);
        c.count(CREDIT_GRANTED, cache.rule().credit(cache.threshold(), load));
    }

    @Override
    public void onResponse(int node, boolean served) {
        if (!served) {
            cache.forget(node);
        }
    }

    @Override
    public void onNodeGone(int node) {
        cache.forget(node);
    }

    @Override
    public double score(LoadSnapshot load, int inFlight) {
        return load == null || !load.available() ? Double.NaN : load.queueLength();
    }

    @Override
    public String rule() {
        return "queue length q_j: below T = " + cache.threshold() + " the node is cached with credit "
                + (cache.rule() == StickyCache.Credit.HEADROOM ? "T - q_j" : "T - q_j - 1");
    }
}

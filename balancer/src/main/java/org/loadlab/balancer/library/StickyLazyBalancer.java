package org.loadlab.balancer.library;

import java.util.Collection;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.policy.StickyCache;

/**
 * Sticky-Lazy as an in-process, thread-safe library class (seed 001's {@code StickyLazyBalancer}):
 * while a cached server has credit, {@link #next()} returns it with zero probes; otherwise it
 * probes one random server (reads its local outstanding count L), caches it with credit
 * {@code T − L} if {@code L < T}, or else probes a second, distinct server and returns the
 * lighter one (Po2C fallback), caching it if below T and invalidating the cache otherwise.
 * The caching rule is {@link StickyCache}, the same code the simulated {@code sticky-lazy}
 * policy uses.
 *
 * <pre>{@code
 * StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(List.of("s1", "s2", "s3", "s4"), 3);
 * String target = lb.next();      // route a request
 * try { call(target); } finally { lb.release(target); }
 * lb.add("s5");                   // servers can change at run time
 * lb.remove("s2");                // never returned again, also not from the blind cache
 * double p = lb.stats().probesPerRequest();
 * }</pre>
 *
 * <p>Thread-safe: every method holds one lock for a few field updates (no I/O under it).
 * Load = local outstanding count, so only requests through this instance are seen.
 *
 * <p>Source: seed 001 (README quick start and get_next pseudo-code), SPEC.md §5.
 *
 * @param <S> the server type (compared with {@code equals})
 */
public final class StickyLazyBalancer<S> extends LocalBalancer<S> {
    private final StickyCache cache;

    /**
     * @param servers initial servers (may be empty; distinct)
     * @param threshold T ≥ 1 (the seed's default is 3)
     * @throws IllegalArgumentException if T &lt; 1 or a server is listed twice
     * @throws NullPointerException if {@code servers} or a server is null
     */
    public StickyLazyBalancer(Collection<? extends S> servers, int threshold) {
        this(servers, threshold, new SplittableRandom());
    }

    /**
     * @param servers initial servers (may be empty; distinct)
     * @param threshold T ≥ 1
     * @param random the random source for sampling and ties (used under the lock; pass a seeded
     *     one for reproducible tests)
     * @throws IllegalArgumentException if T &lt; 1 or a server is listed twice
     * @throws NullPointerException if an argument or a server is null
     */
    public StickyLazyBalancer(Collection<? extends S> servers, int threshold, RandomGenerator random) {
        super(servers, random);
        this.cache = new StickyCache(threshold);
    }

    /** T. */
    public int threshold() {
        return cache.threshold();
    }

    /**
     * The currently cached server, or null (a snapshot: another thread may change it at once).
     */
    public S cachedServer() {
        lock.lock();
        try {
            Entry<S> e = cache.node() == StickyCache.NONE ? null : byId.get(cache.node());
            return e == null ? null : e.server;
        } finally {
            lock.unlock();
        }
    }

    /** Blind credit left on the cached server (0 when none is cached). */
    public int credit() {
        lock.lock();
        try {
            return cache.credit();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Observes every caching event under the lock (for tests and tracing; keep it fast).
     *
     * @param listener called with (server id, load, credit); null clears it
     */
    public void cacheListener(StickyCache.Listener listener) {
        lock.lock();
        try {
            cache.listener(listener);
        } finally {
            lock.unlock();
        }
    }

    @Override
    Entry<S> choose() {
        int blind = cache.takeBlind();
        if (blind != StickyCache.NONE) {
            Entry<S> e = byId.get(blind);
            if (e != null && e.index >= 0) {
                blindRoutes++;
                return e;
            }
            cache.invalidate(); // cannot happen (removal forgets the cache); kept as a guard
        }
        Entry<S> first = sample();
        probes++;
        firstProbes++;
        if (cache.offer(first.id, first.outstanding)) {
            firstProbeHits++;
            return first;
        }
        Entry<S> second = sampleExcept(first);
        if (second == null) {
            cache.invalidate();
            return first;
        }
        probes++;
        fallbackProbes++;
        Entry<S> winner = lighter(first, second);
        if (!cache.offer(winner.id, winner.outstanding)) {
            cache.invalidate();
        }
        return winner;
    }

    @Override
    void removed(Entry<S> e) {
        cache.forget(e.id);
    }
}

package org.loadlab.balancer.library;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * Shared machinery of the in-process balancers: the server set (uniform sampling without
 * replacement, add / remove at run time), local outstanding counts, counters, and one
 * {@link ReentrantLock} that every public method holds for a few field updates, so all of
 * them are linearizable and the counters always add up. Subclasses implement
 * {@link #choose()} under the lock.
 *
 * @param <S> the server type
 */
abstract class LocalBalancer<S> implements LoadBalancer<S> {
    /** One server: stable id, position in {@link #active} (-1 once removed), outstanding count. */
    static final class Entry<S> {
        final S server;
        final int id;
        int index;
        int outstanding;

        Entry(S server, int id, int index) {
            this.server = server;
            this.id = id;
            this.index = index;
        }
    }

    final ReentrantLock lock = new ReentrantLock();
    final RandomGenerator random;
    final List<Entry<S>> active = new ArrayList<>();
    private final Map<S, Entry<S>> entries = new HashMap<>();
    final Map<Integer, Entry<S>> byId = new HashMap<>();
    private int nextId;
    long requests;
    long probes;
    long blindRoutes;
    long firstProbes;
    long firstProbeHits;
    long fallbackProbes;
    private long releases;
    private long outstandingTotal;

    LocalBalancer(Collection<? extends S> servers, RandomGenerator random) {
        this.random = Objects.requireNonNull(random, "random");
        Objects.requireNonNull(servers, "servers");
        for (S s : servers) {
            if (!add(s)) {
                throw new IllegalArgumentException("server " + s + " is listed twice");
            }
        }
    }

    /** Picks an entry among {@link #active} (non-empty), counting its probes; lock held. */
    abstract Entry<S> choose();

    /** A server was removed (lock held): drop it from any cache. */
    void removed(Entry<S> e) {
    }

    @Override
    public final S next() {
        lock.lock();
        try {
            if (active.isEmpty()) {
                throw new NoSuchElementException("no servers to route to; add one first");
            }
            Entry<S> e = choose();
            requests++;
            e.outstanding++;
            outstandingTotal++;
            return e.server;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final void release(S server) {
        Objects.requireNonNull(server, "server");
        lock.lock();
        try {
            Entry<S> e = entries.get(server);
            if (e == null || e.outstanding == 0) {
                throw new IllegalStateException("release(" + server + ") without an outstanding next() for it"
                        + " (released twice, or never returned by next())");
            }
            e.outstanding--;
            outstandingTotal--;
            releases++;
            if (e.index < 0 && e.outstanding == 0) {
                forget(e);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final boolean add(S server) {
        Objects.requireNonNull(server, "server");
        lock.lock();
        try {
            Entry<S> e = entries.get(server);
            if (e != null && e.index >= 0) {
                return false;
            }
            if (e == null) {
                e = new Entry<>(server, nextId++, -1);
                entries.put(server, e);
                byId.put(e.id, e);
            }
            e.index = active.size();
            active.add(e);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final boolean remove(S server) {
        Objects.requireNonNull(server, "server");
        lock.lock();
        try {
            Entry<S> e = entries.get(server);
            if (e == null || e.index < 0) {
                return false;
            }
            Entry<S> last = active.remove(active.size() - 1);
            if (last != e) {
                active.set(e.index, last);
                last.index = e.index;
            }
            e.index = -1;
            removed(e);
            if (e.outstanding == 0) {
                forget(e);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void forget(Entry<S> e) {
        entries.remove(e.server);
        byId.remove(e.id);
    }

    @Override
    public final List<S> servers() {
        lock.lock();
        try {
            List<S> out = new ArrayList<>(active.size());
            for (Entry<S> e : active) {
                out.add(e.server);
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final int outstanding(S server) {
        lock.lock();
        try {
            Entry<S> e = entries.get(server);
            return e == null ? 0 : e.outstanding;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final BalancerStats stats() {
        lock.lock();
        try {
            return new BalancerStats(requests, probes, blindRoutes, firstProbes, firstProbeHits, fallbackProbes,
                    releases, outstandingTotal);
        } finally {
            lock.unlock();
        }
    }

    /** A uniformly random active entry; lock held, {@link #active} non-empty. */
    Entry<S> sample() {
        return active.get(random.nextInt(active.size()));
    }

    /** A uniformly random active entry other than {@code not}, or null if there is none; lock held. */
    Entry<S> sampleExcept(Entry<S> not) {
        int m = active.size();
        if (not.index < 0) {
            return sample();
        }
        if (m < 2) {
            return null;
        }
        int i = random.nextInt(m - 1);
        return active.get(i >= not.index ? i + 1 : i);
    }

    /** The entry with fewer outstanding requests, ties at random; lock held. */
    Entry<S> lighter(Entry<S> a, Entry<S> b) {
        if (a.outstanding != b.outstanding) {
            return a.outstanding < b.outstanding ? a : b;
        }
        return random.nextBoolean() ? a : b;
    }
}

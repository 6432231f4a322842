package org.loadlab.balancer.library;

import java.util.Collection;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Strict power-of-two-choices as an in-process, thread-safe library class (seed 001's
 * baseline): every {@link #next()} probes two distinct random servers (reads their local
 * outstanding counts) and returns the one with fewer, ties at random; 2 probes per request
 * (1 with a single server).
 *
 * <pre>{@code
 * StrictPo2cBalancer<URI> lb = new StrictPo2cBalancer<>(backends);
 * URI target = lb.next();
 * try { send(target); } finally { lb.release(target); }
 * }</pre>
 *
 * <p>Source: seed 001 ("Strict Po2C: sample 2 servers, probe both, route to the lighter one"),
 * SPEC.md §5; Mitzenmacher 2001.
 *
 * @param <S> the server type (compared with {@code equals})
 */
public final class StrictPo2cBalancer<S> extends LocalBalancer<S> {
    /**
     * @param servers initial servers (may be empty; distinct)
     * @throws IllegalArgumentException if a server is listed twice
     * @throws NullPointerException if {@code servers} or a server is null
     */
    public StrictPo2cBalancer(Collection<? extends S> servers) {
        this(servers, new SplittableRandom());
    }

    /**
     * @param servers initial servers (may be empty; distinct)
     * @param random the random source for sampling and ties (used under the lock)
     * @throws IllegalArgumentException if a server is listed twice
     * @throws NullPointerException if an argument or a server is null
     */
    public StrictPo2cBalancer(Collection<? extends S> servers, RandomGenerator random) {
        super(servers, random);
    }

    @Override
    Entry<S> choose() {
        Entry<S> a = sample();
        probes++;
        Entry<S> b = sampleExcept(a);
        if (b == null) {
            return a;
        }
        probes++;
        return lighter(a, b);
    }
}

package org.loadlab.balancer.library;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * An in-process, thread-safe load balancer over servers of any type {@code S} (URLs,
 * connection pools, ...): {@link #next()} picks a server for a request, {@link #release}
 * reports that the request finished. A server's load is its <em>local outstanding count</em>:
 * requests this balancer handed out with {@code next()} and that were not yet released.
 * No actor system, no network: a "probe" reads that count (and is counted as one probe).
 *
 * <p>Servers are compared with {@code equals}/{@code hashCode}; they can be added and removed
 * at run time. A removed server is never returned again (until it is added back), but its
 * outstanding requests can still be released.
 *
 * <p>Source: seed 001 (the {@code stickybalancer} library: {@code get_next()},
 * {@code release(server)}), SPEC.md §5.
 *
 * @param <S> the server type
 */
public interface LoadBalancer<S> {
    /**
     * Picks a server for one request and counts one outstanding request on it. Call
     * {@link #release} with the returned server when the request completes.
     *
     * @return a current server
     * @throws NoSuchElementException if there are no servers
     */
    S next();

    /**
     * One request handed out by {@link #next()} to {@code server} has completed.
     *
     * @param server a server returned by {@code next()}
     * @throws IllegalStateException if {@code server} has no outstanding request (a release
     *     without a matching {@code next()}, or a second release of the same request)
     * @throws NullPointerException if {@code server} is null
     */
    void release(S server);

    /**
     * Adds a server (it may be returned from the next call of {@code next()} on).
     *
     * @param server the server
     * @return false if it was already present
     * @throws NullPointerException if {@code server} is null
     */
    boolean add(S server);

    /**
     * Removes a server: {@code next()} never returns it again (a blind cache holding it is
     * dropped). Its outstanding requests may still be released.
     *
     * @param server the server
     * @return false if it was not present
     * @throws NullPointerException if {@code server} is null
     */
    boolean remove(S server);

    /** The current servers, a snapshot in no particular order. */
    List<S> servers();

    /**
     * @param server a server (current or removed)
     * @return its outstanding requests (0 if unknown)
     */
    int outstanding(S server);

    /** A consistent snapshot of the counters. */
    BalancerStats stats();
}

package org.loadlab.balancer.library;

/**
 * Counters of an in-process balancer, read at one instant (all under the same lock, so they
 * are consistent with each other).
 *
 * @param requests calls of {@code next()} that returned a server
 * @param probes load reads (outstanding counts read to decide): first + fallback probes for
 *     Sticky-Lazy, 2 per request for strict Po2C (1 with a single server)
 * @param blindRoutes requests routed from the blind cache with zero probes (Sticky-Lazy)
 * @param firstProbes first probes (Sticky-Lazy: one per non-blind request)
 * @param firstProbeHits first probes that found load &lt; T, i.e. cached the server (the seed's t
 *     is {@code firstProbeHits / firstProbes})
 * @param fallbackProbes second, distinct probes of the safety net
 * @param releases calls of {@code release} that matched an outstanding request
 * @param outstanding requests handed out and not yet released, over all servers
 */
public record BalancerStats(long requests, long probes, long blindRoutes, long firstProbes, long firstProbeHits,
                            long fallbackProbes, long releases, long outstanding) {
    /** Probes per request (NaN before the first request). */
    public double probesPerRequest() {
        return requests == 0 ? Double.NaN : (double) probes / requests;
    }

    /** Share t of first probes that found load &lt; T (NaN without first probes). */
    public double firstProbeHitRate() {
        return firstProbes == 0 ? Double.NaN : (double) firstProbeHits / firstProbes;
    }
}

package org.loadlab.balancer.retry;

import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter applied after the cap: the wait before retry r
 * (r = 1, 2, ...) is uniform on [0, min(max, base · 2^(r−1))]. Capping the exponential first
 * and jittering what is left keeps retries at the cap spread over [0, max]; jittering first
 * and capping after would pile them up at exactly max.
 *
 * <p>Source: Brooker, "Exponential Backoff And Jitter" (AWS Architecture Blog, 2015: full
 * jitter); Envoy's retry back-off (25 ms base, 10 × base maximum).
 */
public final class Backoff {
    private Backoff() {
    }

    /**
     * The cap of the wait before retry {@code retry}: min(max, base · 2^(retry−1)).
     *
     * @param retry 1 for the first retry
     * @param base seconds, ≥ 0
     * @param max seconds, ≥ base
     */
    public static double ceiling(int retry, double base, double max) {
        int doublings = Math.min(Math.max(0, retry - 1), 62);
        return Math.min(max, base * Math.pow(2, doublings));
    }

    /**
     * A wait before retry {@code retry}, uniform on [0, {@link #ceiling}].
     *
     * @param retry 1 for the first retry
     * @param base seconds, ≥ 0
     * @param max seconds, ≥ base
     * @param rng the balancer's random stream (not drawn from when the ceiling is 0)
     * @return seconds, ≥ 0
     */
    public static double wait(int retry, double base, double max, RandomGenerator rng) {
        double ceiling = ceiling(retry, base, max);
        return ceiling > 0 ? rng.nextDouble() * ceiling : 0;
    }
}

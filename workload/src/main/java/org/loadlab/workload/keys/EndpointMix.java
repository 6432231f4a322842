package org.loadlab.workload.keys;

import java.util.random.RandomGenerator;

/**
 * The endpoint of each request (seed 003's /auth, /checkout, /play-video, /analytics, /logs):
 * endpoint i with probability weights[i] / Σ weights, drawn from its own random stream.
 *
 * <p>Source: seed 003 (endpoints with priorities), SPEC.md §6.
 */
public final class EndpointMix {
    /** No endpoints: every request names none ({@code -1}). */
    public static final EndpointMix NONE = new EndpointMix();

    private final double[] cumulative;
    private final RandomGenerator rng;

    private EndpointMix() {
        this.cumulative = new double[0];
        this.rng = null;
    }

    /**
     * @param weights one weight per endpoint index, ≥ 0, not all 0
     * @param rng the mix's own stream
     * @throws IllegalArgumentException if a weight is negative or all are 0
     */
    public EndpointMix(double[] weights, RandomGenerator rng) {
        double total = 0;
        for (double w : weights) {
            if (!(w >= 0 && w < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("endpoint weights must be >= 0, got " + java.util.Arrays.toString(weights));
            }
            total += w;
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("endpoint weights are all 0");
        }
        this.cumulative = new double[weights.length];
        double c = 0;
        for (int i = 0; i < weights.length; i++) {
            c += weights[i] / total;
            cumulative[i] = c;
        }
        this.rng = rng;
    }

    /** The next request's endpoint index, or −1 when the mix is {@link #NONE}. */
    public int next() {
        if (cumulative.length == 0) {
            return -1;
        }
        double u = rng.nextDouble();
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }
}

package org.loadlab.kernel.sim;

import java.util.random.RandomGenerator;

/**
 * One-way network latency between balancers and nodes (and between nodes): a constant
 * {@code base} plus, if {@code jitterMean > 0}, an exponential jitter with that mean.
 * Messages from or to the workload driver (a client co-located with its balancer) have
 * no latency. Per-pair FIFO order is kept by the engine.
 *
 * @param base constant one-way latency in seconds, ≥ 0
 * @param jitterMean mean of the exponential jitter in seconds, ≥ 0
 */
public record LatencyModel(double base, double jitterMean) {
    /** Validates. @throws IllegalArgumentException naming the field */
    public LatencyModel {
        if (!(base >= 0)) {
            throw new IllegalArgumentException("network.latency must be >= 0 s, was " + base);
        }
        if (!(jitterMean >= 0)) {
            throw new IllegalArgumentException("network.jitter must be >= 0 s, was " + jitterMean);
        }
    }

    /** Draws one latency sample, seconds. */
    double sample(RandomGenerator rng) {
        return jitterMean > 0 ? base - jitterMean * Math.log(1.0 - rng.nextDouble()) : base;
    }
}

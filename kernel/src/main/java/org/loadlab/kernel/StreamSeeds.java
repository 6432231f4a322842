package org.loadlab.kernel;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Derives independent, reproducible random streams from one master seed: one stream per
 * entity (kind + index) and separate named streams (arrivals, demand, network, topology).
 * Two different (kind, index) pairs get unrelated streams; the same pair always gets the
 * same stream, whatever else the run creates.
 *
 * <p>Mixing uses the SplitMix64 finaliser (Steele, Lea, Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014).
 */
public final class StreamSeeds {
    private StreamSeeds() {
    }

    /** Stream kind for backend nodes. */
    public static final int NODE = 1;
    /** Stream kind for balancers. */
    public static final int BALANCER = 2;
    /** Stream kind for clients / drivers. */
    public static final int CLIENT = 3;
    /** Stream kind for inter-arrival times. */
    public static final int ARRIVALS = 4;
    /** Stream kind for service demands. */
    public static final int DEMAND = 5;
    /** Stream kind for network latency jitter. */
    public static final int NETWORK = 6;
    /** Stream kind for scenario topology (μ draws, allowed sets). */
    public static final int TOPOLOGY = 7;
    /** Stream kind for scripted events (which nodes fail). */
    public static final int EVENTS = 8;
    /** Stream kind for control services (seed 003's control plane, the autoscaler). */
    public static final int SERVICE = 9;

    /** Returns the 64-bit seed of stream (kind, index) under {@code masterSeed}. */
    public static long seed(long masterSeed, int kind, int index) {
        long z = mix(masterSeed ^ 0x9E3779B97F4A7C15L);
        z = mix(z + ((long) kind << 32) + index);
        return mix(z);
    }

    /** Returns a fresh generator for stream (kind, index) under {@code masterSeed}. */
    public static RandomGenerator stream(long masterSeed, int kind, int index) {
        return new SplittableRandom(seed(masterSeed, kind, index));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

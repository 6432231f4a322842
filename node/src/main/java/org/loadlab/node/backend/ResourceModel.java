package org.loadlab.node.backend;

import java.util.random.RandomGenerator;

/**
 * CPU, MEM, IO and NET utilisation of one node as a function of its queue length, the
 * default model of SPEC.md §1 (from seed 000's simulator): with pressure
 * p = min(1, q/80) and independent noise u ~ U(−0.05, 0.05) per resource and update,
 * CPU = 0.35+0.55p+u, MEM = 0.30+0.45p+u, IO = 0.25+0.40p+u, NET = 0.20+0.50p+u, each
 * clipped to [0, 1], recomputed every {@code period} seconds.
 *
 * <p>Updates are evaluated lazily but exactly: the state at time t is the one computed
 * at the last period boundary ≤ t from the queue length at that boundary. Because q is
 * piecewise constant, the node calls {@link #advance} before every change of q and
 * before every read, and the q it passes is then the q at the latest boundary. Skipped
 * boundaries would have been overwritten, so only the latest one draws noise.
 * A pinned resource (chaos) keeps its pinned value.
 */
public final class ResourceModel {
    private static final double[] BASE = {0.35, 0.30, 0.25, 0.20};
    private static final double[] SLOPE = {0.55, 0.45, 0.40, 0.50};
    /** Queue length at which pressure saturates. */
    public static final double SATURATION_QUEUE = 80.0;

    private final double period;
    private final double[] value = new double[4];
    private final double[] pinned = {Double.NaN, Double.NaN, Double.NaN, Double.NaN};
    private long lastTick = Long.MIN_VALUE;

    /** @param period seconds between updates, > 0 */
    public ResourceModel(double period) {
        this.period = period;
    }

    /**
     * Brings the state up to time {@code now}, given that the queue length has been
     * {@code queueLength} since the previous call.
     */
    public void advance(double now, int queueLength, RandomGenerator rng) {
        long tick = (long) Math.floor(now / period);
        if (tick == lastTick) {
            return;
        }
        lastTick = tick;
        double p = Math.min(1.0, queueLength / SATURATION_QUEUE);
        for (int r = 0; r < 4; r++) {
            double u = rng.nextDouble() * 0.1 - 0.05;
            double v = Double.isNaN(pinned[r]) ? BASE[r] + SLOPE[r] * p + u : pinned[r];
            value[r] = Math.max(0.0, Math.min(1.0, v));
        }
    }

    /** Pins resource {@code r} (0 CPU, 1 MEM, 2 IO, 3 NET) to {@code level} in [0,1]; NaN unpins. */
    public void pin(int r, double level) {
        pinned[r] = level;
        if (!Double.isNaN(level)) {
            value[r] = level;
        }
    }

    /** CPU utilisation in [0,1]. */
    public double cpu() {
        return value[0];
    }

    /** Memory utilisation in [0,1]. */
    public double mem() {
        return value[1];
    }

    /** IO utilisation in [0,1]. */
    public double io() {
        return value[2];
    }

    /** Network utilisation in [0,1]. */
    public double net() {
        return value[3];
    }
}

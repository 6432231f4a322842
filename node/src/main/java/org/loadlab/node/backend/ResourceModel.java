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
    /** Queue length at which pressure saturates. */
    public static final double SATURATION_QUEUE = 80.0;

    // Four fields rather than arrays: a probe touches this object on the hot path, and with
    // 10^5 nodes every extra array is one more cache miss per probe.
    private final double period;
    private double cpu;
    private double mem;
    private double io;
    private double net;
    private double pinnedCpu = Double.NaN;
    private double pinnedMem = Double.NaN;
    private double pinnedIo = Double.NaN;
    private double pinnedNet = Double.NaN;
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
        cpu = level(pinnedCpu, 0.35 + 0.55 * p, rng);
        mem = level(pinnedMem, 0.30 + 0.45 * p, rng);
        io = level(pinnedIo, 0.25 + 0.40 * p, rng);
        net = level(pinnedNet, 0.20 + 0.50 * p, rng);
    }

    private static double level(double pinned, double mean, RandomGenerator rng) {
        double u = rng.nextDouble() * 0.1 - 0.05; // drawn even when pinned: pinning must not shift the stream
        double v = Double.isNaN(pinned) ? mean + u : pinned;
        return Math.max(0.0, Math.min(1.0, v));
    }

    /**
     * Pins resource {@code r} (0 CPU, 1 MEM, 2 IO, 3 NET) to {@code level} in [0,1]; NaN unpins.
     *
     * @throws IllegalArgumentException if {@code r} is not 0..3
     */
    public void pin(int r, double level) {
        switch (r) {
            case 0 -> { pinnedCpu = level; cpu = Double.isNaN(level) ? cpu : level; }
            case 1 -> { pinnedMem = level; mem = Double.isNaN(level) ? mem : level; }
            case 2 -> { pinnedIo = level; io = Double.isNaN(level) ? io : level; }
            case 3 -> { pinnedNet = level; net = Double.isNaN(level) ? net : level; }
            default -> throw new IllegalArgumentException("resource index must be 0 (CPU) .. 3 (NET), was " + r);
        }
    }

    /** CPU utilisation in [0,1]. */
    public double cpu() {
        return cpu;
    }

    /** Memory utilisation in [0,1]. */
    public double mem() {
        return mem;
    }

    /** IO utilisation in [0,1]. */
    public double io() {
        return io;
    }

    /** Network utilisation in [0,1]. */
    public double net() {
        return net;
    }
}

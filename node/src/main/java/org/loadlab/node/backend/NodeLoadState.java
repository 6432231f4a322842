package org.loadlab.node.backend;

import java.util.random.RandomGenerator;

/**
 * The load state a backend node reports about itself: its CPU/MEM/IO/NET utilisations and
 * its ASMF feedback correction C_j. {@link BackendNode} extends this class so that these
 * values are fields of the node object itself: at 10^5 nodes every touch of a node is a
 * cache miss, and a separate resource-model and feedback object cost two more dependent
 * loads per probe, request and completion (docs/performance.md, "How the kernel is built").
 *
 * <p><b>Resources</b>, the default model of SPEC.md §1 (from seed 000's simulator): with
 * pressure p = min(1, q/80) and independent noise u ~ U(−0.05, 0.05) per resource and update,
 * CPU = 0.35+0.55p+u, MEM = 0.30+0.45p+u, IO = 0.25+0.40p+u, NET = 0.20+0.50p+u, each
 * clipped to [0, 1], recomputed every resource period. Updates are evaluated lazily but
 * exactly: the state at time t is the one computed at the last period boundary ≤ t from the
 * queue length at that boundary. Because q is piecewise constant, the node calls
 * {@link #advanceResources} before every change of q and before every read, and the q it
 * passes is then the q at the latest boundary. Skipped boundaries would have been
 * overwritten, so only the latest one draws noise. A pinned resource (chaos) keeps its
 * pinned value.
 *
 * <p><b>Feedback</b> (seed 000, SPEC.md §3): at the end of each window of W seconds,
 * Δ = (arrivals − completions)/W in requests/s and C ← clip(C − η Δ, Cmin, Cmax). Evaluated
 * lazily but exactly: {@link #advanceFeedback} closes the window the counts belong to as
 * soon as a later window is touched; windows with no events have Δ = 0 and change nothing.
 *
 * <p><b>Ticks.</b> Both models need the period (window) index ⌊t/P⌋ of every call. Each keeps
 * {@link TickBounds} of its current tick, and a call inside them skips the division: most
 * calls fall well inside a tick, and the exact computation still decides every call near a
 * boundary, so the results are those of computing ⌊t/P⌋ every time, bit for bit.
 *
 * <p>Not thread-safe (one node owns it).
 */
class NodeLoadState {
    /** Queue length at which resource pressure saturates. */
    static final double SATURATION_QUEUE = 80.0;

    private final double resourcePeriod;
    private double cpu;
    private double mem;
    private double io;
    private double net;
    private double pinnedCpu = Double.NaN;
    private double pinnedMem = Double.NaN;
    private double pinnedIo = Double.NaN;
    private double pinnedNet = Double.NaN;
    private long resourceTick = Long.MIN_VALUE;
    // [resourceFrom, resourceUntil): times certainly in resourceTick (empty before the first update).
    private double resourceFrom = Double.POSITIVE_INFINITY;
    private double resourceUntil = Double.NEGATIVE_INFINITY;

    private final FeedbackSettings feedback;
    private double correction = 1.0;
    private long window = Long.MIN_VALUE;
    private double windowFrom = Double.POSITIVE_INFINITY;
    private double windowUntil = Double.NEGATIVE_INFINITY;
    private int arrivals;
    private int completions;
    private double lastDelta;

    /**
     * @param resourcePeriod seconds between resource updates, &gt; 0
     * @param feedback gain, clip bounds and window of the feedback correction
     */
    NodeLoadState(double resourcePeriod, FeedbackSettings feedback) {
        this.resourcePeriod = resourcePeriod;
        this.feedback = feedback;
    }

    /**
     * Brings the resource state up to time {@code now}, given that the queue length has been
     * {@code queueLength} since the previous call; draws four uniforms from {@code rng} when
     * a period boundary has passed since, none otherwise.
     */
    final void advanceResources(double now, int queueLength, RandomGenerator rng) {
        if (now >= resourceFrom && now < resourceUntil) {
            return;
        }
        long tick = TickBounds.tick(now, resourcePeriod);
        if (tick == resourceTick) {
            return;
        }
        resourceTick = tick;
        resourceFrom = TickBounds.lowerBound(tick, resourcePeriod);
        resourceUntil = TickBounds.upperBound(tick, resourcePeriod);
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
    final void pinResource(int r, double level) {
        switch (r) {
            case 0 -> { pinnedCpu = level; cpu = Double.isNaN(level) ? cpu : level; }
            case 1 -> { pinnedMem = level; mem = Double.isNaN(level) ? mem : level; }
            case 2 -> { pinnedIo = level; io = Double.isNaN(level) ? io : level; }
            case 3 -> { pinnedNet = level; net = Double.isNaN(level) ? net : level; }
            default -> throw new IllegalArgumentException("resource index must be 0 (CPU) .. 3 (NET), was " + r);
        }
    }

    /** CPU utilisation in [0,1]. */
    final double cpu() {
        return cpu;
    }

    /** Memory utilisation in [0,1]. */
    final double mem() {
        return mem;
    }

    /** IO utilisation in [0,1]. */
    final double io() {
        return io;
    }

    /** Network utilisation in [0,1]. */
    final double net() {
        return net;
    }

    /** Closes any finished feedback window as of time {@code now} (seconds). */
    final void advanceFeedback(double now) {
        if (now >= windowFrom && now < windowUntil) {
            return;
        }
        double width = feedback.windowSeconds();
        long w = TickBounds.tick(now, width);
        if (w == window) {
            return;
        }
        if (window != Long.MIN_VALUE && feedback.eta() > 0) {
            lastDelta = (arrivals - completions) / width;
            correction = Math.max(feedback.cMin(), Math.min(feedback.cMax(), correction - feedback.eta() * lastDelta));
        }
        window = w;
        windowFrom = TickBounds.lowerBound(w, width);
        windowUntil = TickBounds.upperBound(w, width);
        arrivals = 0;
        completions = 0;
    }

    /** Counts an accepted arrival at time {@code now} for the feedback. */
    final void countArrival(double now) {
        advanceFeedback(now);
        arrivals++;
    }

    /** Counts a service completion at time {@code now} for the feedback. */
    final void countCompletion(double now) {
        advanceFeedback(now);
        completions++;
    }

    /** Current C_j (1 until the first window with η &gt; 0 closes). */
    final double correction() {
        return correction;
    }

    /** Δ_j of the last closed feedback window, requests/s. */
    final double lastDelta() {
        return lastDelta;
    }
}

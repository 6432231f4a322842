package org.loadlab.node.backend;

/**
 * The ASMF feedback correction C_j of one node (seed 000, SPEC.md §3): at the end of
 * each window of W seconds, Δ = (arrivals − completions)/W in requests/s and
 * C ← clip(C − η Δ, Cmin, Cmax). Evaluated lazily but exactly: {@link #advance} closes
 * the window the counts belong to as soon as a later window is touched; windows with no
 * events have Δ = 0 and change nothing.
 */
public final class FeedbackCorrection {
    private final FeedbackSettings settings;
    private double correction = 1.0;
    private long window = Long.MIN_VALUE;
    private int arrivals;
    private int completions;
    private double lastDelta;

    /** @param settings gain, clip bounds and window */
    public FeedbackCorrection(FeedbackSettings settings) {
        this.settings = settings;
    }

    /** Closes any finished window as of time {@code now} (seconds). */
    public void advance(double now) {
        long w = (long) Math.floor(now / settings.windowSeconds());
        if (w == window) {
            return;
        }
        if (window != Long.MIN_VALUE && settings.eta() > 0) {
            lastDelta = (arrivals - completions) / settings.windowSeconds();
            correction = Math.max(settings.cMin(), Math.min(settings.cMax(), correction - settings.eta() * lastDelta));
        }
        window = w;
        arrivals = 0;
        completions = 0;
    }

    /** Counts an accepted arrival at time {@code now}. */
    public void arrival(double now) {
        advance(now);
        arrivals++;
    }

    /** Counts a service completion at time {@code now}. */
    public void completion(double now) {
        advance(now);
        completions++;
    }

    /** Current C_j (1 until the first window with η > 0 closes). */
    public double correction() {
        return correction;
    }

    /** Δ_j of the last closed window, requests/s. */
    public double lastDelta() {
        return lastDelta;
    }
}

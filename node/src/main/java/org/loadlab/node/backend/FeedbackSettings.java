package org.loadlab.node.backend;

/**
 * Parameters of the ASMF feedback correction each node keeps (seed 000):
 * every {@code windowSeconds}, Δ_j = λin_j − λsvc_j (requests/s over the window) and
 * C_j ← clip(C_j − η Δ_j, Cmin, Cmax). With {@code eta == 0} C_j stays at 1.
 *
 * @param eta feedback gain η ≥ 0 (per request/s)
 * @param cMin lower clip Cmin > 0
 * @param cMax upper clip Cmax ≥ Cmin
 * @param windowSeconds measurement window in seconds, > 0
 */
public record FeedbackSettings(double eta, double cMin, double cMax, double windowSeconds) {
    /** Seed 000 defaults: η 0.05, Cmin 0.3, Cmax 2.5, window 1 s. */
    public static final FeedbackSettings ASMF_DEFAULT = new FeedbackSettings(0.05, 0.3, 2.5, 1.0);
    /** No correction: C ≡ 1. */
    public static final FeedbackSettings OFF = new FeedbackSettings(0.0, 1.0, 1.0, 1.0);

    /** Validates ranges. @throws IllegalArgumentException naming the bad field */
    public FeedbackSettings {
        if (!(eta >= 0)) {
            throw new IllegalArgumentException("feedback eta must be >= 0, was " + eta);
        }
        if (!(cMin > 0) || !(cMax >= cMin)) {
            throw new IllegalArgumentException("feedback needs 0 < c-min <= c-max, was " + cMin + ", " + cMax);
        }
        if (!(windowSeconds > 0)) {
            throw new IllegalArgumentException("feedback window must be > 0 s, was " + windowSeconds);
        }
    }
}

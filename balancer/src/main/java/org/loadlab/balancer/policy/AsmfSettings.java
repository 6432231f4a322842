package org.loadlab.balancer.policy;

/**
 * Parameters of ASMF (seed 000, SPEC.md §3): sample size k, resource weights
 * (α CPU, β MEM, γ IO, δ NET), rejection threshold τ on the corrected score, and the
 * three ablation switches. The feedback gain η and clip bounds live in the nodes
 * ({@code FeedbackSettings}) because each node keeps its own C_j.
 *
 * @param k sampled nodes per decision, ≥ 1
 * @param alpha CPU weight α ≥ 0
 * @param beta memory weight β ≥ 0
 * @param gamma IO weight γ ≥ 0
 * @param delta network weight δ ≥ 0
 * @param tau rejection threshold τ ≥ 0 on max S'_j
 * @param useFeedback false for {@code asmf-no-feedback} (C ≡ 1)
 * @param useSampling false for {@code asmf-no-sampling} (all allowed nodes)
 * @param useMultiResource false for {@code asmf-no-multiresource} (L ≡ 0)
 */
public record AsmfSettings(int k, double alpha, double beta, double gamma, double delta, double tau,
                           boolean useFeedback, boolean useSampling, boolean useMultiResource) {
    /** Seed 000 defaults: k 2, weights (0.40, 0.25, 0.20, 0.15), τ 0.12, all components on. */
    public static final AsmfSettings DEFAULT = new AsmfSettings(2, 0.40, 0.25, 0.20, 0.15, 0.12, true, true, true);

    /** Validates ranges. @throws IllegalArgumentException naming the field */
    public AsmfSettings {
        if (k < 1) {
            throw new IllegalArgumentException("asmf k must be >= 1, was " + k);
        }
        if (alpha < 0 || beta < 0 || gamma < 0 || delta < 0) {
            throw new IllegalArgumentException("asmf weights must be >= 0, were " + alpha + ", " + beta + ", " + gamma + ", " + delta);
        }
        if (!(tau >= 0)) {
            throw new IllegalArgumentException("asmf tau must be >= 0, was " + tau);
        }
    }
}

package org.loadlab.balancer.lints;

/**
 * Softmax weights with a temperature, over the scores that are not masked:
 * w_i = e^((s_i − max)/τ) / Σ_j e^((s_j − max)/τ), 0 for masked entries (max over unmasked).
 * Subtracting the maximum keeps the exponentials finite.
 *
 * <p>Source: seed 003 ({@code select_action_weights}, temperature 0.2), SPEC.md §6.
 */
public final class Softmax {
    private Softmax() {
    }

    /**
     * @param scores one score per entry
     * @param temperature τ &gt; 0
     * @param masked true where an entry takes no weight (null: none masked)
     * @return weights summing to 1 over the unmasked entries; all 0 when every entry is masked
     * @throws IllegalArgumentException if τ is not positive, or a length differs
     */
    public static double[] weights(double[] scores, double temperature, boolean[] masked) {
        if (!(temperature > 0)) {
            throw new IllegalArgumentException("softmax temperature must be > 0, was " + temperature);
        }
        if (masked != null && masked.length != scores.length) {
            throw new IllegalArgumentException("scores and mask differ in length: " + scores.length + ", " + masked.length);
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < scores.length; i++) {
            if (masked == null || !masked[i]) {
                max = Math.max(max, scores[i]);
            }
        }
        double[] w = new double[scores.length];
        if (max == Double.NEGATIVE_INFINITY) {
            return w;
        }
        double sum = 0;
        for (int i = 0; i < scores.length; i++) {
            if (masked == null || !masked[i]) {
                w[i] = Math.exp((scores[i] - max) / temperature);
                sum += w[i];
            }
        }
        for (int i = 0; i < w.length; i++) {
            w[i] /= sum;
        }
        return w;
    }
}

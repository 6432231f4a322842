package org.loadlab.analysis.stats;

import java.util.Objects;

/**
 * Jain's fairness index J(x) = (Σ x_i)² / (n · Σ x_i²) of non-negative allocations x_1..x_n.
 *
 * <p>J = 1 when all x_i are equal; J = 1/n when one element holds everything; in general
 * 1/n ≤ J ≤ 1, and J·n is the number of elements that effectively share the load.
 *
 * <p>Source: R. Jain, D.-M. Chiu, W. Hawe, "A Quantitative Measure of Fairness and
 * Discrimination for Resource Allocation in Shared Computer Systems", DEC-TR-301, 1984.
 */
public final class JainFairness {

    private JainFairness() {
    }

    /**
     * Computes Jain's index.
     *
     * @param values allocations x_i ≥ 0 (e.g. per-node utilisations ρ_j); any unit
     * @return J in [1/n, 1]; NaN when every value is 0 (no allocation to compare) or any value
     *     is NaN
     * @throws IllegalArgumentException if {@code values} is empty or holds a negative value
     * @throws NullPointerException if {@code values} is null
     */
    public static double of(double[] values) {
        Objects.requireNonNull(values, "values");
        if (values.length == 0) {
            throw new IllegalArgumentException("values: empty; Jain's index needs at least one value");
        }
        double sum = 0;
        double sumOfSquares = 0;
        for (int i = 0; i < values.length; i++) {
            double x = values[i];
            if (x < 0) {
                throw new IllegalArgumentException("values[" + i + "]: " + x + " is negative; allocations must be ≥ 0");
            }
            sum += x;
            sumOfSquares += x * x;
        }
        if (Double.isNaN(sum) || sumOfSquares == 0) {
            return Double.NaN;
        }
        return sum * sum / (values.length * sumOfSquares);
    }
}

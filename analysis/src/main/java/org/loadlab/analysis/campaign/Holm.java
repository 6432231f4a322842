package org.loadlab.analysis.campaign;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * Holm–Bonferroni step-down adjustment of a family of p-values, controlling the family-wise
 * error rate: with the m defined p-values sorted ascending p_(1) ≤ … ≤ p_(m),
 * p̃_(i) = min(1, max_{j ≤ i} (m − j + 1)·p_(j)). Reject hypothesis i at level α when
 * p̃_i ≤ α.
 *
 * <p>NaN p-values (undefined tests) are not part of the family: they stay NaN and do not
 * count in m. Equal p-values are taken in input order (deterministic).
 *
 * <p>Source: S. Holm, "A simple sequentially rejective multiple test procedure",
 * Scandinavian Journal of Statistics 6(2), 1979, pp. 65–70.
 */
public final class Holm {

    private Holm() {
    }

    /**
     * Adjusts p-values.
     *
     * @param p raw p-values in [0, 1] or NaN; not modified
     * @return adjusted p-values, same order and length
     * @throws IllegalArgumentException if a value is outside [0, 1] and not NaN
     * @throws NullPointerException if {@code p} is null
     */
    public static double[] adjust(double[] p) {
        Objects.requireNonNull(p, "p");
        Integer[] order = new Integer[p.length];
        int m = 0;
        for (int i = 0; i < p.length; i++) {
            if (Double.isNaN(p[i])) {
                continue;
            }
            if (p[i] < 0 || p[i] > 1) {
                throw new IllegalArgumentException("p[" + i + "]: " + p[i] + " is not a probability in [0, 1]");
            }
            order[m++] = i;
        }
        Integer[] defined = Arrays.copyOf(order, m);
        Arrays.sort(defined, Comparator.comparingDouble((Integer i) -> p[i]).thenComparingInt(i -> i));
        double[] adjusted = new double[p.length];
        Arrays.fill(adjusted, Double.NaN);
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            int i = defined[rank];
            running = Math.max(running, Math.min(1.0, (m - rank) * p[i]));
            adjusted[i] = running;
        }
        return adjusted;
    }
}

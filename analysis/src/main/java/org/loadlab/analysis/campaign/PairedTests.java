package org.loadlab.analysis.campaign;

import java.util.Arrays;
import java.util.Objects;
import org.hipparchus.stat.inference.TTest;
import org.hipparchus.stat.inference.WilcoxonSignedRankTest;

/**
 * Two-sided paired tests of "policy and reference have the same mean (t) / a difference
 * distribution symmetric about 0 (Wilcoxon)" on matched pairs (same scenario, parameters and
 * seed), computed by Hipparchus.
 *
 * <p><b>Undefined results (p = NaN).</b> Fewer than 2 pairs; all differences zero (the two
 * policies behaved identically, e.g. both rejected nothing); for Wilcoxon also tied
 * |differences| among fewer than {@value #NORMAL_MIN_PAIRS} non-zero ones, where only the
 * normal approximation is available and it is meaningless (with 2 pairs it would claim
 * p = 0.37 from a statistic that takes two values; exactly, no p below 0.05 is even possible
 * with fewer than 6 pairs). For the t-test also: all
 * differences equal but not zero (zero variance; Hipparchus would return p = 0, which claims
 * certainty from a degenerate statistic) — the Wilcoxon test still answers then.
 *
 * <p><b>Wilcoxon details</b> (Hipparchus {@link WilcoxonSignedRankTest}): pairs with a zero
 * difference are dropped (the "wilcox" zero method); ties among the remaining |differences|
 * get average ranks. The p-value is <b>exact</b> (the distribution over all 2^m sign patterns) when
 * the m non-zero differences are at most {@value #EXACT_WILCOXON_MAX_PAIRS} and have no tied
 * absolute values; otherwise the normal approximation with continuity correction (no tie
 * correction of the variance) is used. (Hipparchus allows exact p up to m = 30; its
 * enumeration costs m·2^m, so LoadLab counts the same patterns by dynamic programming,
 * {@link #exactP}.) p is capped at 1 (the exact two-sided value 2·P(W ≥ w_max)
 * can exceed 1 when W+ = W−).
 *
 * <p>Source: Hipparchus 3.1 {@link TTest#pairedTTest(double[], double[])},
 * {@link WilcoxonSignedRankTest#wilcoxonSignedRankTest(double[], double[], boolean)};
 * F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1(6), 1945.
 */
public final class PairedTests {

    /** Fewest non-zero differences for which the normal approximation of the Wilcoxon test is used (with ties). */
    public static final int NORMAL_MIN_PAIRS = 6;

    /** Largest number of non-zero differences for which the exact Wilcoxon p-value is used. */
    public static final int EXACT_WILCOXON_MAX_PAIRS = 20;

    /** How a Wilcoxon p-value was obtained. */
    public enum WilcoxonMethod {
        /** Exact distribution of the signed-rank statistic (no ties, m ≤ {@value #EXACT_WILCOXON_MAX_PAIRS}). */
        EXACT,
        /** Normal approximation with continuity correction. */
        NORMAL,
        /** Not computed: fewer than 2 pairs, all differences zero, or ties among too few pairs; p is NaN. */
        UNDEFINED;

        /**
         * Text for CSV and reports.
         *
         * @return {@code exact}, {@code normal} or {@code undefined}
         */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A Wilcoxon signed-rank test result.
     *
     * @param p two-sided p-value in [0, 1]; NaN when {@code method} is {@link WilcoxonMethod#UNDEFINED}
     * @param method how p was obtained
     */
    public record WilcoxonResult(double p, WilcoxonMethod method) {
    }

    private PairedTests() {
    }

    /**
     * Two-sided paired t-test p-value (n − 1 degrees of freedom) of the differences
     * {@code policy[i] − reference[i]}.
     *
     * @param reference the reference policy's values, one per seed
     * @param policy the other policy's values for the same seeds, same order
     * @return p in [0, 1]; NaN when fewer than 2 pairs or the differences have zero variance
     *     (including all zero)
     * @throws IllegalArgumentException if the arrays differ in length or hold NaN
     * @throws NullPointerException if an array is null
     */
    public static double pairedT(double[] reference, double[] policy) {
        check(reference, policy);
        if (reference.length < 2) {
            return Double.NaN;
        }
        double first = policy[0] - reference[0];
        boolean constant = true;
        for (int i = 1; i < reference.length && constant; i++) {
            constant = policy[i] - reference[i] == first;
        }
        if (constant) {
            return Double.NaN;
        }
        return new TTest().pairedTTest(policy, reference);
    }

    /**
     * Two-sided Wilcoxon signed-rank test of the differences {@code policy[i] − reference[i]}.
     *
     * @param reference the reference policy's values, one per seed
     * @param policy the other policy's values for the same seeds, same order
     * @return p and method; see the class comment for when it is exact or undefined
     * @throws IllegalArgumentException if the arrays differ in length or hold NaN
     * @throws NullPointerException if an array is null
     */
    public static WilcoxonResult wilcoxon(double[] reference, double[] policy) {
        check(reference, policy);
        double[] nonZero = new double[reference.length];
        int m = 0;
        for (int i = 0; i < reference.length; i++) {
            double d = Math.abs(policy[i] - reference[i]);
            if (policy[i] != reference[i]) {
                nonZero[m++] = d;
            }
        }
        if (reference.length < 2 || m == 0) {
            return new WilcoxonResult(Double.NaN, WilcoxonMethod.UNDEFINED);
        }
        double[] absolute = Arrays.copyOf(nonZero, m);
        Arrays.sort(absolute);
        boolean ties = false;
        for (int i = 1; i < m && !ties; i++) {
            ties = absolute[i] == absolute[i - 1];
        }
        boolean exact = m <= EXACT_WILCOXON_MAX_PAIRS && !ties;
        if (!exact && m < NORMAL_MIN_PAIRS) {
            return new WilcoxonResult(Double.NaN, WilcoxonMethod.UNDEFINED);
        }
        WilcoxonSignedRankTest test = new WilcoxonSignedRankTest();
        double p = exact ? exactP(test.wilcoxonSignedRank(reference, policy), m)
                : test.wilcoxonSignedRankTest(reference, policy, false);
        return new WilcoxonResult(Math.min(1.0, p), exact ? WilcoxonMethod.EXACT : WilcoxonMethod.NORMAL);
    }

    /**
     * The exact two-sided p-value 2·P(W ≥ wMax) of the signed-rank statistic for m untied
     * non-zero differences: the same number as Hipparchus's enumeration of all 2^m sign
     * patterns, (2 × #{patterns with rank sum ≥ wMax}) / 2^m, but with the patterns counted
     * per rank sum by dynamic programming (subsets of {1..m} by their sum) in O(m³) instead
     * of O(m·2^m) — at m = 20 that is 10^4 steps instead of 2·10^7, which made the tests of
     * a 1,280-run campaign take longer than its runs.
     *
     * @param wMax max(W+, W−) from {@link WilcoxonSignedRankTest#wilcoxonSignedRank}
     * @param m number of non-zero differences, at most {@value #EXACT_WILCOXON_MAX_PAIRS}
     */
    static double exactP(double wMax, int m) {
        int maxSum = m * (m + 1) / 2;
        long[] patterns = new long[maxSum + 1]; // patterns[s]: sign patterns whose positive ranks sum to s
        patterns[0] = 1;
        for (int rank = 1; rank <= m; rank++) {
            for (int sum = maxSum; sum >= rank; sum--) {
                patterns[sum] += patterns[sum - rank];
            }
        }
        long atLeast = 0;
        for (int sum = 0; sum <= maxSum; sum++) {
            if (sum >= wMax) {
                atLeast += patterns[sum];
            }
        }
        return 2.0 * atLeast / (double) (1L << m);
    }

    private static void check(double[] reference, double[] policy) {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(policy, "policy");
        if (reference.length != policy.length) {
            throw new IllegalArgumentException("paired samples: reference has " + reference.length
                    + " values, policy has " + policy.length + "; pairs need equal lengths");
        }
        for (int i = 0; i < reference.length; i++) {
            if (Double.isNaN(reference[i]) || Double.isNaN(policy[i])) {
                throw new IllegalArgumentException("paired samples: NaN in pair " + i + "; drop undefined pairs first");
            }
        }
    }
}

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
 * <p><b>Undefined results (p = NaN).</b> Fewer than 2 pairs; for Wilcoxon also tied
 * |differences| among fewer than {@value #NORMAL_MIN_PAIRS} non-zero ones, where only the
 * normal approximation is available and it is meaningless (with 2 pairs it would claim
 * p = 0.37 from a statistic that takes two values; exactly, no p below 0.05 is even possible
 * with fewer than 6 pairs).
 *
 * <p><b>Equal differences (zero variance).</b> When all of n ≥ 2 differences equal the same d,
 * the t statistic is d/0 and the t distribution says nothing (Hipparchus would return p = 0
 * for d ≠ 0, certainty from two equal pairs, and NaN for d = 0). The p of the t-test is then
 * that of its exact randomization (sign-flip) version: under the null hypothesis each
 * difference is as likely −d as +d, and of the 2^n sign patterns only the two with all signs
 * equal give a mean difference as far from 0 as the one observed, so p = 2^(1−n) for d ≠ 0
 * (0.5 with 2 pairs, 0.0625 with 5, 0.002 with 10, below 10^-59 with 200) and p = 1 for
 * d = 0, where the two policies are identical on the metric ({@link #identical}, e.g. both
 * rejected nothing). Wilcoxon with all differences zero also gives p = 1, exactly: with no
 * non-zero difference the statistic is 0 under every sign pattern. Source: the paired
 * randomization test, R. A. Fisher, The Design of Experiments (1935), ch. III (Darwin's paired plants).
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
        /**
         * Exact distribution of the signed-rank statistic (no ties, m ≤ {@value #EXACT_WILCOXON_MAX_PAIRS};
         * also m = 0, all differences zero: p = 1).
         */
        EXACT,
        /** Normal approximation with continuity correction. */
        NORMAL,
        /** Not computed: fewer than 2 pairs, or ties among too few pairs; p is NaN. */
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
     * @return p in [0, 1]; NaN when fewer than 2 pairs; when every one of the n differences is
     *     the same d (zero variance), 2^(1−n) for d ≠ 0 and 1 for d = 0 (see the class comment)
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
            // The exact sign-flip p: only "all +" and "all −" are as extreme as n equal differences.
            return first == 0 ? 1.0 : Math.scalb(1.0, 1 - reference.length);
        }
        return new TTest().pairedTTest(policy, reference);
    }

    /**
     * Whether the two policies are identical on the metric: at least 2 pairs, and in every pair
     * both values are equal (every difference is 0). Then both tests give p = 1, and the
     * comparison's verdict is "same" ({@link PairedComparison.Verdict#SAME}).
     *
     * @param reference the reference policy's values, one per seed
     * @param policy the other policy's values for the same seeds, same order
     * @return true when there are 2 or more pairs and no non-zero difference
     * @throws IllegalArgumentException if the arrays differ in length or hold NaN
     * @throws NullPointerException if an array is null
     */
    public static boolean identical(double[] reference, double[] policy) {
        check(reference, policy);
        if (reference.length < 2) {
            return false;
        }
        for (int i = 0; i < reference.length; i++) {
            if (policy[i] - reference[i] != 0) {
                return false;
            }
        }
        return true;
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
        if (reference.length < 2) {
            return new WilcoxonResult(Double.NaN, WilcoxonMethod.UNDEFINED);
        }
        if (m == 0) { // identical: W+ = W- = 0 under every sign pattern
            return new WilcoxonResult(1.0, WilcoxonMethod.EXACT);
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

package org.loadlab.analysis.campaign;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One policy against the reference policy on one metric in one cell (scenario, parameters),
 * over the seeds both ran with a defined value: a row of {@code pairwise.csv}.
 *
 * <p>Holm-adjusted p-values are adjusted within the family of all comparisons of the same
 * metric (across scenarios × parameters × policies), separately for the t and Wilcoxon tests.
 * The {@link #verdict()} and {@link #significanceMark()} use the Holm-adjusted <em>t-test</em>
 * p-value: with few seeds the exact Wilcoxon test cannot reach 0.05 (n = 5 gives at least
 * 2/32 = 0.0625), so it serves as a distribution-free check.
 *
 * <p>Zero-variance differences ({@link PairedTests}): when every one of n differences is the
 * same d ≠ 0 the t-test's p is that of the exact sign-flip test, 2^(1−n) (significant from 6
 * pairs on, before Holm), and a significant verdict is better or worse by the sign of d and the
 * metric's direction; when every difference is 0 the policies are
 * {@link #identical()} on the metric: p = 1 and the verdict is {@link Verdict#SAME}. Identical
 * comparisons are left out of the Holm families (they cannot be rejected at any level, so they
 * spend none of the error rate: R. E. Tarone, "A modified Bonferroni method for discrete
 * data", Biometrics 46(2), 1990), and their Holm-adjusted p-values are 1.
 *
 * <p>Source: {@link PairedTests}, {@link Holm}.
 *
 * @param scenario scenario name
 * @param parameters swept keys and values (unmodifiable, sorted)
 * @param metric the metric; means are in {@link Metric#unit()}
 * @param reference reference policy name
 * @param policy compared policy name
 * @param pairs number of matched seeds with defined values for both policies
 * @param referenceMean mean of the reference's values over the pairs; NaN when no pairs
 * @param policyMean mean of the policy's values over the pairs; NaN when no pairs
 * @param changePercent (policyMean − referenceMean) / referenceMean · 100, percent; NaN when
 *     referenceMean is 0 or undefined
 * @param pT two-sided paired t-test p-value; NaN as described in {@link PairedTests}
 * @param pTHolm Holm-adjusted {@code pT}; NaN when {@code pT} is
 * @param pWilcoxon two-sided Wilcoxon signed-rank p-value; NaN as described in {@link PairedTests}
 * @param pWilcoxonHolm Holm-adjusted {@code pWilcoxon}; NaN when {@code pWilcoxon} is
 * @param wilcoxonMethod how {@code pWilcoxon} was obtained
 * @param identical at least 2 pairs and every pair has equal values ({@link PairedTests#identical})
 */
public record PairedComparison(
        String scenario,
        SortedMap<String, String> parameters,
        Metric metric,
        String reference,
        String policy,
        int pairs,
        double referenceMean,
        double policyMean,
        double changePercent,
        double pT,
        double pTHolm,
        double pWilcoxon,
        double pWilcoxonHolm,
        PairedTests.WilcoxonMethod wilcoxonMethod,
        boolean identical) {

    /** Significance level of {@link #verdict()}, applied to {@link #pTHolm()}. */
    public static final double ALPHA = 0.05;

    /** Outcome of a comparison for a reader. */
    public enum Verdict {
        /** Significant (Holm-adjusted t p &lt; {@value PairedComparison#ALPHA}) and in the better direction. */
        BETTER,
        /** Significant and in the worse direction. */
        WORSE,
        /** Not significant at {@value PairedComparison#ALPHA} after Holm adjustment. */
        NOT_SIGNIFICANT,
        /** Identical on the metric: at least 2 pairs, every difference 0 (p = 1). */
        SAME,
        /** No test: fewer than 2 pairs. */
        UNDEFINED;

        /**
         * Text for CSV and reports.
         *
         * @return {@code better}, {@code worse}, {@code n.s.}, {@code same} or {@code n/a}
         */
        public String text() {
            return switch (this) {
                case BETTER -> "better";
                case WORSE -> "worse";
                case NOT_SIGNIFICANT -> "n.s.";
                case SAME -> "same";
                case UNDEFINED -> "n/a";
            };
        }
    }

    /**
     * Creates the comparison, copying {@code parameters}.
     *
     * @param scenario see the class comment
     * @param parameters see the class comment
     * @param metric see the class comment
     * @param reference see the class comment
     * @param policy see the class comment
     * @param pairs see the class comment
     * @param referenceMean see the class comment
     * @param policyMean see the class comment
     * @param changePercent see the class comment
     * @param pT see the class comment
     * @param pTHolm see the class comment
     * @param pWilcoxon see the class comment
     * @param pWilcoxonHolm see the class comment
     * @param wilcoxonMethod see the class comment
     * @param identical see the class comment
     * @throws NullPointerException if a text, {@code parameters}, {@code metric} or {@code wilcoxonMethod} is null
     */
    public PairedComparison {
        Objects.requireNonNull(scenario, "scenario");
        parameters = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(parameters, "parameters")));
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(wilcoxonMethod, "wilcoxonMethod");
    }

    /**
     * Whether the policy is significantly better or worse than the reference.
     *
     * @return {@link Verdict#SAME} when {@link #identical()}, else the verdict from
     *     {@link #pTHolm()} at {@link #ALPHA} and the metric's direction
     */
    public Verdict verdict() {
        if (identical) {
            return Verdict.SAME;
        }
        if (Double.isNaN(pTHolm)) {
            return Verdict.UNDEFINED;
        }
        if (!(pTHolm < ALPHA)) {
            return Verdict.NOT_SIGNIFICANT;
        }
        boolean lower = policyMean < referenceMean;
        return lower == metric.lowerIsBetter() ? Verdict.BETTER : Verdict.WORSE;
    }

    /**
     * Stars for the Holm-adjusted t-test p-value.
     *
     * @return {@code ***} below 0.001, {@code **} below 0.01, {@code *} below 0.05, else empty
     */
    public String significanceMark() {
        if (pTHolm < 0.001) {
            return "***";
        }
        if (pTHolm < 0.01) {
            return "**";
        }
        if (pTHolm < ALPHA) {
            return "*";
        }
        return "";
    }
}

package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Paired tests, Holm and bootstrap against hand-computed values. */
class StatisticsTest {

    // Differences policy − reference = {2, 3, 1, 3, 1}: mean 2, sd 1, t = 2/(1/√5) = √20, 4 df.
    // For even ν the t CDF is closed-form: F(t) = 1/2 + (x/2)·Σ_{k<ν/2} C(2k,k)/4^k·(1 − x²)^k with
    // x = t/√(ν + t²). Here x² = 20/24 = 5/6, so F = 1/2 + (x/2)(1 + 1/12) and the two-sided
    // p = 2(1 − F) = 1 − √(5/6)·13/12 = 0.0110564933934500.
    private static final double[] REFERENCE = {10, 12, 9, 11, 13};
    private static final double[] POLICY = {12, 15, 10, 14, 14};
    private static final double P_HAND = 1 - Math.sqrt(5.0 / 6.0) * 13.0 / 12.0;

    @Test
    void pairedTAgainstHandValue() {
        assertEquals(0.0110564933934500, P_HAND, 1e-15);
        assertEquals(P_HAND, PairedTests.pairedT(REFERENCE, POLICY), 1e-9);
        // two-sided: swapping the roles gives the same p
        assertEquals(P_HAND, PairedTests.pairedT(POLICY, REFERENCE), 1e-9);
    }

    @Test
    void pairedTIsUndefinedForFewPairs() {
        assertTrue(Double.isNaN(PairedTests.pairedT(new double[] {1}, new double[] {2})));
        assertTrue(Double.isNaN(PairedTests.pairedT(new double[0], new double[0])));
        assertTrue(!PairedTests.identical(new double[] {1}, new double[] {1}), "one pair says nothing");
    }

    @Test
    void constantDifferencesAreExact() {
        // every difference +1 (or -1): the exact sign-flip p, 2 of 2^n sign patterns as extreme
        assertEquals(0.25, PairedTests.pairedT(new double[] {1, 2, 3}, new double[] {2, 3, 4}), 0.0);
        assertEquals(0.25, PairedTests.pairedT(new double[] {2, 3, 4}, new double[] {1, 2, 3}), 0.0);
        assertEquals(0.5, PairedTests.pairedT(new double[] {2, 2}, new double[] {20, 20}), 0.0);
        double[] ten = new double[10];
        double[] tenPlus18 = new double[10];
        double[] big = new double[200];
        double[] bigPlus18 = new double[200];
        for (int i = 0; i < big.length; i++) {
            big[i] = 2;
            bigPlus18[i] = 20;
            if (i < ten.length) {
                ten[i] = i;
                tenPlus18[i] = i + 18;
            }
        }
        assertEquals(1.0 / 512, PairedTests.pairedT(ten, tenPlus18), 0.0);
        assertEquals(Math.scalb(1.0, -199), PairedTests.pairedT(big, bigPlus18), 0.0);
        assertTrue(!PairedTests.identical(new double[] {1, 2, 3}, new double[] {2, 3, 4}));
        // every difference 0: identical, [0, 0] contains 0, p = 1 for both tests
        assertEquals(1.0, PairedTests.pairedT(new double[] {1, 2, 3}, new double[] {1, 2, 3}), 0.0);
        assertEquals(1.0, PairedTests.pairedT(new double[] {0, 0}, new double[] {0, 0}), 0.0);
        assertTrue(PairedTests.identical(new double[] {0, 0}, new double[] {0, -0.0}));
        PairedTests.WilcoxonResult none = PairedTests.wilcoxon(new double[] {1, 2}, new double[] {1, 2});
        assertEquals(1.0, none.p(), 0.0);
        assertEquals(PairedTests.WilcoxonMethod.EXACT, none.method());
    }

    @Test
    void wilcoxonExactForSixPositiveDifferences() {
        // all 6 differences positive: W+ = 21 is the maximum; P(W+ ≥ 21) = 1/64, two-sided 2/64
        double[] reference = {1, 2, 3, 4, 5, 6};
        double[] policy = {2, 4, 6, 8, 10, 12};
        PairedTests.WilcoxonResult result = PairedTests.wilcoxon(reference, policy);
        assertEquals(2.0 / 64, result.p(), 1e-15);
        assertEquals(PairedTests.WilcoxonMethod.EXACT, result.method());
        assertEquals(2.0 / 64, PairedTests.wilcoxon(policy, reference).p(), 1e-15);
    }

    @Test
    void wilcoxonExactPIsHipparchusEnumerationToTheBit() {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
        for (int m : new int[] {2, 3, 5, 8, 11, 13, 16, 20}) {
            for (int trial = 0; trial < (m == 20 ? 1 : 5); trial++) {
                double[] reference = new double[m];
                double[] policy = new double[m];
                for (int i = 0; i < m; i++) {
                    reference[i] = rng.nextDouble();
                    policy[i] = reference[i] + (rng.nextDouble() - 0.4); // untied non-zero differences
                }
                double enumerated = new org.hipparchus.stat.inference.WilcoxonSignedRankTest()
                        .wilcoxonSignedRankTest(reference, policy, true);
                assertEquals(Math.min(1.0, enumerated), PairedTests.wilcoxon(reference, policy).p(), 0.0, "m = " + m);
            }
        }
    }

    @Test
    void wilcoxonDropsZeroDifferences() {
        // one zero difference: 5 positive ones remain, two-sided exact p = 2/32
        PairedTests.WilcoxonResult result = PairedTests.wilcoxon(
                new double[] {1, 2, 3, 4, 5, 6}, new double[] {1, 4, 6, 8, 10, 12});
        assertEquals(2.0 / 32, result.p(), 1e-15);
        assertEquals(PairedTests.WilcoxonMethod.EXACT, result.method());
    }

    @Test
    void wilcoxonUsesNormalApproximationWithTiesAndIsUndefinedWithFewPairs() {
        PairedTests.WilcoxonResult ties = PairedTests.wilcoxon(new double[] {1, 2, 3, 4, 5, 6, 7},
                new double[] {3, 5, 4, 7, 6, 9, 8}); // |d| = 2,3,1,3,1,3,1: tied
        assertEquals(PairedTests.WilcoxonMethod.NORMAL, ties.method());
        assertTrue(ties.p() > 0 && ties.p() < 1);
        // 5 pairs with tied |d|: too few for the normal approximation, n/a rather than a made-up p
        PairedTests.WilcoxonResult fewTies = PairedTests.wilcoxon(REFERENCE, POLICY); // |d| = 2,3,1,3,1
        assertEquals(PairedTests.WilcoxonMethod.UNDEFINED, fewTies.method());
        assertTrue(Double.isNaN(fewTies.p()));
        PairedTests.WilcoxonResult twoPairs = PairedTests.wilcoxon(new double[] {1, 2}, new double[] {2, 3});
        assertEquals(PairedTests.WilcoxonMethod.UNDEFINED, twoPairs.method(), "2 pairs, equal |d|: n/a, not p = 0.37");
        assertEquals(PairedTests.WilcoxonMethod.UNDEFINED,
                PairedTests.wilcoxon(new double[] {1}, new double[] {2}).method());
        // constant non-zero differences: tied |d|, the normal approximation answers from 6 pairs on
        PairedTests.WilcoxonResult constant = PairedTests.wilcoxon(new double[] {1, 2, 3, 4, 5, 6},
                new double[] {2, 3, 4, 5, 6, 7});
        assertEquals(PairedTests.WilcoxonMethod.NORMAL, constant.method());
        assertTrue(constant.p() <= 1);
    }

    @Test
    void pairedTestsRejectBadInput() {
        IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
                () -> PairedTests.pairedT(new double[] {1, 2}, new double[] {1}));
        assertTrue(lengths.getMessage().contains("reference has 2 values, policy has 1"), lengths.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> PairedTests.wilcoxon(new double[] {1, Double.NaN}, new double[] {1, 2}));
    }

    @Test
    void holmAgainstHandValues() {
        // sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max with previous 0.06
        assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02},
                Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005}), 1e-12);
    }

    @Test
    void holmIgnoresNaNAndCapsAtOne() {
        double[] adjusted = Holm.adjust(new double[] {0.01, Double.NaN, 0.04});
        assertEquals(0.02, adjusted[0], 1e-12);
        assertTrue(Double.isNaN(adjusted[1]));
        assertEquals(0.04, adjusted[2], 1e-12);
        assertArrayEquals(new double[] {1, 1}, Holm.adjust(new double[] {0.6, 0.9}), 0);
        assertEquals(0, Holm.adjust(new double[0]).length);
        assertThrows(IllegalArgumentException.class, () -> Holm.adjust(new double[] {1.5}));
    }

    @Test
    void bootstrapContainsTheMeanAndIsDeterministic() {
        double[] values = {0.21, 0.25, 0.19, 0.30, 0.24, 0.22, 0.27, 0.20};
        double mean = Arrays.stream(values).average().orElseThrow();
        BootstrapCi.Interval ci = BootstrapCi.ofMean(values);
        assertTrue(ci.lower() < mean && mean < ci.upper(), ci + " vs mean " + mean);
        assertTrue(ci.lower() >= 0.19 && ci.upper() <= 0.30, ci.toString());
        assertEquals(ci, BootstrapCi.ofMean(values));
        double[] shuffled = {0.30, 0.19, 0.27, 0.21, 0.20, 0.25, 0.22, 0.24};
        assertEquals(ci, BootstrapCi.ofMean(shuffled), "depends only on the multiset of values");
        assertTrue(!ci.equals(BootstrapCi.ofMean(values, 2000, 7, 0.95)), "another seed gives another interval");
    }

    @Test
    void bootstrapEdgeCases() {
        assertEquals(BootstrapCi.Interval.UNDEFINED, BootstrapCi.ofMean(new double[] {3}));
        assertEquals(new BootstrapCi.Interval(2, 2), BootstrapCi.ofMean(new double[] {2, 2, 2}));
        assertThrows(IllegalArgumentException.class, () -> BootstrapCi.ofMean(new double[] {1, Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> BootstrapCi.ofMean(new double[] {1, 2}, 10, 1, 0.95));
    }
}

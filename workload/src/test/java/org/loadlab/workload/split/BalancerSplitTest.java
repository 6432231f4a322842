package org.loadlab.workload.split;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Frontend split frequencies match their weights; determinism; validation. */
class BalancerSplitTest {

    static int[] picks(BalancerSplit s, int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = s.pick();
        }
        return out;
    }

    static double[] frequencies(BalancerSplit s, int n) {
        double[] f = new double[s.balancers()];
        for (int i = 0; i < n; i++) {
            f[s.pick()]++;
        }
        for (int i = 0; i < f.length; i++) {
            f[i] /= n;
        }
        return f;
    }

    @Test
    void zipfFrequenciesMatchWeights() {
        int b = 8;
        double alpha = 1.35;
        BalancerSplit s = BalancerSplit.zipf(b, alpha, new SplittableRandom(1));
        double norm = 0;
        for (int i = 0; i < b; i++) {
            norm += 1 / Math.pow(i + 1, alpha);
        }
        int n = 1_000_000;
        double[] f = frequencies(s, n);
        double chi2 = 0;
        for (int i = 0; i < b; i++) {
            double p = 1 / Math.pow(i + 1, alpha) / norm;
            assertEquals(p, s.probability(i), 1e-12);
            assertEquals(p, f[i], 0.03 * p + 0.001, "balancer " + i);
            chi2 += n * (f[i] - p) * (f[i] - p) / p;
        }
        // chi-square with 7 degrees of freedom: P(X > 24.3) = 0.001
        assertEquals(0, chi2, 24.3, "chi-square statistic");
    }

    @Test
    void largeSkewedSplitStillMatches() {
        BalancerSplit s = BalancerSplit.zipf(220, 2.0, new SplittableRandom(2));
        double[] f = frequencies(s, 2_000_000);
        for (int i = 0; i < 5; i++) {
            assertEquals(s.probability(i), f[i], 0.02 * s.probability(i));
        }
    }

    @Test
    void uniformAndWeighted() {
        double[] f = frequencies(BalancerSplit.uniform(4, new SplittableRandom(3)), 400_000);
        for (double v : f) {
            assertEquals(0.25, v, 0.005);
        }
        double[] g = frequencies(BalancerSplit.weighted(new double[] {0, 3, 1, 0}, new SplittableRandom(4)), 400_000);
        assertEquals(0, g[0]);
        assertEquals(0, g[3]);
        assertEquals(0.75, g[1], 0.005);
        BalancerSplit one = BalancerSplit.zipf(1, 1.35, new SplittableRandom(5));
        for (int i = 0; i < 100; i++) {
            assertEquals(0, one.pick());
        }
        double[] z0 = frequencies(BalancerSplit.zipf(5, 0, new SplittableRandom(6)), 500_000);
        for (double v : z0) {
            assertEquals(0.2, v, 0.005);
        }
    }

    @Test
    void deterministicPerSeed() {
        assertArrayEquals(picks(BalancerSplit.zipf(8, 1.35, new SplittableRandom(7)), 1000),
                picks(BalancerSplit.zipf(8, 1.35, new SplittableRandom(7)), 1000));
        assertFalse(Arrays.equals(picks(BalancerSplit.zipf(8, 1.35, new SplittableRandom(7)), 1000),
                picks(BalancerSplit.zipf(8, 1.35, new SplittableRandom(8)), 1000)));
    }

    @Test
    void validation() {
        SplittableRandom r = new SplittableRandom(1);
        assertEquals("number of balancers must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> BalancerSplit.uniform(0, r)).getMessage());
        assertEquals("Zipf exponent alpha must be finite and >= 0, was -1.0",
                assertThrows(IllegalArgumentException.class, () -> BalancerSplit.zipf(4, -1, r)).getMessage());
        assertEquals("balancer weight[1] must be finite and >= 0, was NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> BalancerSplit.weighted(new double[] {1, Double.NaN}, r)).getMessage());
        assertEquals("balancer weights must not all be 0, were all 0",
                assertThrows(IllegalArgumentException.class, () -> BalancerSplit.weighted(new double[] {0, 0}, r))
                        .getMessage());
    }
}

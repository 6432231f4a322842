package org.loadlab.analysis.stats;

import org.hipparchus.distribution.discrete.BinomialDistribution;

/**
 * How m balls thrown into n bins load them, as fractions s_k of bins holding at least k
 * balls:
 * <ul>
 *   <li>one random choice per ball: each bin's load is Binomial(m, 1/n), so the expected
 *       fraction is exactly E[s_k] = P(Binomial(m, 1/n) ≥ k), for every n;</li>
 *   <li>d ≥ 2 independent uniform choices, the ball going to the least loaded (ties at
 *       random): as n → ∞ the fractions follow the fluid limit ds_k/dt = s_{k−1}^d − s_k^d,
 *       s_0 = 1, s_k(0) = 0, up to t = m/n (Kurtz's theorem: the deviation is O(√(log n / n))).
 *       It is solved here with the classical Runge–Kutta scheme (step 10⁻⁴ of m/n).</li>
 * </ul>
 * The maximum load grows as ln n / ln ln n for one choice and ln ln n / ln d + O(1) for d.
 *
 * <p>Source: Azar, Broder, Karlin, Upfal, "Balanced allocations", STOC 1994 / SIAM J. Comput.
 * 29(1), 1999; M. Mitzenmacher, A. Richa, R. Sitaraman, "The power of two random choices: a
 * survey of techniques and results", Handbook of Randomized Computing, 2001, §2 (the
 * differential equations and their solution for n balls).
 */
public final class BallsIntoBinsTheory {
    private static final int STEPS = 10_000;

    private BallsIntoBinsTheory() {
    }

    /**
     * One random choice: the exact expected fraction of bins with at least k balls, k = 0..maxLoad.
     *
     * @param balls m ≥ 0
     * @param bins n ≥ 1
     * @param maxLoad largest k, ≥ 0
     * @return {@code s[k]} = P(Binomial(m, 1/n) ≥ k)
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double[] randomTail(long balls, int bins, int maxLoad) {
        if (balls < 0 || balls > Integer.MAX_VALUE || bins < 1 || maxLoad < 0) {
            throw new IllegalArgumentException("need 0 <= balls <= 2^31-1, bins >= 1, maxLoad >= 0; got balls " + balls
                    + ", bins " + bins + ", maxLoad " + maxLoad);
        }
        BinomialDistribution b = new BinomialDistribution((int) balls, 1.0 / bins);
        double[] s = new double[maxLoad + 1];
        // Sum the upper tail from the top so that tiny tails keep their precision.
        int top = (int) Math.min(balls, maxLoad + 200L);
        double tail = 0;
        for (int k = top; k >= 0; k--) {
            tail += b.probability(k);
            if (k <= maxLoad) {
                s[k] = Math.min(1.0, tail);
            }
        }
        s[0] = 1.0;
        return s;
    }

    /**
     * d ≥ 1 choices, the fluid limit (n → ∞) of the fraction of bins with at least k balls
     * after {@code ballsPerBin}·n balls.
     *
     * @param ballsPerBin m/n ≥ 0
     * @param d choices per ball, ≥ 1
     * @param maxLoad largest k, ≥ 0
     * @return {@code s[k]}, k = 0..maxLoad, s[0] = 1
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double[] fluidTail(double ballsPerBin, int d, int maxLoad) {
        if (!(ballsPerBin >= 0) || Double.isInfinite(ballsPerBin) || d < 1 || maxLoad < 0) {
            throw new IllegalArgumentException("need ballsPerBin >= 0 finite, d >= 1, maxLoad >= 0; got " + ballsPerBin
                    + ", " + d + ", " + maxLoad);
        }
        int levels = maxLoad + 8; // levels above maxLoad are negligible feedback-free tails; keep a margin
        double[] s = new double[levels + 1];
        s[0] = 1;
        double h = ballsPerBin / STEPS;
        double[] k1 = new double[levels + 1];
        double[] k2 = new double[levels + 1];
        double[] k3 = new double[levels + 1];
        double[] k4 = new double[levels + 1];
        double[] tmp = new double[levels + 1];
        for (int step = 0; step < STEPS; step++) {
            derivative(s, d, k1);
            for (int i = 0; i <= levels; i++) {
                tmp[i] = s[i] + h / 2 * k1[i];
            }
            derivative(tmp, d, k2);
            for (int i = 0; i <= levels; i++) {
                tmp[i] = s[i] + h / 2 * k2[i];
            }
            derivative(tmp, d, k3);
            for (int i = 0; i <= levels; i++) {
                tmp[i] = s[i] + h * k3[i];
            }
            derivative(tmp, d, k4);
            for (int i = 1; i <= levels; i++) {
                s[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
            }
        }
        double[] out = new double[maxLoad + 1];
        System.arraycopy(s, 0, out, 0, maxLoad + 1);
        return out;
    }

    /** ds_i/dt = s_{i−1}^d − s_i^d for i ≥ 1; s_0 stays 1. */
    private static void derivative(double[] s, int d, double[] out) {
        out[0] = 0;
        for (int i = 1; i < s.length; i++) {
            out[i] = Math.pow(s[i - 1], d) - Math.pow(s[i], d);
        }
    }
}

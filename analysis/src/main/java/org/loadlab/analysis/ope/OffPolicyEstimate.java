package org.loadlab.analysis.ope;

import java.util.SplittableRandom;

/**
 * Off-policy estimates of a target policy's mean reward from logged decisions of another
 * policy: each logged decision i has a reward r_i, the logging policy's propensity μ_i of the
 * action it took and the target policy's probability π_i of that same action. With importance
 * weights w_i = π_i / μ_i:
 * <ul>
 *   <li>IPS (inverse propensity scoring): V = (1/n) Σ w_i r_i, unbiased when μ_i &gt; 0 wherever
 *       π_i &gt; 0; its 95 % interval is the normal one, V ± 1.96·sd(w r)/√n;</li>
 *   <li>SNIPS (self-normalised IPS): V = Σ w_i r_i / Σ w_i, biased but bounded by the rewards'
 *       range and far less variable; its 95 % interval is a percentile bootstrap (fixed seed).</li>
 * </ul>
 * Also reported: the effective sample size (Σ w)² / Σ w², which says how many logged decisions
 * the estimate really rests on, and the largest weight.
 *
 * <p>Source: Horvitz and Thompson (1952); Swaminathan and Joachims, "The Self-Normalized
 * Estimator for Counterfactual Learning" (NeurIPS 2015); Dudík, Langford and Li (ICML 2011).
 *
 * @param n decisions used
 * @param ips the IPS estimate
 * @param ipsLow lower end of its 95 % interval
 * @param ipsHigh upper end
 * @param snips the SNIPS estimate (NaN when every weight is 0)
 * @param snipsLow lower end of its 95 % bootstrap interval
 * @param snipsHigh upper end
 * @param effectiveSampleSize (Σ w)² / Σ w²
 * @param maxWeight the largest importance weight
 * @param loggedValue the mean logged reward (the logging policy's own value)
 */
public record OffPolicyEstimate(long n, double ips, double ipsLow, double ipsHigh, double snips, double snipsLow,
                                double snipsHigh, double effectiveSampleSize, double maxWeight, double loggedValue) {
    /** Bootstrap resamples of the SNIPS interval. */
    public static final int RESAMPLES = 1000;

    /**
     * Estimates from arrays of equal length.
     *
     * @param rewards r_i
     * @param logging μ_i, each in (0, 1]
     * @param target π_i, each in [0, 1]
     * @param seed the bootstrap's seed
     * @return the estimate
     * @throws IllegalArgumentException if the arrays differ in length, are empty, or a propensity is out of range
     */
    public static OffPolicyEstimate of(double[] rewards, double[] logging, double[] target, long seed) {
        int n = rewards.length;
        if (n == 0 || logging.length != n || target.length != n) {
            throw new IllegalArgumentException("off-policy evaluation needs as many rewards as propensities, at least one: "
                    + n + " rewards, " + logging.length + " logging, " + target.length + " target");
        }
        double[] w = new double[n];
        double sumW = 0;
        double sumW2 = 0;
        double sumWr = 0;
        double sumWr2 = 0;
        double maxW = 0;
        double sumR = 0;
        for (int i = 0; i < n; i++) {
            if (!(logging[i] > 0 && logging[i] <= 1)) {
                throw new IllegalArgumentException("decision " + i + ": logging propensity " + logging[i] + " is not in (0, 1]");
            }
            if (!(target[i] >= 0 && target[i] <= 1)) {
                throw new IllegalArgumentException("decision " + i + ": target probability " + target[i] + " is not in [0, 1]");
            }
            w[i] = target[i] / logging[i];
            double wr = w[i] * rewards[i];
            sumW += w[i];
            sumW2 += w[i] * w[i];
            sumWr += wr;
            sumWr2 += wr * wr;
            maxW = Math.max(maxW, w[i]);
            sumR += rewards[i];
        }
        double ips = sumWr / n;
        double var = n > 1 ? (sumWr2 - n * ips * ips) / (n - 1) : 0;
        double half = 1.959963984540054 * Math.sqrt(Math.max(0, var) / n);
        double snips = sumW > 0 ? sumWr / sumW : Double.NaN;
        double[] boot = new double[RESAMPLES];
        SplittableRandom rng = new SplittableRandom(seed);
        int valid = 0;
        for (int b = 0; b < RESAMPLES; b++) {
            double sw = 0;
            double swr = 0;
            for (int k = 0; k < n; k++) {
                int i = rng.nextInt(n);
                sw += w[i];
                swr += w[i] * rewards[i];
            }
            if (sw > 0) {
                boot[valid++] = swr / sw;
            }
        }
        double low = Double.NaN;
        double high = Double.NaN;
        if (valid > 0) {
            double[] v = java.util.Arrays.copyOf(boot, valid);
            java.util.Arrays.sort(v);
            low = v[(int) Math.floor(0.025 * (valid - 1))];
            high = v[(int) Math.ceil(0.975 * (valid - 1))];
        }
        double ess = sumW2 > 0 ? sumW * sumW / sumW2 : 0;
        return new OffPolicyEstimate(n, ips, ips - half, ips + half, snips, low, high, ess, maxW, sumR / n);
    }
}

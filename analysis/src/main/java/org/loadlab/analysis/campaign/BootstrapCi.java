package org.loadlab.analysis.campaign;

import java.util.Arrays;
import java.util.Objects;
import org.hipparchus.random.RandomGenerator;
import org.hipparchus.random.Well19937c;
import org.hipparchus.stat.descriptive.rank.Percentile;

/**
 * Percentile-bootstrap confidence interval of a mean: draw {@code B} resamples of size n with
 * replacement, take each resample's mean, and report the (α/2, 1 − α/2) percentiles of those
 * means (Efron's percentile interval).
 *
 * <p>Deterministic: every call starts a fresh {@link Well19937c} generator with a fixed seed
 * ({@value #SEED} by default) and resamples the values <em>sorted ascending</em>, so the
 * interval depends only on the multiset of values, B and the seed — never on call order.
 * Percentiles of the resampled means use Hipparchus {@link Percentile} with
 * {@link Percentile.EstimationType#R_7} (linear interpolation; R's and NumPy's default).
 *
 * <p>Unlike the Student-t interval it assumes no normality, but with few seeds (n &lt; 10) it
 * is too narrow: it cannot show more spread than the sample has. Treat it as a check.
 *
 * <p>Source: B. Efron, R. Tibshirani, "An Introduction to the Bootstrap", Chapman &amp; Hall
 * 1993, ch. 13 (percentile interval); Hipparchus 3.1 {@link Well19937c}, {@link Percentile}.
 */
public final class BootstrapCi {

    /** Default number of resamples B. */
    public static final int RESAMPLES = 2000;

    /** Default generator seed (the same for every interval). */
    public static final long SEED = 20240611L;

    /** Two-sided confidence level of the default interval. */
    public static final double CONFIDENCE = 0.95;

    /**
     * A confidence interval.
     *
     * @param lower lower bound, in the values' unit; NaN when undefined
     * @param upper upper bound, in the values' unit; NaN when undefined
     */
    public record Interval(double lower, double upper) {

        /** The undefined interval (NaN, NaN). */
        public static final Interval UNDEFINED = new Interval(Double.NaN, Double.NaN);
    }

    private BootstrapCi() {
    }

    /**
     * 95% percentile-bootstrap interval of the mean with {@value #RESAMPLES} resamples and seed
     * {@value #SEED}.
     *
     * @param values the sample, e.g. one metric over seeds; not modified; must not hold NaN
     * @return the interval; {@link Interval#UNDEFINED} when fewer than 2 values
     * @throws IllegalArgumentException if a value is NaN
     * @throws NullPointerException if {@code values} is null
     */
    public static Interval ofMean(double[] values) {
        return ofMean(values, RESAMPLES, SEED, CONFIDENCE);
    }

    /**
     * Percentile-bootstrap interval of the mean.
     *
     * @param values the sample; not modified; must not hold NaN
     * @param resamples number of resamples B, ≥ 100
     * @param seed generator seed
     * @param confidence two-sided confidence level in (0, 1), e.g. 0.95
     * @return the interval; {@link Interval#UNDEFINED} when fewer than 2 values
     * @throws IllegalArgumentException if a value is NaN, {@code resamples} &lt; 100 or
     *     {@code confidence} is not in (0, 1)
     * @throws NullPointerException if {@code values} is null
     */
    public static Interval ofMean(double[] values, int resamples, long seed, double confidence) {
        Objects.requireNonNull(values, "values");
        if (resamples < 100) {
            throw new IllegalArgumentException("resamples: " + resamples + "; must be ≥ 100");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence: " + confidence + "; must be in (0, 1)");
        }
        for (int i = 0; i < values.length; i++) {
            if (Double.isNaN(values[i])) {
                throw new IllegalArgumentException("values[" + i + "]: NaN; leave undefined values out");
            }
        }
        int n = values.length;
        if (n < 2) {
            return Interval.UNDEFINED;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        RandomGenerator random = new Well19937c(seed);
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += sorted[random.nextInt(n)];
            }
            means[b] = sum / n;
        }
        Percentile percentile = new Percentile().withEstimationType(Percentile.EstimationType.R_7);
        double tail = (1 - confidence) / 2 * 100;
        return new Interval(percentile.evaluate(means, tail), percentile.evaluate(means, 100 - tail));
    }
}

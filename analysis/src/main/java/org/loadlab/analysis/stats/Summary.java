package org.loadlab.analysis.stats;

import java.util.Objects;
import org.hipparchus.distribution.continuous.TDistribution;
import org.hipparchus.stat.descriptive.moment.Mean;
import org.hipparchus.stat.descriptive.moment.StandardDeviation;

/**
 * Mean, sample standard deviation and 95% confidence half-width of a set of values, typically
 * one metric over independent runs (seeds).
 *
 * <p>The interval is mean ± {@code ci95} with {@code ci95 = t_{0.975, n−1} · sd / √n}
 * (Student t with n − 1 degrees of freedom; assumes independent, roughly normal values).
 *
 * <p>Source: SPEC.md §4 (summaries with mean, sd, 95% CI); Hipparchus 3.1 {@link TDistribution},
 * {@link Mean}, {@link StandardDeviation}.
 *
 * @param n number of values
 * @param mean arithmetic mean, in the values' unit; NaN when n = 0
 * @param sd sample standard deviation (divisor n − 1), in the values' unit; NaN when n &lt; 2
 * @param ci95 half-width of the two-sided 95% confidence interval of the mean, in the values'
 *     unit; NaN when n &lt; 2
 */
public record Summary(int n, double mean, double sd, double ci95) {

    /** Two-sided confidence level of {@link #ci95}. */
    public static final double CONFIDENCE = 0.95;

    /**
     * Summarises values. NaN values propagate (the mean, sd and ci95 become NaN).
     *
     * @param values the values, e.g. one metric per seed; not modified
     * @return the summary
     * @throws NullPointerException if {@code values} is null
     */
    public static Summary of(double[] values) {
        Objects.requireNonNull(values, "values");
        int n = values.length;
        if (n == 0) {
            return new Summary(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = new Mean().evaluate(values);
        if (n < 2) {
            return new Summary(n, mean, Double.NaN, Double.NaN);
        }
        double sd = new StandardDeviation(true).evaluate(values);
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        return new Summary(n, mean, sd, t * sd / Math.sqrt(n));
    }
}

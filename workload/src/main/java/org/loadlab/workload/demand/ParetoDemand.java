package org.loadlab.workload.demand;

import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.hipparchus.util.FastMath;

/**
 * Pareto (type I) demand with shape {@code α > 1} and scale {@code x_m = mean·(α−1)/α}, so
 * {@code E[D] = mean} and every sample is {@code >= x_m}. For {@code α <= 2} the variance is
 * infinite (α = 1.5 in SPEC.md §5): sample means converge slowly.
 *
 * <p>Samples as {@code x_m·exp(E/α)} with {@code E ~ Exp(1)} from Hipparchus
 * {@link RandomDataGenerator#nextExponential(double)} (exact: {@code ln(D/x_m) ~ Exp(α)}); this
 * avoids Hipparchus' {@code ParetoDistribution}, whose inverse CDF is a numerical solver.
 * Source: SPEC.md §5 (seed 001 size mix).
 */
public final class ParetoDemand implements DemandDistribution {

    private final double alpha;
    private final double mean;
    private final double scale;
    private final double inverseAlpha;
    private final RandomDataGenerator random;

    /**
     * @param alpha shape α, finite and {@code > 1} (the mean is infinite for α ≤ 1)
     * @param mean mean demand in work units, finite and {@code > 0}
     * @param rng the random stream to draw from
     * @throws IllegalArgumentException if {@code alpha} is not finite and {@code > 1}, or
     *     {@code mean} is not finite and {@code > 0}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public ParetoDemand(double alpha, double mean, RandomGenerator rng) {
        if (!(alpha > 1) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("Pareto shape alpha must be finite and > 1 (finite mean), was " + alpha);
        }
        this.alpha = alpha;
        this.mean = Checks.positive(mean, "Pareto demand mean", "work units");
        this.scale = mean * (alpha - 1) / alpha;
        this.inverseAlpha = 1 / alpha;
        this.random = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
    }

    /** @return a Pareto demand in work units, {@code >= scale()} (may be {@code +∞} only on overflow, practically never) */
    @Override
    public double sample() {
        return scale * FastMath.exp(random.nextExponential(1.0) * inverseAlpha);
    }

    /** @return the mean in work units */
    @Override
    public double mean() {
        return mean;
    }

    /** @return the shape α */
    public double alpha() {
        return alpha;
    }

    /** @return the scale (minimum) {@code x_m = mean·(α−1)/α} in work units */
    public double scale() {
        return scale;
    }

    /** @return the median {@code x_m·2^(1/α)} in work units (a robust check for samples) */
    public double median() {
        return scale * FastMath.pow(2.0, inverseAlpha);
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "ParetoDemand[alpha=" + alpha + ", mean=" + mean + "]";
    }
}

package org.loadlab.workload.demand;

import java.util.Objects;

/**
 * A demand distribution multiplied by a constant factor: {@code D' = factor·D}, so
 * {@code E[D'] = factor·E[D]} and the coefficient of variation is unchanged. Use
 * {@link #toMean(DemandDistribution, double)} to rescale any distribution to a target mean (e.g.
 * mean 1 work unit, so that utilisation {@code ρ = λ/Σμ}).
 *
 * <p>Source: SPEC.md §5 ("scaled to mean 1").
 */
public final class ScaledDemand implements DemandDistribution {

    private final DemandDistribution base;
    private final double factor;

    /**
     * @param base the distribution to scale
     * @param factor the multiplier, finite and {@code > 0}
     * @throws IllegalArgumentException if {@code factor} is not finite and {@code > 0}
     * @throws NullPointerException if {@code base} is {@code null}
     */
    public ScaledDemand(DemandDistribution base, double factor) {
        this.base = Objects.requireNonNull(base, "base");
        this.factor = Checks.positive(factor, "demand scale factor", "");
    }

    /**
     * Rescales {@code base} so that its mean is {@code targetMean}.
     *
     * @param base the distribution to scale; its {@link DemandDistribution#mean()} must be finite and {@code > 0}
     * @param targetMean the wanted mean in work units, finite and {@code > 0}
     * @return a distribution with {@code mean() == targetMean} (up to rounding)
     * @throws IllegalArgumentException if {@code targetMean} or {@code base.mean()} is not finite and {@code > 0}
     * @throws NullPointerException if {@code base} is {@code null}
     */
    public static ScaledDemand toMean(DemandDistribution base, double targetMean) {
        Objects.requireNonNull(base, "base");
        Checks.positive(targetMean, "target mean demand", "work units");
        double m = Checks.positive(base.mean(), "mean of the distribution to scale", "work units");
        return new ScaledDemand(base, targetMean / m);
    }

    /** @return {@code factor} times a sample of the base distribution, in work units */
    @Override
    public double sample() {
        return factor * base.sample();
    }

    /** @return {@code factor·base.mean()} in work units */
    @Override
    public double mean() {
        return factor * base.mean();
    }

    /** @return the multiplier */
    public double factor() {
        return factor;
    }

    /** @return the unscaled distribution */
    public DemandDistribution base() {
        return base;
    }
}

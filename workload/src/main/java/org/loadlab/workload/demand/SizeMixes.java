package org.loadlab.workload.demand;

import java.util.random.RandomGenerator;
import org.hipparchus.util.FastMath;

/**
 * Factories for the request-size mixes the scenarios name.
 *
 * <p>Source: SPEC.md §5 (seed 001, Sticky-Lazy simulation).
 */
public final class SizeMixes {

    /** Share of log-normal requests in the seed 001 mix. */
    public static final double SEED001_LOGNORMAL_WEIGHT = 0.9;
    /** Share of Pareto requests in the seed 001 mix. */
    public static final double SEED001_PARETO_WEIGHT = 0.1;
    /** σ of the underlying normal of the seed 001 log-normal component. */
    public static final double SEED001_LOGNORMAL_SIGMA = 1.0;
    /** Shape α of the seed 001 Pareto component. */
    public static final double SEED001_PARETO_ALPHA = 1.5;

    private SizeMixes() {
    }

    /**
     * Mean of the standard log-normal exp(N(0, σ²)): e^{σ²/2}.
     *
     * @param sigma σ of the underlying normal, {@code > 0}
     * @return the mean in work units
     */
    public static double standardLogNormalMean(double sigma) {
        return FastMath.exp(sigma * sigma / 2);
    }

    /**
     * Mean of the standard Pareto with scale x_m = 1: α/(α − 1).
     *
     * @param alpha tail index α, {@code > 1}
     * @return the mean in work units
     */
    public static double standardParetoMean(double alpha) {
        return alpha / (alpha - 1);
    }

    /**
     * SPEC.md §5's size mix: 90% log-normal (σ = 1) and 10% Pareto (α = 1.5), scaled to
     * {@code targetMean}.
     *
     * <p>The components are taken in their standard (unscaled) form, mixed, and the mixture is
     * then scaled: log-normal {@code exp(N(0,1))} (mean {@code e^0.5 ≈ 1.649}) and Pareto with
     * {@code x_m = 1} (mean 3), raw mixture mean {@code 0.9·1.649 + 0.1·3 ≈ 1.784}, so the Pareto
     * tail carries about 16.8% of the work. One {@code rng} feeds the component choice and both
     * components.
     *
     * @param targetMean mean demand in work units, finite and {@code > 0} (SPEC: 1)
     * @param rng the random stream
     * @return the scaled mixture, {@code mean() == targetMean}
     * @throws IllegalArgumentException if {@code targetMean} is not finite and {@code > 0}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public static DemandDistribution seed001(double targetMean, RandomGenerator rng) {
        DemandDistribution logNormal = new LogNormalDemand(standardLogNormalMean(SEED001_LOGNORMAL_SIGMA),
                SEED001_LOGNORMAL_SIGMA, rng);
        DemandDistribution pareto = new ParetoDemand(SEED001_PARETO_ALPHA, standardParetoMean(SEED001_PARETO_ALPHA), rng);
        MixtureDemand mixture = new MixtureDemand(
                new double[] {SEED001_LOGNORMAL_WEIGHT, SEED001_PARETO_WEIGHT},
                new DemandDistribution[] {logNormal, pareto}, rng);
        return ScaledDemand.toMean(mixture, targetMean);
    }
}

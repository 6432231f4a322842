package org.loadlab.workload.demand;

import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;

/**
 * Exponentially distributed demand with the given mean (the service law of M/M/1, SCV 1).
 *
 * <p>Samples with Hipparchus {@link RandomDataGenerator#nextExponential(double)} (Ahrens–Dieter
 * SA algorithm, table based, no allocation) over the given stream.
 * Source: SPEC.md §1; seed 000's demand is {@code max(0.1, Exp(mean 1.5))} (SPEC.md §4), which
 * the time-stepped reference model applies on top of this.
 */
public final class ExponentialDemand implements DemandDistribution {

    private final double mean;
    private final RandomDataGenerator random;

    /**
     * @param mean mean demand in work units, finite and {@code > 0}
     * @param rng the random stream to draw from (engine-derived, or {@code new SplittableRandom(seed)})
     * @throws IllegalArgumentException if {@code mean} is not finite and {@code > 0}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public ExponentialDemand(double mean, RandomGenerator rng) {
        this.mean = Checks.positive(mean, "exponential demand mean", "work units");
        this.random = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
    }

    /** @return an Exp(mean) demand in work units, {@code > 0} (a zero draw, probability ~2^-53, is returned as {@code Double.MIN_NORMAL}) */
    @Override
    public double sample() {
        double d = random.nextExponential(mean);
        return d > 0 ? d : Double.MIN_NORMAL;
    }

    /** @return the mean in work units */
    @Override
    public double mean() {
        return mean;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "ExponentialDemand[mean=" + mean + "]";
    }
}

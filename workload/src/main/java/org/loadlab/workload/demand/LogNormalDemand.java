package org.loadlab.workload.demand;

import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.hipparchus.util.FastMath;

/**
 * Log-normal demand {@code D = exp(m + σ Z)}, {@code Z ~ N(0,1)}, parameterised by its mean:
 * the location is {@code m = ln(mean) − σ²/2} so that {@code E[D] = mean}. The squared
 * coefficient of variation is {@code exp(σ²) − 1} (σ = 1 gives SCV ≈ 1.72).
 *
 * <p>Samples with Hipparchus {@link RandomDataGenerator#nextLogNormal(double, double)}.
 * Source: SPEC.md §5 (seed 001 size mix uses σ = 1).
 */
public final class LogNormalDemand implements DemandDistribution {

    private final double mean;
    private final double sigma;
    private final double location;
    private final RandomDataGenerator random;

    /**
     * @param mean mean demand in work units, finite and {@code > 0}
     * @param sigma standard deviation σ of the underlying normal, finite and {@code > 0}
     * @param rng the random stream to draw from
     * @throws IllegalArgumentException if {@code mean} or {@code sigma} is not finite and {@code > 0}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public LogNormalDemand(double mean, double sigma, RandomGenerator rng) {
        this.mean = Checks.positive(mean, "log-normal demand mean", "work units");
        this.sigma = Checks.positive(sigma, "log-normal sigma (of the underlying normal)", "");
        this.location = FastMath.log(mean) - sigma * sigma / 2;
        this.random = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
    }

    /** @return a log-normal demand in work units, {@code > 0} (underflow to 0 is returned as {@code Double.MIN_NORMAL}) */
    @Override
    public double sample() {
        double d = random.nextLogNormal(sigma, location);
        return d > 0 ? d : Double.MIN_NORMAL;
    }

    /** @return the mean in work units */
    @Override
    public double mean() {
        return mean;
    }

    /** @return σ of the underlying normal */
    public double sigma() {
        return sigma;
    }

    /** @return the location {@code m = ln(mean) − σ²/2} of the underlying normal */
    public double location() {
        return location;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "LogNormalDemand[mean=" + mean + ", sigma=" + sigma + "]";
    }
}

package org.loadlab.workload.arrival;

import java.util.Objects;
import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.loadlab.workload.demand.HipparchusRandomAdapter;

/**
 * Non-homogeneous Poisson arrivals with rate λ(t), by Lewis–Shedler thinning: candidates arrive
 * as a homogeneous Poisson process with the majorising rate λ_max = {@code maxRate()}, and a
 * candidate at {@code t} is kept with probability λ(t)/λ_max. Expected candidates per arrival is
 * λ_max / mean λ, so keep {@code maxRate()} tight.
 *
 * <p>Each candidate consumes one exponential and one uniform from the stream. If λ(t) is 0 over a
 * long stretch, {@link #next()} loops through candidates until λ becomes positive again (a rate
 * that stays 0 forever never returns). Source: Lewis &amp; Shedler, "Simulation of
 * nonhomogeneous Poisson processes by thinning", Naval Res. Logistics Q. 26 (1979); SPEC.md §5.
 */
public final class NonHomogeneousPoissonArrivals implements ArrivalProcess {

    private final RateFunction rate;
    private final double maxRate;
    private final double meanCandidateGap;
    private final RandomGenerator rng;
    private final RandomDataGenerator random;
    private double time;

    /**
     * @param rate the rate function λ(t) in requests/s; its {@code maxRate()} must be finite and {@code > 0}
     * @param rng the random stream
     * @throws IllegalArgumentException if {@code rate.maxRate()} is not finite and {@code > 0}
     * @throws NullPointerException if an argument is {@code null}
     */
    public NonHomogeneousPoissonArrivals(RateFunction rate, RandomGenerator rng) {
        this.rate = Objects.requireNonNull(rate, "rate");
        this.rng = Objects.requireNonNull(rng, "rng");
        this.maxRate = Checks.positive(rate.maxRate(), "maximum arrival rate of the rate function", "requests/s");
        this.meanCandidateGap = 1 / maxRate;
        this.random = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
    }

    /**
     * @return the next arrival time in seconds (never exhausted)
     * @throws IllegalStateException if the rate function returns a value above its {@code maxRate()}
     */
    @Override
    public double next() {
        while (true) {
            time += random.nextExponential(meanCandidateGap);
            double r = rate.rate(time);
            if (r > maxRate * (1 + 1e-12)) {
                throw new IllegalStateException("rate function returned " + r + " requests/s at t=" + time
                        + " s, above its maxRate " + maxRate + " requests/s");
            }
            if (rng.nextDouble() * maxRate < r) {
                return time;
            }
        }
    }

    /** @return the rate function's long-run mean in requests/s */
    @Override
    public double meanRate() {
        return rate.meanRate();
    }

    /** @return the rate function */
    public RateFunction rateFunction() {
        return rate;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "NonHomogeneousPoissonArrivals[" + rate + "]";
    }
}

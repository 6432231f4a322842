package org.loadlab.workload.arrival;

import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.loadlab.workload.demand.HipparchusRandomAdapter;

/**
 * Homogeneous Poisson arrivals with rate λ: inter-arrival times are i.i.d. Exp(λ) (mean 1/λ,
 * coefficient of variation 1). The first arrival is one inter-arrival time after 0.
 *
 * <p>Inter-arrival times come from Hipparchus {@link RandomDataGenerator#nextExponential(double)}
 * over the given stream. Source: SPEC.md §4 (poisson scenarios), §5.
 */
public final class PoissonArrivals implements ArrivalProcess {

    private final double rate;
    private final double meanGap;
    private final RandomDataGenerator random;
    private double time;

    /**
     * @param rate the arrival rate λ in requests/s, finite and {@code > 0}
     * @param rng the random stream (the engine's arrival stream, or {@code new SplittableRandom(seed)})
     * @throws IllegalArgumentException if {@code rate} is not finite and {@code > 0}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public PoissonArrivals(double rate, RandomGenerator rng) {
        this.rate = Checks.positive(rate, "arrival rate", "requests/s");
        this.meanGap = 1 / rate;
        this.random = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
    }

    /** @return the next arrival time in seconds (never exhausted) */
    @Override
    public double next() {
        time += random.nextExponential(meanGap);
        return time;
    }

    /** @return λ in requests/s */
    @Override
    public double meanRate() {
        return rate;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "PoissonArrivals[" + rate + " requests/s]";
    }
}

package org.loadlab.workload.arrival;

/**
 * Constant arrival rate λ(t) = λ.
 *
 * <p>Source: SPEC.md §4 (poisson scenarios).
 */
public final class ConstantRate implements RateFunction {

    private final double rate;

    /**
     * @param rate the arrival rate λ in requests/s, finite and {@code > 0}
     * @throws IllegalArgumentException if {@code rate} is not finite and {@code > 0}
     */
    public ConstantRate(double rate) {
        this.rate = Checks.positive(rate, "arrival rate", "requests/s");
    }

    /** @return λ in requests/s, for every {@code t} */
    @Override
    public double rate(double t) {
        return rate;
    }

    /** @return λ in requests/s */
    @Override
    public double maxRate() {
        return rate;
    }

    /** @return λ in requests/s */
    @Override
    public double meanRate() {
        return rate;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "ConstantRate[" + rate + " requests/s]";
    }
}

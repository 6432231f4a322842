package org.loadlab.workload.arrival;

/**
 * Evenly spaced arrivals: one every 1/λ seconds, the first at 1/λ (no randomness). Seed 003's
 * benchmark offers its load this way ({@code current_time += 1/target_rps}). The k-th arrival
 * is computed as k/λ, so the spacing does not drift with rounding.
 *
 * <p>Source: seed 003 ({@code benchmark.py}), SPEC.md §6.
 */
public final class PeriodicArrivals implements ArrivalProcess {
    private final double rate;
    private long k;

    /**
     * @param rate λ in requests/s, finite and &gt; 0
     * @throws IllegalArgumentException if the rate is not finite and positive
     */
    public PeriodicArrivals(double rate) {
        this.rate = Checks.positive(rate, "arrival rate", "requests/s");
    }

    @Override
    public double next() {
        k++;
        return k / rate;
    }

    @Override
    public double meanRate() {
        return rate;
    }

    @Override
    public String toString() {
        return "PeriodicArrivals[" + rate + " requests/s]";
    }
}

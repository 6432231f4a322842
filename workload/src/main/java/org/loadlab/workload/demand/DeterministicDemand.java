package org.loadlab.workload.demand;

/**
 * Constant demand: every request needs exactly {@code value} work units (the D in M/D/1).
 *
 * <p>Source: SPEC.md §1 (service demand D); useful for calibration tests.
 */
public final class DeterministicDemand implements DemandDistribution {

    private final double value;

    /**
     * @param value the demand of every request in work units, finite and {@code > 0}
     * @throws IllegalArgumentException if {@code value} is not finite and {@code > 0}
     */
    public DeterministicDemand(double value) {
        this.value = Checks.positive(value, "deterministic demand", "work units");
    }

    /** @return {@code value} work units; consumes no randomness */
    @Override
    public double sample() {
        return value;
    }

    /** @return {@code value} work units */
    @Override
    public double mean() {
        return value;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "DeterministicDemand[" + value + "]";
    }
}

package org.loadlab.workload.arrival;

/**
 * A time-varying arrival rate λ(t) for a non-homogeneous Poisson process
 * ({@link NonHomogeneousPoissonArrivals}) or a time-stepped driver (λ per step = λ(t)·dt).
 *
 * <p>Implementations are immutable and allocation-free.
 */
public interface RateFunction {

    /**
     * @param t time in seconds, {@code >= 0}
     * @return the arrival rate λ(t) in requests/s, {@code >= 0} and {@code <= maxRate()}
     */
    double rate(double t);

    /**
     * An upper bound on {@link #rate(double)} over all {@code t >= 0}, used as the majorising rate
     * for thinning.
     *
     * @return the bound in requests/s, finite and {@code > 0}
     */
    double maxRate();

    /**
     * The long-run time-average of λ(t) (for periodic functions, the average over one period).
     *
     * @return the mean rate in requests/s
     */
    double meanRate();
}

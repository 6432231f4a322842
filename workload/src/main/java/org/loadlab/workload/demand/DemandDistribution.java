package org.loadlab.workload.demand;

/**
 * Distribution of a request's service demand {@code D} in work units: a node with service rate
 * {@code μ} work units/s serves it in {@code D/μ} seconds (SPEC.md §1).
 *
 * <p>Implementations draw from the {@link java.util.random.RandomGenerator} given to their
 * constructor, so equal seeds give equal sequences; {@link #sample()} allocates nothing.
 * Implementations are not thread-safe (one instance per simulated stream).
 */
public interface DemandDistribution {

    /**
     * Draws the next demand.
     *
     * @return a demand in work units, finite and {@code > 0}
     */
    double sample();

    /**
     * The distribution's mean demand {@code E[D]}, used to compute utilisation
     * {@code ρ = λ·E[D]/Σμ}.
     *
     * @return the mean in work units, {@code > 0}
     */
    double mean();
}

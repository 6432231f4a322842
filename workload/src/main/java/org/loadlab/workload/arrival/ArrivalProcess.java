package org.loadlab.workload.arrival;

/**
 * A stream of request arrival instants on the simulation clock (seconds, starting at 0).
 *
 * <p>{@link #next()} is called once per arrival by the engine or the client/driver logic; it must
 * not allocate. Implementations draw only from the {@link java.util.random.RandomGenerator} given
 * to their constructor, so the same seed gives the same sequence (DESIGN.md). Instances are
 * stateful and not thread-safe.
 */
public interface ArrivalProcess {

    /**
     * Advances to the next arrival.
     *
     * @return its absolute time in seconds, {@code >=} the previously returned time (strictly
     *     non-decreasing), or {@link Double#POSITIVE_INFINITY} once the process is exhausted (and
     *     on every later call)
     */
    double next();

    /**
     * The service demand that came with the arrival just returned by {@link #next()}, for
     * processes that replay a trace.
     *
     * @return the demand in work units, or {@link Double#NaN} when the process carries no demand
     *     (the caller then samples a {@code DemandDistribution})
     */
    default double attachedDemand() {
        return Double.NaN;
    }

    /**
     * The long-run mean arrival rate λ, used to report offered load {@code ρ = λ·E[D]/Σμ}.
     *
     * @return λ in requests/s
     */
    double meanRate();
}

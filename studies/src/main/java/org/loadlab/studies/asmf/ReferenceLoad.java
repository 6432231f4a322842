package org.loadlab.studies.asmf;

import org.loadlab.experiment.scenario.Scenario;

/**
 * The offered load and the capacity of a reference-model scenario in the model's own work
 * units, which differ from the queue model's λ·E[S] / Σ μ_j: a job of size S adds
 * max(1, ⌈S⌉) units with S ~ Exp(mean) (so E[units] = 1 / (1 − e^(−1/mean))), and backend j
 * serves ⌊μ_j·dt⌋ whole units per step of dt seconds, with μ_j the seed's topology
 * ({@link SeedTopology}). For {@code asmf-poisson-small} that is 60 jobs/s × 2.05 units
 * against 100 units/s: utilisation about 1.2 (docs/asmf.md, "poisson_small is overloaded").
 *
 * @param jobsPerSecond arrival rate λ, jobs (requests) per second (the mean rate for on-off arrivals is not this)
 * @param unitsPerJob expected work units a job adds
 * @param capacityUnitsPerSecond Σ ⌊μ_j·dt⌋ / dt before any failure, work units per second
 *     <p>Source: the ASMF seed's simulator.py (SPEC.md §4), as {@link ReferenceModel} runs it.
 */
public record ReferenceLoad(double jobsPerSecond, double unitsPerJob, double capacityUnitsPerSecond) {
    /**
     * The load of scenario {@code s}.
     *
     * @param s a scenario with {@code model = reference}
     * @return its load
     * @throws IllegalArgumentException if {@code s} is not a reference-model scenario
     */
    public static ReferenceLoad of(Scenario s) {
        if (!s.isReferenceModel()) {
            throw new IllegalArgumentException("scenario " + s.name() + ": not model = reference");
        }
        double dt = Math.round(s.reference().step() * 1000) / 1000.0; // as SeedWorkload: a step of whole ms
        double capacity = 0;
        for (double mu : SeedTopology.draw(s).mu()) {
            capacity += Math.floor(mu * dt);
        }
        double units = 1 / (1 - Math.exp(-1 / s.demand().mean()));
        return new ReferenceLoad(s.arrivals().rate(), units, capacity / dt);
    }

    /** Offered work units per second over the capacity (above 1: the queues grow all run long). */
    public double utilisation() {
        return jobsPerSecond * unitsPerJob / capacityUnitsPerSecond;
    }
}

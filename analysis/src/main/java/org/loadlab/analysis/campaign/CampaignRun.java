package org.loadlab.analysis.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.RunMetrics;

/**
 * One finished run of a campaign: which scenario, at which values of the swept parameters,
 * with which policy variant and seed, and its metrics. Immutable and Jackson-serialisable
 * (properties in declaration order; {@link RunsFile} writes one per line).
 *
 * <p>Runs with the same scenario, parameters and seed but different policies saw the same
 * workload (common random numbers), which is what {@link PairedComparisons} pairs on.
 *
 * <p>Source: DESIGN.md (a campaign is many runs; results of a run are a typed record).
 *
 * @param scenario scenario name, e.g. {@code poisson_medium}; not blank
 * @param parameters the swept scenario keys of this run and their values as text, e.g.
 *     {@code {"arrivals.utilisation": "0.7"}}; empty when nothing is swept. Sorted by key;
 *     numeric values are compared as numbers when runs are ordered
 * @param policy policy variant name, e.g. {@code asmf-tuned-v1}; not blank
 * @param seed master seed of the run
 * @param metrics the run's metrics (see {@link RunMetrics} for units)
 */
@JsonPropertyOrder({"scenario", "parameters", "policy", "seed", "metrics"})
public record CampaignRun(
        String scenario,
        SortedMap<String, String> parameters,
        String policy,
        long seed,
        RunMetrics metrics) {

    /**
     * Creates the run, copying {@code parameters} into an unmodifiable sorted map.
     *
     * @param scenario see the class comment
     * @param parameters see the class comment
     * @param policy see the class comment
     * @param seed see the class comment
     * @param metrics see the class comment
     * @throws NullPointerException if an argument, a parameter key or a parameter value is null
     * @throws IllegalArgumentException if {@code scenario}, {@code policy} or a parameter key is blank
     */
    public CampaignRun {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(metrics, "metrics");
        if (scenario.isBlank()) {
            throw new IllegalArgumentException("scenario: blank; a run needs a scenario name");
        }
        if (policy.isBlank()) {
            throw new IllegalArgumentException("policy: blank; a run needs a policy variant name");
        }
        TreeMap<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            String key = Objects.requireNonNull(entry.getKey(), "parameters: null key");
            String value = Objects.requireNonNull(entry.getValue(), "parameters[" + key + "]: null value");
            if (key.isBlank()) {
                throw new IllegalArgumentException("parameters: blank key (value " + value + ")");
            }
            copy.put(key, value);
        }
        parameters = Collections.unmodifiableSortedMap(copy);
    }

    /**
     * This run as the single-run result record of {@link org.loadlab.analysis.io}, dropping the
     * parameters (e.g. to reuse {@link org.loadlab.analysis.io.ResultsCsv}).
     *
     * @return scenario, policy, seed and metrics
     */
    public RunResult toRunResult() {
        return new RunResult(scenario, policy, seed, metrics);
    }

    /**
     * Short identity for error messages.
     *
     * @return e.g. {@code poisson_medium {arrivals.utilisation=0.7} p2c seed 3}
     */
    String describe() {
        return scenario + " " + parameters + " " + policy + " seed " + seed;
    }
}

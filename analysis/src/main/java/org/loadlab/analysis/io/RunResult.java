package org.loadlab.analysis.io;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.loadlab.analysis.run.RunMetrics;

/**
 * One run's identity and metrics: the unit every result file is made of.
 *
 * <p>Source: DESIGN.md (results of a run are a typed record written as JSON and CSV).
 *
 * @param scenario scenario name, e.g. {@code poisson_medium}
 * @param policy selection policy name, e.g. {@code p2c}
 * @param seed master seed of the run
 * @param metrics the run's metrics
 */
@JsonPropertyOrder({"scenario", "policy", "seed", "metrics"})
public record RunResult(String scenario, String policy, long seed, RunMetrics metrics) {

    /**
     * Creates the result; see the class comment for the components.
     *
     * @param scenario see the class comment
     * @param policy see the class comment
     * @param seed see the class comment
     * @param metrics see the class comment
     * @throws NullPointerException if {@code scenario}, {@code policy} or {@code metrics} is null
     */
    public RunResult {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(metrics, "metrics");
    }
}

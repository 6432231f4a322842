package org.loadlab.analysis.campaign;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Statistics of one metric over the seeds of one group (scenario, parameters, policy): a row
 * of {@code summary.csv}. Undefined (NaN) run values are left out and counted in
 * {@code undefined}.
 *
 * <p>Source: SPEC.md §4 (summaries with mean, sd, 95% CI); {@link org.loadlab.analysis.stats.Summary}
 * (Student t) and {@link BootstrapCi} (percentile bootstrap).
 *
 * @param scenario scenario name
 * @param parameters swept keys and values of the group (unmodifiable, sorted)
 * @param policy policy variant name
 * @param metric the metric; values are in {@link Metric#unit()}
 * @param n number of runs with a defined value
 * @param undefined number of runs whose value was NaN (left out)
 * @param mean arithmetic mean; NaN when n = 0
 * @param sd sample standard deviation (divisor n − 1); NaN when n &lt; 2
 * @param ciLow lower bound of the 95% Student-t interval mean − t_{0.975,n−1}·sd/√n; NaN when n &lt; 2
 * @param ciHigh upper bound of that interval; NaN when n &lt; 2
 * @param bootLow lower bound of the 95% percentile-bootstrap interval; NaN when n &lt; 2 or not requested
 * @param bootHigh upper bound of the bootstrap interval; NaN when n &lt; 2 or not requested
 */
public record SummaryRow(
        String scenario,
        SortedMap<String, String> parameters,
        String policy,
        Metric metric,
        int n,
        int undefined,
        double mean,
        double sd,
        double ciLow,
        double ciHigh,
        double bootLow,
        double bootHigh) {

    /**
     * Creates the row, copying {@code parameters}.
     *
     * @param scenario see the class comment
     * @param parameters see the class comment
     * @param policy see the class comment
     * @param metric see the class comment
     * @param n see the class comment
     * @param undefined see the class comment
     * @param mean see the class comment
     * @param sd see the class comment
     * @param ciLow see the class comment
     * @param ciHigh see the class comment
     * @param bootLow see the class comment
     * @param bootHigh see the class comment
     * @throws NullPointerException if {@code scenario}, {@code parameters}, {@code policy} or {@code metric} is null
     */
    public SummaryRow {
        Objects.requireNonNull(scenario, "scenario");
        parameters = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(parameters, "parameters")));
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(metric, "metric");
    }

    /**
     * Half-width of the Student-t interval.
     *
     * @return (ciHigh − ciLow) / 2, in the metric's unit; NaN when n &lt; 2
     */
    public double ciHalfWidth() {
        return (ciHigh - ciLow) / 2;
    }
}

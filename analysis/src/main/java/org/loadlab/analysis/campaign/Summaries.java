package org.loadlab.analysis.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import org.loadlab.analysis.stats.Summary;

/**
 * Computes {@link SummaryRow}s: for every group (scenario, parameters, policy) and every chosen
 * metric, n, mean, sd, the 95% Student-t interval ({@link Summary}) and optionally the 95%
 * percentile-bootstrap interval ({@link BootstrapCi}, B = {@value BootstrapCi#RESAMPLES},
 * fixed seed).
 *
 * <p>NaN values (e.g. a mean response time when nothing completed) are left out of a group's
 * statistics and counted in {@link SummaryRow#undefined()}.
 *
 * <p>Source: SPEC.md §4 (summaries with mean, sd, 95% CI); Hipparchus 3.1 via {@link Summary}.
 */
public final class Summaries {

    private Summaries() {
    }

    /**
     * Summarises runs.
     *
     * @param runs runs in any order
     * @param metrics metrics to summarise, in the order rows should appear within a group
     * @param bootstrap whether to compute the bootstrap interval (otherwise its bounds are NaN)
     * @return rows ordered by scenario, parameters (numbers as numbers), policy, then the
     *     order of {@code metrics}
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed,
     *     or {@code metrics} is empty
     * @throws NullPointerException if an argument, a run or a metric is null
     */
    public static List<SummaryRow> compute(List<CampaignRun> runs, List<Metric> metrics, boolean bootstrap) {
        Objects.requireNonNull(metrics, "metrics");
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("metrics: empty; choose at least one metric");
        }
        metrics.forEach(m -> Objects.requireNonNull(m, "metrics contains null"));
        RunIndex index = RunIndex.of(runs);
        List<SummaryRow> rows = new ArrayList<>();
        for (Map.Entry<Cell, SortedMap<String, List<CampaignRun>>> cell : index.cells().entrySet()) {
            for (Map.Entry<String, List<CampaignRun>> policy : cell.getValue().entrySet()) {
                for (Metric metric : metrics) {
                    rows.add(row(cell.getKey(), policy.getKey(), metric, policy.getValue(), bootstrap));
                }
            }
        }
        return rows;
    }

    /**
     * Summarises one metric over one group's runs.
     *
     * @param cell the group's scenario and parameters
     * @param policy the group's policy
     * @param metric the metric
     * @param runs the group's runs
     * @param bootstrap whether to compute the bootstrap interval
     * @return the row
     */
    static SummaryRow row(Cell cell, String policy, Metric metric, List<CampaignRun> runs, boolean bootstrap) {
        double[] values = definedValues(runs, metric);
        Summary summary = Summary.of(values);
        BootstrapCi.Interval boot = bootstrap ? BootstrapCi.ofMean(values) : BootstrapCi.Interval.UNDEFINED;
        return new SummaryRow(cell.scenario(), cell.parameters(), policy, metric,
                values.length, runs.size() - values.length,
                summary.mean(), summary.sd(),
                summary.mean() - summary.ci95(), summary.mean() + summary.ci95(),
                boot.lower(), boot.upper());
    }

    /**
     * @param runs runs
     * @param metric a metric
     * @return the metric's non-NaN values, in run order
     */
    static double[] definedValues(List<CampaignRun> runs, Metric metric) {
        return runs.stream().mapToDouble(r -> metric.value(r.metrics())).filter(v -> !Double.isNaN(v)).toArray();
    }
}

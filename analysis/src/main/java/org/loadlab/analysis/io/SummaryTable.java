package org.loadlab.analysis.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.stats.Summary;

/**
 * Renders runs as a plain-text table for the terminal: one block per scenario, one row per
 * policy (both in first-appearance order), each cell "mean ± 95% CI half-width" over the
 * policy's seeds (just the value for a single run), followed by a short legend. Columns:
 * policy, runs, throughput (req/s), mean response (s), p99 response (s), mean wait (s),
 * queries/decision, max queue (req), rejected (req).
 *
 * <p>Example:
 * <pre>
 * Scenario: poisson_medium
 * policy  runs  throughput (req/s)  mean response (s)  ...
 * ------  ----  ------------------  -----------------
 * p2c        3         2056 ± 3      0.1090 ± 0.0041  ...
 * </pre>
 *
 * <p>Deterministic: the same runs in the same order give the same text (Locale-independent
 * numbers, {@code \n} line endings).
 *
 * <p>Source: SPEC.md §4 (summaries with mean, sd, 95% CI); {@link Summary} for the interval.
 */
public final class SummaryTable {

    private enum Kind { CONTINUOUS, COUNT }

    private record Metric(String header, Kind kind, ToDoubleFunction<RunMetrics> value) {
    }

    /**
     * Which columns a table shows: those of the message-level model, or the ASMF seed's own
     * outputs for its time-stepped reference model (SPEC.md §4), which has no per-request
     * response times.
     */
    public enum Columns {
        /** Throughput, response mean and p99, wait, queries/decision, max queue, rejected (requests, seconds). */
        MESSAGE,
        /** The seed's outputs: throughput (work units per job), avg wait, backlog area, queries/decision, max queue, rejected jobs. */
        REFERENCE;

        /**
         * The columns for a scenario's {@code model} key.
         *
         * @param model {@code message} or {@code reference}
         */
        public static Columns forModel(String model) {
            return "reference".equals(model) ? REFERENCE : MESSAGE;
        }
    }

    private static ToDoubleFunction<RunMetrics> extra(String name) {
        return m -> m.extras().getOrDefault(name, Double.NaN);
    }

    private static final List<Metric> REFERENCE_METRICS = List.of(
            new Metric("throughput (work units/job)", Kind.CONTINUOUS, extra("throughput")),
            new Metric("avg wait (s)", Kind.CONTINUOUS, extra("avg_wait_time")),
            new Metric("backlog area (work units x s)", Kind.CONTINUOUS, extra("backlog_area")),
            new Metric("queries/decision", Kind.CONTINUOUS, RunMetrics::queriesPerDecision),
            new Metric("max queue (work units)", Kind.COUNT, extra("max_queue_observed")),
            new Metric("rejected (jobs)", Kind.COUNT, RunMetrics::requestsRejected));

    /** Legend of the reference model's table. */
    static final String REFERENCE_LEGEND = String.join("\n",
            "Cells: mean ± half-width of the 95% confidence interval over seeds (Student t, n-1 df);",
            "a single run shows its value only; n/a = undefined.",
            "The ASMF seed's time-stepped model (docs/asmf.md) in its own units: throughput = completed work units",
            "per arriving job; avg wait = queued work units x seconds per completed work unit; backlog area = sum over",
            "time steps of the work queued in the cluster x dt; max queue = largest work queued in the whole cluster;",
            "rejected = jobs refused (ASMF below tau).");

    private static final List<Metric> METRICS = List.of(
            new Metric("throughput (req/s)", Kind.CONTINUOUS, RunMetrics::throughputRps),
            new Metric("mean response (s)", Kind.CONTINUOUS, RunMetrics::responseMean),
            new Metric("p99 response (s)", Kind.CONTINUOUS, RunMetrics::responseP99),
            new Metric("mean wait (s)", Kind.CONTINUOUS, RunMetrics::waitMean),
            new Metric("queries/decision", Kind.CONTINUOUS, RunMetrics::queriesPerDecision),
            new Metric("max queue (req)", Kind.COUNT, RunMetrics::maxQueue),
            new Metric("rejected (req)", Kind.COUNT, RunMetrics::requestsRejected));

    private static final String GAP = "  ";
    private static final String PLUS_MINUS = " ± ";

    /** Explanation printed under the tables: what a cell means and what the columns measure. */
    static final String LEGEND = String.join("\n",
            "Cells: mean ± half-width of the 95% confidence interval over seeds (Student t, n-1 df);",
            "a single run shows its value only; n/a = undefined (e.g. nothing completed).",
            "response = sojourn time from arrival (at the balancer, or the first node) to completion; wait = time an",
            "attempt queued at a node before service (with retries also abandoned attempts: docs/results.md);",
            "queries/decision = nodes whose load was read per routing decision; max queue = largest queue length q_j",
            "on any node; rejected = requests refused.",
            "Statistics exclude the warm-up; rejected counts the whole run.");

    private record GroupKey(String scenario, String policy) {
    }

    private SummaryTable() {
    }

    /**
     * Renders the table.
     *
     * @param runs runs of one or more scenarios and policies, any number of seeds each
     * @return the table text, ending with a newline; "No runs." and a newline when empty
     * @throws NullPointerException if {@code runs} or a run is null
     */
    public static String render(List<RunResult> runs) {
        return render(runs, Columns.MESSAGE);
    }

    /**
     * Renders the table with the columns of a run model.
     *
     * @param runs runs of one or more scenarios and policies, any number of seeds each
     * @param columns which metrics to show ({@link Columns#forModel})
     * @return the table text, ending with a newline; "No runs." and a newline when empty
     * @throws NullPointerException if {@code runs}, a run or {@code columns} is null
     */
    public static String render(List<RunResult> runs, Columns columns) {
        Objects.requireNonNull(runs, "runs");
        Objects.requireNonNull(columns, "columns");
        List<Metric> metrics = columns == Columns.REFERENCE ? REFERENCE_METRICS : METRICS;
        if (runs.isEmpty()) {
            return "No runs.\n";
        }
        Map<String, Map<String, List<RunMetrics>>> byScenario = new LinkedHashMap<>();
        for (RunResult run : runs) {
            Objects.requireNonNull(run, "runs contains null");
            byScenario.computeIfAbsent(run.scenario(), s -> new LinkedHashMap<>())
                    .computeIfAbsent(run.policy(), p -> new ArrayList<>())
                    .add(run.metrics());
        }
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Map<String, List<RunMetrics>>> scenario : byScenario.entrySet()) {
            out.append("Scenario: ").append(scenario.getKey()).append('\n');
            appendBlock(out, scenario.getValue(), metrics);
            out.append('\n');
        }
        out.append(columns == Columns.REFERENCE ? REFERENCE_LEGEND : LEGEND).append('\n');
        return out.toString();
    }

    private static void appendBlock(StringBuilder out, Map<String, List<RunMetrics>> byPolicy, List<Metric> metrics) {
        int columns = 2 + metrics.size();
        List<String> header = new ArrayList<>(columns);
        header.add("policy");
        header.add("runs");
        metrics.forEach(m -> header.add(m.header()));

        List<List<MeanCiText>> cells = new ArrayList<>();
        for (Map.Entry<String, List<RunMetrics>> policy : byPolicy.entrySet()) {
            List<MeanCiText> row = new ArrayList<>(columns);
            row.add(new MeanCiText(policy.getKey(), null));
            row.add(new MeanCiText(Integer.toString(policy.getValue().size()), null));
            for (Metric metric : metrics) {
                Summary summary = Summary.of(policy.getValue().stream().mapToDouble(metric.value()).toArray());
                row.add(metric.kind() == Kind.COUNT ? MeanCiText.count(summary) : MeanCiText.continuous(summary));
            }
            cells.add(row);
        }

        List<List<String>> text = new ArrayList<>();
        for (List<MeanCiText> row : cells) {
            text.add(new ArrayList<>(columns));
        }
        int[] widths = new int[columns];
        for (int c = 0; c < columns; c++) {
            int meanWidth = 0;
            int ciWidth = -1; // -1: no cell in this column has a CI
            for (List<MeanCiText> row : cells) {
                meanWidth = Math.max(meanWidth, row.get(c).mean().length());
                if (row.get(c).ci95() != null) {
                    ciWidth = Math.max(ciWidth, row.get(c).ci95().length());
                }
            }
            for (int r = 0; r < cells.size(); r++) {
                MeanCiText cell = cells.get(r).get(c);
                String value = c == 0 ? padRight(cell.mean(), meanWidth) : padLeft(cell.mean(), meanWidth);
                if (ciWidth >= 0) {
                    value += cell.ci95() == null
                            ? " ".repeat(PLUS_MINUS.length() + ciWidth)
                            : PLUS_MINUS + padRight(cell.ci95(), ciWidth);
                }
                text.get(r).add(value);
                widths[c] = Math.max(widths[c], value.length());
            }
            widths[c] = Math.max(widths[c], header.get(c).length());
        }

        appendLine(out, header, widths);
        List<String> rule = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            rule.add("-".repeat(widths[c]));
        }
        appendLine(out, rule, widths);
        for (List<String> row : text) {
            appendLine(out, row, widths);
        }
    }

    private static void appendLine(StringBuilder out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) {
                line.append(GAP);
            }
            line.append(c == 0 ? padRight(cells.get(c), widths[c]) : padLeft(cells.get(c), widths[c]));
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    private static String padRight(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}

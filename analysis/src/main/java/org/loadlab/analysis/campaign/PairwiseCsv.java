package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes {@link PairedComparison}s as {@code pairwise.csv}, one row per (metric, scenario,
 * parameters, policy). Columns: {@code scenario}, one per parameter key (sorted union; empty
 * when a row lacks it), then {@link #FIXED_COLUMNS}: {@code metric, unit, lower_is_better,
 * reference, policy, pairs, reference_mean, policy_mean, change_pct, p_t, p_t_holm, p_wilcoxon,
 * p_wilcoxon_holm, wilcoxon_method, verdict}. Means are in {@code unit}; {@code change_pct} is
 * (policy − reference)/reference·100; p-values are two-sided, {@code _holm} adjusted within the
 * metric; {@code wilcoxon_method} is {@code exact}, {@code normal} or {@code undefined};
 * {@code verdict} is {@code better}, {@code worse}, {@code n.s.} (from {@code p_t_holm} &lt; 0.05),
 * {@code same} (identical values in every pair) or {@code n/a} (fewer than 2 pairs); see
 * {@link PairedComparison#verdict()}. Rows in list order.
 *
 * <p>Source: {@link PairedComparisons}.
 */
public final class PairwiseCsv {

    /** Conventional file name inside a campaign directory. */
    public static final String FILE_NAME = "pairwise.csv";

    /** The columns after {@code scenario} and the parameter columns, in file order. */
    public static final List<String> FIXED_COLUMNS = List.of("metric", "unit", "lower_is_better", "reference",
            "policy", "pairs", "reference_mean", "policy_mean", "change_pct", "p_t", "p_t_holm", "p_wilcoxon",
            "p_wilcoxon_holm", "wilcoxon_method", "verdict");

    private PairwiseCsv() {
    }

    /**
     * The header for these rows.
     *
     * @param rows the comparisons
     * @return {@code scenario, <parameter keys...>, <FIXED_COLUMNS...>}
     * @throws IllegalArgumentException if a parameter key clashes with a fixed column
     * @throws NullPointerException if {@code rows} or a row is null
     */
    public static List<String> header(List<PairedComparison> rows) {
        List<String> header = new ArrayList<>();
        header.add("scenario");
        header.addAll(keys(rows));
        header.addAll(FIXED_COLUMNS);
        return header;
    }

    /**
     * Writes the comparisons, replacing the file and creating parent directories.
     *
     * @param file target file, usually {@code DIR/pairwise.csv}
     * @param rows the comparisons; may be empty (header only)
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if a parameter key clashes with a fixed column
     * @throws NullPointerException if an argument or a row is null
     */
    public static void write(Path file, List<PairedComparison> rows) throws IOException {
        write(file, rows, false);
    }

    /**
     * Writes the rows as {@link #write(Path, List)}, with the units of runs whose queues count
     * work units (the reference model) when {@code workUnits}.
     *
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, List<PairedComparison> rows, boolean workUnits) throws IOException {
        Objects.requireNonNull(file, "file");
        List<String> keys = keys(rows);
        List<List<String>> cells = new ArrayList<>(rows.size());
        for (PairedComparison row : rows) {
            List<String> cell = new ArrayList<>();
            cell.add(row.scenario());
            keys.forEach(k -> cell.add(row.parameters().getOrDefault(k, "")));
            cell.add(row.metric().columnName());
            cell.add(row.metric().unit(workUnits));
            cell.add(Boolean.toString(row.metric().lowerIsBetter()));
            cell.add(row.reference());
            cell.add(row.policy());
            cell.add(Integer.toString(row.pairs()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.referenceMean()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.policyMean()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.changePercent()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.pT()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.pTHolm()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.pWilcoxon()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.pWilcoxonHolm()));
            cell.add(row.wilcoxonMethod().text());
            cell.add(row.verdict().text());
            cells.add(cell);
        }
        CsvFile.write(file, header(rows), cells);
    }

    private static List<String> keys(List<PairedComparison> rows) {
        Objects.requireNonNull(rows, "rows");
        List<String> fixed = new ArrayList<>(FIXED_COLUMNS);
        fixed.add("scenario");
        return ParameterColumns.of(rows.stream()
                .map(r -> Objects.requireNonNull(r, "rows contains null").parameters()).toList(), fixed, FILE_NAME);
    }
}

package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes {@link SummaryRow}s as {@code summary.csv}, one row per (scenario, parameters, policy,
 * metric). Columns: {@code scenario}, one per parameter key (sorted union; empty when a row
 * lacks it), then {@link #FIXED_COLUMNS}: {@code policy, metric, unit, n, n_undefined, mean, sd,
 * ci95_low, ci95_high, boot_ci95_low, boot_ci95_high}. Values are in the unit of the
 * {@code unit} column; numbers as in {@code runs.csv} (plain decimals, 10 significant digits,
 * {@code NaN} when undefined). Rows in list order.
 *
 * <p>Source: {@link Summaries}.
 */
public final class SummaryCsv {

    /** Conventional file name inside a campaign directory. */
    public static final String FILE_NAME = "summary.csv";

    /** The columns after {@code scenario} and the parameter columns, in file order. */
    public static final List<String> FIXED_COLUMNS = List.of("policy", "metric", "unit", "n", "n_undefined",
            "mean", "sd", "ci95_low", "ci95_high", "boot_ci95_low", "boot_ci95_high");

    private SummaryCsv() {
    }

    /**
     * The header for these rows.
     *
     * @param rows the rows
     * @return {@code scenario, <parameter keys...>, <FIXED_COLUMNS...>}
     * @throws IllegalArgumentException if a parameter key clashes with a fixed column
     * @throws NullPointerException if {@code rows} or a row is null
     */
    public static List<String> header(List<SummaryRow> rows) {
        List<String> header = new ArrayList<>();
        header.add("scenario");
        header.addAll(keys(rows));
        header.addAll(FIXED_COLUMNS);
        return header;
    }

    /**
     * Writes the rows, replacing the file and creating parent directories.
     *
     * @param file target file, usually {@code DIR/summary.csv}
     * @param rows the rows; may be empty (header only)
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if a parameter key clashes with a fixed column
     * @throws NullPointerException if an argument or a row is null
     */
    public static void write(Path file, List<SummaryRow> rows) throws IOException {
        write(file, rows, false);
    }

    /**
     * Writes the rows as {@link #write(Path, List)}, with the units of runs whose queues count
     * work units (the reference model) when {@code workUnits}.
     *
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, List<SummaryRow> rows, boolean workUnits) throws IOException {
        Objects.requireNonNull(file, "file");
        List<String> keys = keys(rows);
        List<List<String>> cells = new ArrayList<>(rows.size());
        for (SummaryRow row : rows) {
            List<String> cell = new ArrayList<>();
            cell.add(row.scenario());
            keys.forEach(k -> cell.add(row.parameters().getOrDefault(k, "")));
            cell.add(row.policy());
            cell.add(row.metric().columnName());
            cell.add(row.metric().unit(workUnits));
            cell.add(Integer.toString(row.n()));
            cell.add(Integer.toString(row.undefined()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.mean()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.sd()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.ciLow()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.ciHigh()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.bootLow()));
            cell.add(org.loadlab.analysis.io.CsvNumbers.format(row.bootHigh()));
            cells.add(cell);
        }
        CsvFile.write(file, header(rows), cells);
    }

    private static List<String> keys(List<SummaryRow> rows) {
        Objects.requireNonNull(rows, "rows");
        List<String> fixed = new ArrayList<>(FIXED_COLUMNS);
        fixed.add("scenario");
        return ParameterColumns.of(rows.stream()
                .map(r -> Objects.requireNonNull(r, "rows contains null").parameters()).toList(), fixed, FILE_NAME);
    }
}

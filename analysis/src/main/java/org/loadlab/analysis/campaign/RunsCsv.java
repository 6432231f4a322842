package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.loadlab.analysis.io.ResultsCsv;
import org.loadlab.analysis.io.RunResult;

/**
 * Writes one CSV row per campaign run ({@code runs.csv}). Columns: {@code scenario}, one column
 * per swept parameter key (the union of the runs' keys, sorted; empty cell when a run lacks the
 * key), {@code policy}, {@code seed}, then exactly the metric columns of
 * {@link ResultsCsv#HEADER} after its own {@code scenario, policy, seed} (units in the names:
 * {@code _s} seconds, {@code _rps} requests/s; per-node lists joined by {@code ;}).
 *
 * <p>The metric cells are made by {@link ResultsCsv} itself (written to a temporary file and
 * read back), so the two files can never disagree on a column's definition or number format.
 * Rows are in list order; {@link CampaignReport} passes runs in canonical order.
 *
 * <p>Source: DESIGN.md (results written as CSV); metric definitions in
 * {@link org.loadlab.analysis.run.RunMetrics}.
 */
public final class RunsCsv {

    /** Conventional file name inside a campaign directory. */
    public static final String FILE_NAME = "runs.csv";

    /** The identity columns that {@link ResultsCsv#HEADER} starts with. */
    private static final List<String> RESULT_IDENTITY = List.of("scenario", "policy", "seed");

    private RunsCsv() {
    }

    /**
     * The metric columns taken from {@link ResultsCsv}, in file order.
     *
     * @return e.g. {@code requests_completed, requests_rejected, throughput_rps, ...}
     * @throws IllegalStateException if {@link ResultsCsv#HEADER} no longer starts with
     *     {@code scenario, policy, seed}
     */
    public static List<String> metricColumns() {
        List<String> header = ResultsCsv.HEADER;
        if (!header.subList(0, RESULT_IDENTITY.size()).equals(RESULT_IDENTITY)) {
            throw new IllegalStateException("ResultsCsv.HEADER starts with " + header.subList(0, 3)
                    + ", expected " + RESULT_IDENTITY);
        }
        return header.subList(RESULT_IDENTITY.size(), header.size());
    }

    /**
     * The header for these runs.
     *
     * @param runs the runs
     * @return {@code scenario, <parameter keys...>, policy, seed, <metricColumns()...>}
     * @throws IllegalArgumentException if a parameter key equals a fixed column name
     * @throws NullPointerException if {@code runs} or a run is null
     */
    public static List<String> header(List<CampaignRun> runs) {
        List<String> header = new ArrayList<>();
        header.add("scenario");
        header.addAll(parameterKeys(runs));
        header.add("policy");
        header.add("seed");
        header.addAll(metricColumns());
        header.addAll(extraColumns(runs));
        return header;
    }

    /**
     * Model-specific extra columns ({@link org.loadlab.analysis.run.RunMetrics#extras()} keys
     * over all runs, sorted), minus those already among the metric columns (the reference
     * model's {@code backlog_area} and {@code queries_per_decision} are the same values).
     */
    private static List<String> extraColumns(List<CampaignRun> runs) {
        SortedSet<String> keys = new TreeSet<>();
        runs.forEach(r -> keys.addAll(r.metrics().extras().keySet()));
        keys.removeAll(metricColumns());
        return List.copyOf(keys);
    }

    /**
     * Writes the runs, replacing the file and creating parent directories.
     *
     * @param file target file, usually {@code DIR/runs.csv}
     * @param runs one row each, in this order; may be empty (header only)
     * @throws IOException if a file cannot be written or read
     * @throws IllegalArgumentException if a parameter key equals a fixed column name
     * @throws NullPointerException if an argument or a run is null
     */
    public static void write(Path file, List<CampaignRun> runs) throws IOException {
        Objects.requireNonNull(file, "file");
        List<String> keys = parameterKeys(runs);
        List<List<String>> metricCells = metricCells(runs);
        List<String> extras = extraColumns(runs);
        List<List<String>> rows = new ArrayList<>(runs.size());
        for (int i = 0; i < runs.size(); i++) {
            CampaignRun run = runs.get(i);
            List<String> row = new ArrayList<>();
            row.add(run.scenario());
            for (String key : keys) {
                row.add(run.parameters().getOrDefault(key, ""));
            }
            row.add(run.policy());
            row.add(Long.toString(run.seed()));
            row.addAll(metricCells.get(i));
            for (String key : extras) {
                Double v = run.metrics().extras().get(key);
                row.add(v == null ? "" : org.loadlab.analysis.io.CsvNumbers.format(v));
            }
            rows.add(row);
        }
        CsvFile.write(file, header(runs), rows);
    }

    private static List<String> parameterKeys(List<CampaignRun> runs) {
        Objects.requireNonNull(runs, "runs");
        SortedSet<String> keys = new TreeSet<>();
        for (CampaignRun run : runs) {
            keys.addAll(Objects.requireNonNull(run, "runs contains null").parameters().keySet());
        }
        List<String> fixed = new ArrayList<>(List.of("scenario", "policy", "seed"));
        fixed.addAll(metricColumns());
        for (String key : keys) {
            if (fixed.contains(key)) {
                throw new IllegalArgumentException("parameters: key '" + key
                        + "' clashes with a fixed runs.csv column; rename the swept key");
            }
        }
        return List.copyOf(keys);
    }

    /** The metric cells of each run as ResultsCsv formats them. */
    private static List<List<String>> metricCells(List<CampaignRun> runs) throws IOException {
        List<RunResult> results = new ArrayList<>(runs.size());
        runs.forEach(r -> results.add(r.toRunResult()));
        Path temp = Files.createTempFile("loadlab-runs-", ".csv");
        try {
            ResultsCsv.write(temp, results);
            List<List<String>> rows = CsvFile.read(temp);
            if (rows.size() != runs.size() + 1 || !rows.get(0).equals(ResultsCsv.HEADER)) {
                throw new IOException("ResultsCsv output for " + runs.size() + " runs has "
                        + rows.size() + " rows or an unexpected header " + rows.get(0));
            }
            List<List<String>> cells = new ArrayList<>(runs.size());
            for (List<String> row : rows.subList(1, rows.size())) {
                cells.add(row.subList(RESULT_IDENTITY.size(), row.size()));
            }
            return cells;
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}

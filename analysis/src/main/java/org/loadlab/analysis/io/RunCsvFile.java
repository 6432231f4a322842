package org.loadlab.analysis.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A CSV table written run by run as runs finish (in plan order), so that no run has to stay
 * in memory for the file: a header, then each run's rows as its {@link Rows} gives them.
 * {@code results.csv} ({@link ResultsCsv}: one row a run) and {@code timeseries.csv}
 * ({@link TimeseriesCsv}: one row per interval) are such tables; writing all runs at once
 * ({@link #writeAll}) gives the same bytes as adding them one by one.
 */
public final class RunCsvFile implements AutoCloseable {

    /** The rows one run contributes. */
    @FunctionalInterface
    interface Rows {
        /** Writes the rows of {@code run} to {@code table}. @throws IOException if it cannot be written */
        void write(RunResult run, CsvTableWriter table) throws IOException;
    }

    private final CsvTableWriter table;
    private final Rows rows;

    private RunCsvFile(CsvTableWriter table, Rows rows) {
        this.table = table;
        this.rows = rows;
    }

    /**
     * Opens {@code file} (replaced, parent directories created) with its header.
     *
     * @throws IOException if the file cannot be created
     */
    static RunCsvFile open(Path file, List<String> header, Rows rows) throws IOException {
        return new RunCsvFile(CsvTableWriter.open(Objects.requireNonNull(file, "file"), header), rows);
    }

    /**
     * Writes every run of {@code runs} to {@code file} and closes it.
     *
     * @throws IOException if the file cannot be written
     * @throws NullPointerException if an argument or a run is null (checked before the file is touched)
     */
    static void writeAll(Path file, List<String> header, Rows rows, List<RunResult> runs) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(runs, "runs");
        for (RunResult run : runs) {
            Objects.requireNonNull(run, "runs contains null");
        }
        try (RunCsvFile out = open(file, header, rows)) {
            for (RunResult run : runs) {
                out.add(run);
            }
        }
    }

    /**
     * Writes the rows of {@code run}.
     *
     * @throws IOException if the file cannot be written
     * @throws NullPointerException if {@code run} is null
     */
    public void add(RunResult run) throws IOException {
        rows.write(Objects.requireNonNull(run, "run"), table);
    }

    /** Finishes the file. @throws IOException if it cannot be written */
    @Override
    public void close() throws IOException {
        table.close();
    }
}

package org.loadlab.analysis.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.loadlab.analysis.run.SeriesPoint;

/**
 * Writes every run's time series as one long CSV table: one row per (run, interval), columns
 * {@link #HEADER}. {@code time_s} is the end of the interval (seconds since the start of the
 * run, warm-up included); {@code mean_queue} is the time-averaged mean q_j over the interval
 * (requests per node); {@code max_queue} the largest q_j seen in it (requests);
 * {@code throughput_rps} the completions in it per second. Rows follow the run list order,
 * then time.
 *
 * <p>Source: SPEC.md §4 (1 s trace of the mean queue); {@link SeriesPoint}.
 */
public final class TimeseriesCsv {

    /** The column names, in file order. */
    public static final List<String> HEADER =
            List.of("scenario", "policy", "seed", "time_s", "mean_queue", "max_queue", "throughput_rps");

    private TimeseriesCsv() {
    }

    /**
     * Writes the runs' series, replacing the file and creating parent directories.
     *
     * @param file target CSV file
     * @param runs runs in the order their rows should appear; may be empty (header only)
     * @throws IOException if the file cannot be written
     * @throws NullPointerException if an argument or a run is null
     */
    public static void write(Path file, List<RunResult> runs) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(runs, "runs");
        for (RunResult run : runs) {
            Objects.requireNonNull(run, "runs contains null");
        }
        try (Stream out = open(file)) {
            for (RunResult run : runs) {
                out.add(run);
            }
        }
    }

    /**
     * Opens the file for runs written one at a time (in plan order); byte-identical to
     * {@link #write} of the same runs.
     *
     * @param file target CSV file, replaced
     * @return the open file; close it to finish
     * @throws IOException if the file cannot be created
     */
    public static Stream open(Path file) throws IOException {
        return new Stream(CsvTableWriter.open(Objects.requireNonNull(file, "file"), HEADER));
    }

    /** An open {@code timeseries.csv}: the rows of one run per {@link #add}. */
    public static final class Stream implements AutoCloseable {
        private final CsvTableWriter table;

        private Stream(CsvTableWriter table) {
            this.table = table;
        }

        /**
         * Writes the series of {@code run}.
         *
         * @throws IOException if the file cannot be written
         * @throws NullPointerException if {@code run} is null
         */
        public void add(RunResult run) throws IOException {
            Objects.requireNonNull(run, "run");
            String seed = CsvNumbers.format(run.seed());
            for (SeriesPoint point : run.metrics().series()) {
                table.row(List.of(
                        run.scenario(),
                        run.policy(),
                        seed,
                        CsvNumbers.format(point.timeSeconds()),
                        CsvNumbers.format(point.meanQueue()),
                        CsvNumbers.format(point.maxQueue()),
                        CsvNumbers.format(point.throughputRps())));
            }
        }

        /** Finishes the file. @throws IOException if it cannot be written */
        @Override
        public void close() throws IOException {
            table.close();
        }
    }
}

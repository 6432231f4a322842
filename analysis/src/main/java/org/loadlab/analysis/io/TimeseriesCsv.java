package org.loadlab.analysis.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
        RunCsvFile.writeAll(file, HEADER, TimeseriesCsv::rows, runs);
    }

    /**
     * Opens the file for runs written one at a time (in plan order); byte-identical to
     * {@link #write} of the same runs.
     *
     * @param file target CSV file, replaced
     * @return the open file; close it to finish
     * @throws IOException if the file cannot be created
     */
    public static RunCsvFile open(Path file) throws IOException {
        return RunCsvFile.open(file, HEADER, TimeseriesCsv::rows);
    }

    /** The rows of {@code run}'s series. */
    private static void rows(RunResult run, CsvTableWriter table) throws IOException {
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
}

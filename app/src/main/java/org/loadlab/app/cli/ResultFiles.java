package org.loadlab.app.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.loadlab.analysis.io.ResultsCsv;
import org.loadlab.analysis.io.ResultsJson;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.io.TimeseriesCsv;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.run.SimulationRunner;

/**
 * The files {@code loadlab simulate} writes — {@code results.csv}, {@code results.json},
 * {@code timeseries.csv}, {@code nodes.csv} — written one run at a time as the runs finish
 * (in plan order), so that memory does not grow with runs × nodes: a run's per-node arrays,
 * series and node inspection go to disk and are dropped; only a summary of each run (its
 * scalar metrics) is kept for the table printed at the end ({@link #summaries()}).
 *
 * <p>Each file is written as {@code NAME.part} and moved into place by {@link #commit()}, so
 * a failed run or a full disk leaves the previous results of the directory untouched;
 * {@link #close()} without a commit deletes the parts. The bytes are those of writing all
 * runs at once.
 */
final class ResultFiles implements AutoCloseable {
    private static final List<String> FILES = List.of("results.csv", "results.json", "timeseries.csv", "nodes.csv");

    private final Path dir;
    private final org.loadlab.analysis.io.RunCsvFile csv;
    private final ResultsJson.Stream json;
    private final org.loadlab.analysis.io.RunCsvFile series;
    private final Writer nodes;
    private final List<RunResult> summaries = new ArrayList<>();
    private boolean committed;

    /**
     * Opens the four files in {@code dir} (created if missing).
     *
     * @param dir output directory
     * @param scenarioJson the resolved scenario, copied into results.json
     * @throws IOException if a file cannot be created
     */
    ResultFiles(Path dir, Object scenarioJson) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        org.loadlab.analysis.io.RunCsvFile c = null;
        ResultsJson.Stream j = null;
        org.loadlab.analysis.io.RunCsvFile t = null;
        try {
            c = ResultsCsv.open(part("results.csv"));
            j = ResultsJson.open(part("results.json"), scenarioJson);
            t = TimeseriesCsv.open(part("timeseries.csv"));
            this.nodes = Files.newBufferedWriter(part("nodes.csv"), StandardCharsets.UTF_8);
            nodes.write(NodesCsv.HEADER);
        } catch (IOException | RuntimeException e) {
            for (AutoCloseable open : new AutoCloseable[] {c, j, t}) {
                closeQuietly(open);
            }
            deleteParts();
            throw e;
        }
        this.csv = c;
        this.json = j;
        this.series = t;
    }

    /**
     * Writes one finished run to every file and keeps its summary.
     *
     * @param outcome the next run in plan order
     * @throws IOException if a file cannot be written
     */
    void add(SimulationRunner.Outcome outcome) throws IOException {
        RunResult r = outcome.result();
        csv.add(r);
        json.add(r);
        series.add(r);
        NodesCsv.append(nodes, outcome);
        summaries.add(summary(r));
    }

    /** The runs added so far without their per-node arrays and series (for the summary table). */
    List<RunResult> summaries() {
        return List.copyOf(summaries);
    }

    /**
     * Finishes every file and moves it into place.
     *
     * @throws IOException if a file cannot be finished or moved
     */
    void commit() throws IOException {
        csv.close();
        json.close();
        series.close();
        nodes.close();
        for (String f : FILES) {
            Files.move(part(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        committed = true;
    }

    /** Without a {@link #commit()}: closes and deletes the partial files. */
    @Override
    public void close() {
        if (committed) {
            return;
        }
        for (AutoCloseable open : new AutoCloseable[] {csv, json, series, nodes}) {
            closeQuietly(open);
        }
        deleteParts();
    }

    /** {@code run} with its scalar metrics only: per-node arrays and the series emptied. */
    static RunResult summary(RunResult run) {
        RunMetrics m = run.metrics();
        RunMetrics slim = new RunMetrics(m.requestsArrived(), m.requestsCompleted(), m.requestsRejected(), m.requestsLost(),
                m.durationSeconds(), m.throughputRps(), m.responseMean(), m.responseP50(), m.responseP95(), m.responseP99(),
                m.responseP999(), m.responseMax(), m.waitMean(), m.backlogArea(), m.meanQueueLength(), m.maxQueue(),
                m.maxClusterQueue(), m.decisions(), m.queriesPerDecision(), m.messagesByKind(), m.messagesTotal(),
                m.bytesEstimated(), m.stateUpdates(), List.of(), List.of(), List.of(), m.jainFairness(), m.maxNodeShare1s(), List.of(), "",
                m.counters(), m.extras());
        return new RunResult(run.scenario(), run.policy(), run.seed(), slim);
    }

    private Path part(String name) {
        return dir.resolve(name + ".part");
    }

    private void deleteParts() {
        for (String f : FILES) {
            try {
                Files.deleteIfExists(part(f));
            } catch (IOException e) {
                // best effort: the part file stays, the real file is untouched
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // closing a partial file that is deleted next
        }
    }
}

package org.loadlab.analysis.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.loadlab.analysis.run.RunMetrics;

/**
 * Writes one CSV row per run with its headline metrics first (see {@link #HEADER}).
 *
 * <p>Units are in the column names ({@code _s} seconds, {@code _rps} requests/s); queue
 * lengths are requests, {@code backlog_area} is request·seconds. Per-node columns hold one
 * value per node, in node order, joined by {@code ;}. Numbers are plain decimals with up to
 * 10 significant digits; undefined values are {@code NaN}. Rows are in list order, so pass
 * runs in a deterministic order (as planned, not as finished) for byte-identical files.
 * Message counts by kind and the response-time histogram are only in the JSON file
 * ({@link ResultsJson}). The last columns serve seed 003's study for every policy:
 * {@code sla_breaches} (window completions slower than the SLA), {@code errors} (requests that
 * ended with a 5xx: a node's 500, or 503/504 when the failover failed; {@link RunMetrics#serverErrors()}), {@code shed} (HTTP 429 by QoS shedding) and the routed decisions by
 * routing mode ({@code mode_policy}: the policy's own rule; {@code mode_circuit_breaker},
 * {@code mode_all_masked}, {@code mode_panic}: fallbacks; {@code mode_failover}: retries).
 *
 * <p>Source: DESIGN.md (results written as JSON and CSV); metric definitions in
 * {@link RunMetrics}.
 */
public final class ResultsCsv {

    private record Column(String name, Function<RunResult, String> cell) {
    }

    /** Routing mode of a LinTS decision whose weights were stale (seed 003). */
    static final String CIRCUIT_BREAKER = "fallback_circuit_breaker_least_conn";
    /** Routing mode of a decision whose candidates were all masked (seed 003). */
    static final String ALL_MASKED = "fallback_all_masked_least_conn";
    /** Routing mode of a decision that failed open in Envoy's panic mode. */
    static final String PANIC = "fallback_panic_all_candidates";
    /** Routing mode of a retry (seed 003's failover). */
    static final String FAILOVER = "failover";

    private static final List<Column> COLUMNS = List.of(
            new Column("scenario", RunResult::scenario),
            new Column("policy", RunResult::policy),
            new Column("seed", r -> CsvNumbers.format(r.seed())),
            metric("requests_completed", m -> CsvNumbers.format(m.requestsCompleted())),
            metric("requests_rejected", m -> CsvNumbers.format(m.requestsRejected())),
            metric("throughput_rps", m -> CsvNumbers.format(m.throughputRps())),
            metric("response_mean_s", m -> CsvNumbers.format(m.responseMean())),
            metric("response_p50_s", m -> CsvNumbers.format(m.responseP50())),
            metric("response_p99_s", m -> CsvNumbers.format(m.responseP99())),
            metric("wait_mean_s", m -> CsvNumbers.format(m.waitMean())),
            metric("queries_per_decision", m -> CsvNumbers.format(m.queriesPerDecision())),
            metric("max_queue", m -> CsvNumbers.format(m.maxQueue())),
            metric("requests_arrived", m -> CsvNumbers.format(m.requestsArrived())),
            metric("requests_lost", m -> CsvNumbers.format(m.requestsLost())),
            metric("response_p95_s", m -> CsvNumbers.format(m.responseP95())),
            metric("response_p999_s", m -> CsvNumbers.format(m.responseP999())),
            metric("response_max_s", m -> CsvNumbers.format(m.responseMax())),
            metric("backlog_area", m -> CsvNumbers.format(m.backlogArea())),
            metric("mean_queue", m -> CsvNumbers.format(m.meanQueueLength())),
            metric("max_cluster_queue", m -> CsvNumbers.format(m.maxClusterQueue())),
            metric("decisions", m -> CsvNumbers.format(m.decisions())),
            metric("messages_total", m -> CsvNumbers.format(m.messagesTotal())),
            metric("bytes_est", m -> CsvNumbers.format(m.bytesEstimated())),
            metric("state_updates", m -> CsvNumbers.format(m.stateUpdates())),
            metric("jain_fairness", m -> CsvNumbers.format(m.jainFairness())),
            metric("duration_s", m -> CsvNumbers.format(m.durationSeconds())),
            metric("node_request_share", m -> CsvNumbers.join(m.nodeRequestShare())),
            metric("node_utilisation", m -> CsvNumbers.join(m.nodeUtilisation())),
            metric("node_max_queue", m -> CsvNumbers.join(m.nodeMaxQueue())),
            metric("max_node_share_1s", m -> CsvNumbers.format(m.maxNodeShare1s())),
            metric("sla_breaches", m -> CsvNumbers.format(m.slaBreaches())),
            metric("errors", m -> CsvNumbers.format(m.serverErrors())),
            metric("shed", m -> CsvNumbers.format(m.counter("shed"))),
            metric("mode_policy", m -> CsvNumbers.format(policyModes(m))),
            metric("mode_circuit_breaker", m -> CsvNumbers.format(m.routingMode(CIRCUIT_BREAKER))),
            metric("mode_all_masked", m -> CsvNumbers.format(m.routingMode(ALL_MASKED))),
            metric("mode_panic", m -> CsvNumbers.format(m.routingMode(PANIC))),
            metric("mode_failover", m -> CsvNumbers.format(m.routingMode(FAILOVER))));

    /** Decisions by the policy's own rule: every routing mode that is not a fallback or a failover. */
    private static long policyModes(RunMetrics m) {
        long sum = 0;
        for (java.util.Map.Entry<String, Long> e : m.routingModes().entrySet()) {
            String k = e.getKey();
            if (!k.equals(CIRCUIT_BREAKER) && !k.equals(ALL_MASKED) && !k.equals(PANIC) && !k.equals(FAILOVER)) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    /** The column names, in file order. */
    public static final List<String> HEADER = COLUMNS.stream().map(Column::name).toList();

    private ResultsCsv() {
    }

    /**
     * Writes the runs, replacing the file and creating parent directories.
     *
     * @param file target CSV file
     * @param runs runs, one row each, in this order; may be empty (header only)
     * @throws IOException if the file cannot be written
     * @throws NullPointerException if an argument or a run is null
     */
    public static void write(Path file, List<RunResult> runs) throws IOException {
        RunCsvFile.writeAll(file, HEADER, ResultsCsv::row, runs);
    }

    /**
     * Opens the file for runs written one at a time as they finish (in plan order), so that
     * no run has to stay in memory for the file; the result is byte-identical to
     * {@link #write} of the same runs.
     *
     * @param file target CSV file, replaced
     * @return the open file; close it to finish
     * @throws IOException if the file cannot be created
     */
    public static RunCsvFile open(Path file) throws IOException {
        return RunCsvFile.open(file, HEADER, ResultsCsv::row);
    }

    /** The row of {@code run}. */
    private static void row(RunResult run, CsvTableWriter table) throws IOException {
        List<String> row = new ArrayList<>(COLUMNS.size());
        for (Column column : COLUMNS) {
            row.add(column.cell().apply(run));
        }
        table.row(row);
    }

    private static Column metric(String name, Function<RunMetrics, String> cell) {
        return new Column(name, r -> cell.apply(r.metrics()));
    }
}

package org.loadlab.analysis.campaign;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.loadlab.analysis.run.RunMetrics;

/**
 * A per-run metric that campaign statistics, plots and reports can analyse: its column name
 * (the same as in {@code runs.csv} / {@link org.loadlab.analysis.io.ResultsCsv}), a label and
 * unit for tables and axes, how to read it from {@link RunMetrics}, and whether lower values
 * are better (used for the verdict of a paired comparison).
 *
 * <p>Scopes and exact definitions are those of {@link RunMetrics}: response and waiting times,
 * throughput, queue statistics and backlog cover the measurement window; counters (rejected,
 * lost, messages) the whole run. Undefined values are NaN and are left out of statistics.
 *
 * <p>Source: DESIGN.md (metrics); docs/results.md (column meanings).
 */
public enum Metric {

    /** Completions per second while requests were arriving, requests/s (higher is better). */
    THROUGHPUT("throughput_rps", "throughput", "requests/s", false, RunMetrics::throughputRps),
    /** Mean response (sojourn) time, seconds. */
    RESPONSE_MEAN("response_mean_s", "mean response time", "s", true, RunMetrics::responseMean),
    /** Median response time, seconds. */
    RESPONSE_P50("response_p50_s", "median response time", "s", true, RunMetrics::responseP50),
    /** 95th percentile response time, seconds. */
    RESPONSE_P95("response_p95_s", "p95 response time", "s", true, RunMetrics::responseP95),
    /** 99th percentile response time, seconds. */
    RESPONSE_P99("response_p99_s", "p99 response time", "s", true, RunMetrics::responseP99),
    /** 99.9th percentile response time, seconds. */
    RESPONSE_P999("response_p999_s", "p99.9 response time", "s", true, RunMetrics::responseP999),
    /** Largest response time, seconds. */
    RESPONSE_MAX("response_max_s", "max response time", "s", true, RunMetrics::responseMax),
    /** Mean waiting time in a node's queue before service, seconds. */
    WAIT_MEAN("wait_mean_s", "mean waiting time", "s", true, RunMetrics::waitMean),
    /** ∫ Σ_j q_j dt over the window, request·seconds. */
    BACKLOG_AREA("backlog_area", "backlog area", "request·s", true, RunMetrics::backlogArea),
    /** Time-average queue length per node, requests. */
    MEAN_QUEUE("mean_queue", "mean queue length", "requests per node", true, RunMetrics::meanQueueLength),
    /** Largest queue length q_j of any node, requests. */
    MAX_QUEUE("max_queue", "max queue length", "requests", true, RunMetrics::maxQueue),
    /** Largest total queue Σ_j q_j, requests. */
    MAX_CLUSTER_QUEUE("max_cluster_queue", "max cluster queue", "requests", true, RunMetrics::maxClusterQueue),
    /** Nodes whose load was read per routing decision. */
    QUERIES_PER_DECISION("queries_per_decision", "queries per decision", "nodes/decision", true,
            RunMetrics::queriesPerDecision),
    /** Requests rejected during the whole run. */
    REQUESTS_REJECTED("requests_rejected", "rejected requests", "requests", true, RunMetrics::requestsRejected),
    /** Requests lost at failed nodes during the whole run. */
    REQUESTS_LOST("requests_lost", "lost requests", "requests", true, RunMetrics::requestsLost),
    /** Messages sent by all participants during the whole run. */
    MESSAGES_TOTAL("messages_total", "messages sent", "messages", true, RunMetrics::messagesTotal),
    /** Jain's fairness index over per-node utilisation, dimensionless in [1/n, 1] (higher is better). */
    JAIN_FAIRNESS("jain_fairness", "Jain fairness index", "dimensionless", false, RunMetrics::jainFairness),
    /** Herding: the largest share of a 1 s window's routed requests one node received (issue 14). */
    MAX_NODE_SHARE("max_node_share_1s", "largest 1 s node share", "share", true, RunMetrics::maxNodeShare1s),
    /** Retries issued per arrived request (counter {@code retries}; issue 14). */
    RETRIES_PER_REQUEST("retries_per_request", "retries per request", "retries/request", true, m -> perArrival(m, "retries")),
    /** Load sharing: task transfers per arrived task (counter {@code transfers}; seed 002). */
    TRANSFERS_PER_TASK("transfers_per_task", "transfers per task", "transfers/task", true, m -> perArrival(m, "transfers")),
    /** Load sharing: polls per arrived task (counter {@code polls}; seed 002). */
    POLLS_PER_TASK("polls_per_task", "polls per task", "polls/task", true, m -> perArrival(m, "polls")),
    /** ASMF reference model: completed work units per job generated (higher is better; seed 000). */
    SEED_THROUGHPUT("throughput", "throughput (seed)", "units/job", false, m -> extra(m, "throughput")),
    /** ASMF reference model: Σ q_j(after service)·dt / completed units, seconds (seed 000). */
    SEED_AVG_WAIT("avg_wait_time", "average wait (seed)", "s", true, m -> extra(m, "avg_wait_time")),
    /** ASMF reference model: largest total queue, work units (seed 000). */
    SEED_MAX_QUEUE("max_queue_observed", "max queue observed (seed)", "units", true, m -> extra(m, "max_queue_observed")),
    /** ASMF reference model: first time the 1 s mean-queue trace settles within 5%, ms (seed 000). */
    SEED_CONVERGENCE("convergence_time_ms", "convergence time (seed)", "ms", true, m -> extra(m, "convergence_time_ms")),
    /** ASMF reference model: variance of the 1 s mean-queue trace (seed 000). */
    SEED_QUEUE_VARIANCE("mean_queue_variance", "mean-queue variance (seed)", "units²", true, m -> extra(m, "mean_queue_variance")),
    /** ASMF reference model: mean absolute step of the 1 s mean-queue trace (seed 000). */
    SEED_OSCILLATION("oscillation_index", "oscillation index (seed)", "units", true, m -> extra(m, "oscillation_index")),
    /** Seed 003: completed requests slower than the SLA (sla.latency), per cent of arrived requests. */
    SLA_BREACH_PCT("sla_breach_pct", "SLA breaches", "% of requests", true, m -> percent(m.slaBreaches(), m)),
    /** Seed 003: requests that ended with a 5xx (a node's 500, 503/504 after a failed failover), per cent of arrived requests. */
    ERROR_PCT("error_pct", "errors (HTTP 5xx)", "% of requests", true, m -> percent(m.serverErrors(), m)),
    /** Seed 003: requests shed (HTTP 429), per cent of arrived requests. */
    SHED_PCT("shed_pct", "shed (HTTP 429)", "% of requests", true, m -> percent(m.counter("shed"), m)),
    /** Seed 003: routed decisions in a fallback mode (circuit breaker, all masked, panic), per cent of routed decisions. */
    FALLBACK_PCT("fallback_pct", "fallback decisions", "% of routed", true, Metric::fallbackPercent);

    /** {@code count} per cent of the arrived requests (NaN without arrivals). */
    private static double percent(long count, RunMetrics m) {
        return m.requestsArrived() == 0 ? Double.NaN : 100.0 * count / m.requestsArrived();
    }

    /** Routed decisions in a fallback mode, per cent of all routed decisions (NaN without any). */
    private static double fallbackPercent(RunMetrics m) {
        long all = 0;
        long fallback = 0;
        for (java.util.Map.Entry<String, Long> e : m.routingModes().entrySet()) {
            all += e.getValue();
            if (e.getKey().startsWith("fallback_")) {
                fallback += e.getValue();
            }
        }
        return all == 0 ? Double.NaN : 100.0 * fallback / all;
    }

    /** Seed 003's benchmark metrics (docs/autonomous.md), in the seed's order, with throughput and shedding. */
    public static final List<Metric> AUTONOMOUS = List.of(
            RESPONSE_P50, RESPONSE_P95, RESPONSE_P99, SLA_BREACH_PCT, ERROR_PCT, SHED_PCT, THROUGHPUT, FALLBACK_PCT);

    /** The ASMF seed's headline metrics (reference model), in the seed's order. */
    public static final List<Metric> SEED_HEADLINE = List.of(
            SEED_THROUGHPUT, SEED_AVG_WAIT, BACKLOG_AREA, SEED_MAX_QUEUE, QUERIES_PER_DECISION,
            SEED_CONVERGENCE, SEED_QUEUE_VARIANCE, SEED_OSCILLATION);

    /** Counter {@code name} per arrived request; 0 when the run never counted it. */
    private static double perArrival(RunMetrics m, String name) {
        return m.requestsArrived() == 0 ? Double.NaN : m.counters().getOrDefault(name, 0L) / (double) m.requestsArrived();
    }

    /** An extra (model-specific) metric of a run, NaN when the run has none. */
    private static double extra(RunMetrics m, String name) {
        Double v = m.extras().get(name);
        return v == null ? Double.NaN : v;
    }

    /** The headline metrics a report shows by default, in this order. */
    public static final List<Metric> HEADLINE = List.of(
            THROUGHPUT, RESPONSE_MEAN, RESPONSE_P99, WAIT_MEAN, BACKLOG_AREA, MAX_QUEUE,
            QUERIES_PER_DECISION, REQUESTS_REJECTED);

    private final String columnName;
    private final String label;
    private final String unit;
    private final boolean lowerIsBetter;
    private final ToDoubleFunction<RunMetrics> accessor;

    Metric(String columnName, String label, String unit, boolean lowerIsBetter,
            ToDoubleFunction<RunMetrics> accessor) {
        this.columnName = columnName;
        this.label = label;
        this.unit = unit;
        this.lowerIsBetter = lowerIsBetter;
        this.accessor = accessor;
    }

    /**
     * The metric's column name in {@code runs.csv}, {@code summary.csv} and
     * {@code pairwise.csv}, and its name in {@code campaign-meta.json}.
     *
     * @return e.g. {@code response_mean_s}
     */
    public String columnName() {
        return columnName;
    }

    /**
     * Human-readable name for tables and plot titles.
     *
     * @return e.g. {@code mean response time}
     */
    public String label() {
        return label;
    }

    /**
     * Unit of the values.
     *
     * @return e.g. {@code s}, {@code requests/s}, {@code dimensionless}
     */
    public String unit() {
        return unit;
    }

    /**
     * Whether a smaller value is an improvement.
     *
     * @return true for times, queues, costs; false for throughput and fairness
     */
    public boolean lowerIsBetter() {
        return lowerIsBetter;
    }

    /**
     * Label with unit, for axis titles and table headers.
     *
     * @return e.g. {@code mean response time (s)}
     */
    public String labelWithUnit() {
        return label + " (" + unit + ")";
    }

    /**
     * Unit of the values in runs whose queues count work units (the ASMF seed's time-stepped
     * reference model) or requests (every other model).
     *
     * @param workUnits whether the runs' queues are in work units ({@link #inWorkUnits})
     * @return e.g. {@code work units·s} for the backlog area of reference-model runs, else {@link #unit()}
     */
    public String unit(boolean workUnits) {
        if (!workUnits) {
            return unit;
        }
        return switch (this) {
            case BACKLOG_AREA -> "work units·s";
            case MEAN_QUEUE -> "work units per node";
            case MAX_QUEUE, MAX_CLUSTER_QUEUE -> "work units";
            default -> unit;
        };
    }

    /**
     * Label with the unit of runs in work units or requests, as {@link #unit(boolean)}.
     *
     * @return e.g. {@code backlog area (work units·s)}
     */
    public String labelWithUnit(boolean workUnits) {
        return label + " (" + unit(workUnits) + ")";
    }

    /**
     * Whether every run counts its queues in work units: runs of the reference model, the only
     * model that reports the seed's own metrics (among them {@code backlog_area}) as extras.
     *
     * @param runs a campaign's runs
     * @return true if there is a run and every one is a reference-model run
     */
    public static boolean inWorkUnits(java.util.Collection<CampaignRun> runs) {
        return !runs.isEmpty() && runs.stream().allMatch(r -> r.metrics().extras().containsKey(REFERENCE_MODEL_METRIC));
    }

    /** A metric only the reference model reports (under the seed's name). */
    static final String REFERENCE_MODEL_METRIC = "backlog_area";

    /**
     * Reads the metric from a run.
     *
     * @param metrics a run's metrics
     * @return the value in {@link #unit()}; NaN when undefined for that run
     * @throws NullPointerException if {@code metrics} is null
     */
    public double value(RunMetrics metrics) {
        return accessor.applyAsDouble(Objects.requireNonNull(metrics, "metrics"));
    }

    /**
     * Finds a metric by column name.
     *
     * @param columnName e.g. {@code response_p99_s}
     * @return the metric
     * @throws IllegalArgumentException if no metric has that name; the message lists the names
     * @throws NullPointerException if {@code columnName} is null
     */
    public static Metric byColumnName(String columnName) {
        Objects.requireNonNull(columnName, "columnName");
        for (Metric metric : values()) {
            if (metric.columnName.equals(columnName)) {
                return metric;
            }
        }
        throw new IllegalArgumentException("metric: '" + columnName + "' is not known; allowed: "
                + Arrays.stream(values()).map(Metric::columnName).collect(Collectors.joining(", ")));
    }
}

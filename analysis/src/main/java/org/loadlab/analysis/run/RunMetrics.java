package org.loadlab.analysis.run;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The metrics of one run, as produced by {@link RunRecorder#finish(double)}. Immutable and
 * Jackson-serialisable (properties in declaration order).
 *
 * <p><b>Two scopes.</b> Counters ({@code requests*}, decisions, messages, bytes, state
 * updates) cover the <em>whole run</em>. Everything else covers the <em>measurement
 * window</em> [warm-up, end]: response and waiting times count only requests that arrived at
 * or after the warm-up; throughput, node shares, utilisation, backlog and maxima count only
 * what happened in the window. The {@link #series()} covers the whole run from time 0.
 * Undefined values (e.g. a mean of no observations) are NaN.
 *
 * <p>Source: DESIGN.md (results of a run are a typed record written as JSON and CSV); SPEC.md §4, §5
 * (metrics); Jain et al. 1984 (fairness index).
 *
 * @param requestsArrived requests that entered a balancer, whole run
 * @param requestsCompleted requests completed, whole run
 * @param requestsRejected requests rejected (admission control, no node available), whole run
 * @param requestsLost requests lost at failed nodes, whole run
 * @param durationSeconds length of the measurement window, end − warm-up, seconds
 * @param throughputRps completions per second while requests were arriving: completions in
 *     [warm-up, last arrival] divided by that span (λ for a stable system), requests/s
 * @param responseMean exact mean response (sojourn) time, completion − arrival at the
 *     balancer, of requests arrived at or after warm-up, seconds
 * @param responseP50 median response time, seconds (HdrHistogram, within 0.1%)
 * @param responseP95 95th percentile response time, seconds (within 0.1%)
 * @param responseP99 99th percentile response time, seconds (within 0.1%)
 * @param responseP999 99.9th percentile response time, seconds (within 0.1%)
 * @param responseMax exact largest response time, seconds
 * @param waitMean exact mean waiting time (queued at a node before service started) of
 *     requests that joined the node's queue at or after warm-up, seconds
 * @param backlogArea ∫ Σ_j q_j dt over the window, request·seconds
 * @param meanQueueLength time-average of Σ_j q_j / n over the window, requests per node
 * @param maxQueue largest q_j of any node in the window, requests
 * @param maxClusterQueue largest Σ_j q_j in the window, requests
 * @param decisions routing decisions, whole run
 * @param queriesPerDecision nodes whose load was read per decision (probes, cache reads or
 *     oracle reads), mean over decisions; NaN without decisions
 * @param messagesByKind messages sent by kind, sorted by kind, whole run
 * @param messagesTotal messages sent, whole run
 * @param bytesEstimated estimated bytes of all messages sent, whole run
 * @param stateUpdates load reports received by balancers (one per receiver), whole run
 * @param nodeRequestShare per node j: completions at j in the window / all completions in the
 *     window (sums to 1; NaN when nothing completed in the window)
 * @param nodeUtilisation per node j: ρ_j = busy server-time / available server-time in the
 *     window (for constant servers: busy server-time / (servers × duration)); NaN for a node
 *     with no servers
 * @param nodeMaxQueue per node j: largest q_j in the window, requests
 * @param jainFairness Jain's index (Σρ_j)² / (n Σρ_j²) over {@code nodeUtilisation}: 1 when all
 *     nodes are equally utilised, 1/n when one node does all the work; NaN when no node was busy
 * @param maxNodeShare1s the herding metric: over the complete 1 s windows between the warm-up
 *     and the last arrival, the largest share of a window's routed requests (retries included)
 *     that a single node received; about 1/n for an even spread, 1 when every request of some
 *     second went to one node; NaN without routed requests (a load-sharing run, the reference model)
 * @param series per-interval time series over the whole run (see {@link SeriesPoint})
 * @param responseHistogram response-time distribution of the window's requests, Base64 of the
 *     compressed HdrHistogram encoding in nanoseconds; decode with {@link #decodeResponseHistogram()}
 * @param counters protocol-specific event counts over the whole run, by name (sorted; e.g.
 *     Sticky-Lazy's blind routes, load sharing's transfers); empty when the protocol keeps none
 * @param extras model-specific metrics by name (sorted), e.g. the ASMF reference model's
 *     {@code avg_wait_time}; empty for the message-level model
 * @param slaBreaches completed requests of the window (arrived at or after warm-up) whose
 *     response time exceeded the SLA latency ({@code sla.latency}, default 0.2 s, seed 003);
 *     0 for a model without per-request times
 * @param routingModes routed decisions by routing mode over the whole run (sorted): the
 *     policy's own rule under its name ({@code lin_ts}, {@code p2c}, ...), and the fallbacks
 *     ({@code fallback_circuit_breaker_least_conn}, {@code fallback_all_masked_least_conn},
 *     {@code fallback_panic_all_candidates}) and retries ({@code failover}); empty for the
 *     reference model and load sharing
 */
@JsonPropertyOrder({
    "requestsArrived", "requestsCompleted", "requestsRejected", "requestsLost",
    "durationSeconds", "throughputRps",
    "responseMean", "responseP50", "responseP95", "responseP99", "responseP999", "responseMax",
    "waitMean", "backlogArea", "meanQueueLength", "maxQueue", "maxClusterQueue",
    "decisions", "queriesPerDecision", "messagesByKind", "messagesTotal", "bytesEstimated", "stateUpdates",
    "nodeRequestShare", "nodeUtilisation", "nodeMaxQueue", "jainFairness", "maxNodeShare1s", "series", "responseHistogram", "counters", "extras",
    "slaBreaches", "routingModes"})
public record RunMetrics(
        long requestsArrived,
        long requestsCompleted,
        long requestsRejected,
        long requestsLost,
        double durationSeconds,
        double throughputRps,
        double responseMean,
        double responseP50,
        double responseP95,
        double responseP99,
        double responseP999,
        double responseMax,
        double waitMean,
        double backlogArea,
        double meanQueueLength,
        int maxQueue,
        long maxClusterQueue,
        long decisions,
        double queriesPerDecision,
        SortedMap<String, Long> messagesByKind,
        long messagesTotal,
        long bytesEstimated,
        long stateUpdates,
        List<Double> nodeRequestShare,
        List<Double> nodeUtilisation,
        List<Integer> nodeMaxQueue,
        double jainFairness,
        double maxNodeShare1s,
        List<SeriesPoint> series,
        String responseHistogram,
        SortedMap<String, Long> counters,
        SortedMap<String, Double> extras,
        long slaBreaches,
        SortedMap<String, Long> routingModes) {

    /**
     * Metrics without SLA breaches or routing modes (a model that measures neither); see the
     * class comment for each component.
     */
    public RunMetrics(long requestsArrived, long requestsCompleted, long requestsRejected, long requestsLost,
                      double durationSeconds, double throughputRps, double responseMean, double responseP50,
                      double responseP95, double responseP99, double responseP999, double responseMax, double waitMean,
                      double backlogArea, double meanQueueLength, int maxQueue, long maxClusterQueue, long decisions,
                      double queriesPerDecision, SortedMap<String, Long> messagesByKind, long messagesTotal,
                      long bytesEstimated, long stateUpdates, List<Double> nodeRequestShare, List<Double> nodeUtilisation,
                      List<Integer> nodeMaxQueue, double jainFairness, double maxNodeShare1s, List<SeriesPoint> series,
                      String responseHistogram, SortedMap<String, Long> counters, SortedMap<String, Double> extras) {
        this(requestsArrived, requestsCompleted, requestsRejected, requestsLost, durationSeconds, throughputRps,
                responseMean, responseP50, responseP95, responseP99, responseP999, responseMax, waitMean, backlogArea,
                meanQueueLength, maxQueue, maxClusterQueue, decisions, queriesPerDecision, messagesByKind, messagesTotal,
                bytesEstimated, stateUpdates, nodeRequestShare, nodeUtilisation, nodeMaxQueue, jainFairness,
                maxNodeShare1s, series, responseHistogram, counters, extras, 0, new TreeMap<>());
    }

    /**
     * Creates the metrics, copying the collections so the record is immutable; see the class
     * comment for each component's meaning and unit.
     *
     * @param requestsArrived see the class comment
     * @param requestsCompleted see the class comment
     * @param requestsRejected see the class comment
     * @param requestsLost see the class comment
     * @param durationSeconds see the class comment
     * @param throughputRps see the class comment
     * @param responseMean see the class comment
     * @param responseP50 see the class comment
     * @param responseP95 see the class comment
     * @param responseP99 see the class comment
     * @param responseP999 see the class comment
     * @param responseMax see the class comment
     * @param waitMean see the class comment
     * @param backlogArea see the class comment
     * @param meanQueueLength see the class comment
     * @param maxQueue see the class comment
     * @param maxClusterQueue see the class comment
     * @param decisions see the class comment
     * @param queriesPerDecision see the class comment
     * @param messagesByKind see the class comment
     * @param messagesTotal see the class comment
     * @param bytesEstimated see the class comment
     * @param stateUpdates see the class comment
     * @param nodeRequestShare see the class comment
     * @param nodeUtilisation see the class comment
     * @param nodeMaxQueue see the class comment
     * @param jainFairness see the class comment
     * @param maxNodeShare1s see the class comment
     * @param series see the class comment
     * @param responseHistogram see the class comment
     * @param counters see the class comment
     * @param extras see the class comment
     * @param slaBreaches see the class comment
     * @param routingModes see the class comment
     * @throws NullPointerException if a collection, an element of one, or {@code responseHistogram} is null
     */
    public RunMetrics {
        counters = Collections.unmodifiableSortedMap(new TreeMap<>(counters == null ? new TreeMap<>() : counters));
        extras = Collections.unmodifiableSortedMap(new TreeMap<>(extras == null ? new TreeMap<>() : extras));
        routingModes = Collections.unmodifiableSortedMap(new TreeMap<>(routingModes == null ? new TreeMap<>() : routingModes));
        messagesByKind = Collections.unmodifiableSortedMap(
                new TreeMap<>(Objects.requireNonNull(messagesByKind, "messagesByKind")));
        nodeRequestShare = List.copyOf(Objects.requireNonNull(nodeRequestShare, "nodeRequestShare"));
        nodeUtilisation = List.copyOf(Objects.requireNonNull(nodeUtilisation, "nodeUtilisation"));
        nodeMaxQueue = List.copyOf(Objects.requireNonNull(nodeMaxQueue, "nodeMaxQueue"));
        series = List.copyOf(Objects.requireNonNull(series, "series"));
        Objects.requireNonNull(responseHistogram, "responseHistogram");
    }

    /**
     * Decodes {@link #responseHistogram()} for percentiles or CDF plots.
     *
     * @return the response-time distribution of the window's requests
     * @throws IllegalArgumentException if the stored text is not a valid encoding
     */
    public ResponseTimeHistogram decodeResponseHistogram() {
        return ResponseTimeHistogram.decode(responseHistogram);
    }

    /** Counter {@code name}, 0 if the run never counted it. */
    public long counter(String name) {
        Long v = counters.get(name);
        return v == null ? 0 : v;
    }

    /**
     * Requests that ended with a server error (HTTP 5xx): with retries or per-try timeouts the
     * balancer counts each final failure ({@code failed_500}, {@code failed_503},
     * {@code failed_504}); without them every error answer of a node is final
     * ({@code responses_error}).
     */
    public long serverErrors() {
        boolean tracked = counters.containsKey("retries") || counters.keySet().stream().anyMatch(k -> k.startsWith("failed_"));
        return tracked ? counter("failed_500") + counter("failed_503") + counter("failed_504") : counter("responses_error");
    }

    /** Routed decisions in routing mode {@code mode}, 0 if none. */
    public long routingMode(String mode) {
        Long v = routingModes.get(mode);
        return v == null ? 0 : v;
    }
}

package org.loadlab.experiment.run;

import java.util.Locale;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.WorkloadBuilder;

/**
 * What a set of runs of one scenario will cost, estimated from the scenario alone before
 * anything runs: requests per run (from λ and the duration, the request limit or the
 * trace) and the heap the runs need, so that a job that cannot fit is refused up front and
 * a long one says so.
 *
 * <p>The heap figures were measured on the message model (quickstart with 10 to 10^5
 * nodes, {@code used heap after GC}, Java 17, ParallelGC): a running run holds about
 * {@value #WORKING_BYTES_PER_NODE} bytes per node (node logic, balancer tables, recorder
 * arrays); a finished run's outcome, kept until the files are written, holds about
 * {@value #KEPT_BYTES_PER_RUN} bytes (histogram), {@value #KEPT_BYTES_PER_NODE} bytes per
 * node (per-node metrics and the node inspection) and {@value #KEPT_BYTES_PER_POINT} bytes
 * per time-series point. Writing the files needs about as much again (nodes.csv is
 * rendered whole). Queues that grow without bound (ρ ≥ 1 with bounded queues rejects,
 * so they do not) are not included.
 *
 * @param requestsPerRun expected arrivals of one run
 * @param runs number of runs
 * @param workers runs at the same time
 * @param heapBytes estimated heap the job needs, bytes
 */
public record RunEstimate(double requestsPerRun, int runs, int workers, double heapBytes) {
    /** Heap of a running run per node, bytes (measured; see the class comment). */
    public static final int WORKING_BYTES_PER_NODE = 900;
    /** Heap of a finished run's outcome per node, bytes. */
    public static final int KEPT_BYTES_PER_NODE = 200;
    /** Heap of a finished run's outcome per time-series point, bytes. */
    public static final int KEPT_BYTES_PER_POINT = 50;
    /** Heap of a finished run's outcome regardless of size (response-time histogram, metrics), bytes. */
    public static final int KEPT_BYTES_PER_RUN = 60_000;
    /**
     * Heap of one run's summary (scalar metrics, counters, messages by kind) that
     * {@code simulate} keeps for its closing table after the run is written, bytes: 340
     * measured for quickstart p2c (3,000 summaries, used heap after GC), rounded up for
     * policies with more counters.
     */
    public static final int SUMMARY_BYTES_PER_RUN = 1_000;
    /** Total requests above which a job is called long before it starts. */
    public static final double LONG_JOB_REQUESTS = 2e7;
    /** Number of runs above which a job is called long before it starts. */
    public static final int MANY_RUNS = 10_000;

    /**
     * Estimates {@code runs} runs of {@code s}, {@code workers} at a time.
     *
     * @param s a validated scenario
     * @param runs number of (policy, seed) runs, ≥ 0
     * @param workers parallel runs, ≥ 1
     */
    public static RunEstimate of(Scenario s, int runs, int workers) {
        double requests = requestsPerRun(s);
        int n = s.nodes().count();
        double points = seriesPoints(s);
        double kept = KEPT_BYTES_PER_RUN + (double) KEPT_BYTES_PER_NODE * n + KEPT_BYTES_PER_POINT * points;
        double working = (double) WORKING_BYTES_PER_NODE * n;
        double heap = Math.min(workers, Math.max(runs, 1)) * working + 2 * runs * kept;
        return new RunEstimate(requests, runs, workers, heap);
    }

    /**
     * Estimates {@code runs} runs of {@code s} written to disk one by one in plan order, as
     * {@code simulate} does: besides the runs in progress, at most the runs finished ahead of
     * their turn (one per worker) and the one being written are held whole; every written run
     * leaves only its summary.
     *
     * @param s a validated scenario
     * @param runs number of (policy, seed) runs, ≥ 0
     * @param workers parallel runs, ≥ 1
     */
    public static RunEstimate streamed(Scenario s, int runs, int workers) {
        RunEstimate all = of(s, runs, workers);
        int active = Math.min(workers, Math.max(runs, 1));
        double heap = active * workingBytes(s) + 2 * Math.min(runs, active + 1) * keptBytes(s)
                + (double) runs * SUMMARY_BYTES_PER_RUN;
        return new RunEstimate(all.requestsPerRun(), runs, workers, heap);
    }

    /** Heap of one running run of {@code s}, bytes. */
    public static double workingBytes(Scenario s) {
        return (double) WORKING_BYTES_PER_NODE * s.nodes().count();
    }

    /** Heap of one finished run's outcome of {@code s} until its files are written, bytes. */
    public static double keptBytes(Scenario s) {
        return KEPT_BYTES_PER_RUN + (double) KEPT_BYTES_PER_NODE * s.nodes().count() + KEPT_BYTES_PER_POINT * seriesPoints(s);
    }

    /**
     * Time-series points of one run of {@code s}: its length over {@code series-interval}. The
     * length is {@code duration}, or with {@code duration = 0} (until the requests or the trace
     * end) the time its requests take at the mean rate λ.
     */
    public static double seriesPoints(Scenario s) {
        double seconds = s.duration() > 0 ? s.duration() : requestsPerRun(s) / Math.max(1e-9, lambda(s));
        return seconds / s.seriesInterval();
    }

    /**
     * Whether a run's time series, rather than its nodes, takes most of its heap: then a longer
     * {@code series-interval}, not a smaller {@code nodes.count}, is what makes it fit.
     */
    public static boolean seriesDominates(Scenario s) {
        return KEPT_BYTES_PER_POINT * seriesPoints(s) > (double) (WORKING_BYTES_PER_NODE + KEPT_BYTES_PER_NODE) * s.nodes().count();
    }

    /**
     * Estimates a mixed set of runs (a campaign): each run's own kept size, and the working
     * memory of {@code workers} runs of the largest cluster at once.
     *
     * @param scenarios the scenario of each run
     * @param workers parallel runs, ≥ 1
     */
    public static RunEstimate of(java.util.List<Scenario> scenarios, int workers) {
        double requests = 0;
        double kept = 0;
        int largest = 0;
        java.util.Map<Scenario, RunEstimate> one = new java.util.IdentityHashMap<>();
        for (Scenario s : scenarios) {
            RunEstimate e = one.computeIfAbsent(s, x -> of(x, 1, 1));
            requests += e.requestsPerRun();
            kept += (e.heapBytes() - (double) WORKING_BYTES_PER_NODE * s.nodes().count()) / 2;
            largest = Math.max(largest, s.nodes().count());
        }
        int n = scenarios.size();
        double heap = Math.min(workers, Math.max(n, 1)) * (double) WORKING_BYTES_PER_NODE * largest + 2 * kept;
        return new RunEstimate(n == 0 ? 0 : requests / n, n, workers, heap);
    }

    /** Expected arrivals of one run: the request limit, λ·duration, or the trace's length. */
    public static double requestsPerRun(Scenario s) {
        double lambda = lambda(s);
        double byTime = s.duration() > 0 ? lambda * s.duration() : Double.POSITIVE_INFINITY;
        if (s.arrivals().process().equals("trace") && !s.arrivals().trace().loop()) {
            try {
                byTime = Math.min(byTime, WorkloadBuilder.loadTrace(s.arrivals().trace().file()).size());
            } catch (RuntimeException e) {
                // validation has read the trace already; without it the time bound stands
            }
        }
        double limit = s.requests() > 0 ? s.requests() : Double.POSITIVE_INFINITY;
        double r = Math.min(byTime, limit);
        return Double.isInfinite(r) ? 0 : r;
    }

    /** Mean arrival rate λ in requests/s: the given rate, or the one that gives the target utilisation. */
    static double lambda(Scenario s) {
        if (s.arrivals().rate() > 0) {
            return s.arrivals().rate();
        }
        double capacity = s.nodes().expectedCapacity();
        return s.arrivals().utilisation() * capacity / s.demand().mean();
    }

    /** Total expected requests of all runs. */
    public double totalRequests() {
        return requestsPerRun * runs;
    }

    /** Whether the job is big enough to warn about before it starts. */
    public boolean isLong() {
        return totalRequests() > LONG_JOB_REQUESTS || runs > MANY_RUNS;
    }

    /**
     * Whether the job fits a heap of {@code maxHeapBytes} (leaving a tenth for everything else).
     *
     * @param maxHeapBytes {@code Runtime.getRuntime().maxMemory()}
     */
    public boolean fits(long maxHeapBytes) {
        return heapBytes <= 0.9 * maxHeapBytes;
    }

    /** "1.2 GB" style size. */
    public static String bytes(double b) {
        if (b >= 1e9) {
            return String.format(Locale.ROOT, "%.1f GB", b / 1e9);
        }
        if (b >= 1e6) {
            return String.format(Locale.ROOT, "%.0f MB", b / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f kB", b / 1e3);
    }
}

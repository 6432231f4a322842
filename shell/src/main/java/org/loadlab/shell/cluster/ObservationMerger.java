package org.loadlab.shell.cluster;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.experiment.run.RecorderSink;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.observe.ForwardingSink;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.ObservationColumns;
import org.loadlab.kernel.observe.ObservationQueue;
import org.loadlab.kernel.observe.RequestLedger;

/**
 * Merges the observation records of all members of one experiment into one sink chain —
 * the {@link RequestLedger} that counts requests, then the run's recorder — in time order.
 *
 * <p>Each source (a member, the gateway's driver, the gateway's own queue resets) keeps its
 * records not yet fed sorted by time, as rows of primitive columns ({@link ObservationQueue}:
 * the records of the last 100–200 ms are no objects for the gateway's young collections to
 * copy); the merger feeds them by a k-way merge of the sources' heads (k is the number of
 * members plus two, so a scan of the heads is cheaper than a global heap). A source's
 * <em>watermark</em> is the time up to which it has sent everything (a member's clock when it
 * flushed, less a margin); the merger feeds records up to the least watermark of the sources
 * it waits for — so no record is fed before an earlier one of a slower member — but never
 * lags the experiment clock by more than {@code merge-lag}: a member that falls further behind
 * (frozen, starved of CPU) is not waited for, and a record of it that comes later than what
 * was fed is fed at that time instead (clamped, counted in {@link #clamped()}). Routing
 * records of requests that arrive after the scenario's warm-up give the decision latency (the
 * balancer's arrival → routing) and the added latency (driver → routing) from their own times,
 * clamped or not.
 *
 * <p>Not thread-safe: the experiment's runner actor owns it.
 */
public final class ObservationMerger {
    /** The records of one source not yet fed, in time order, and how far the source has sent everything. */
    private static final class Source {
        final ObservationQueue queue = new ObservationQueue();
        double watermark;
        boolean waitedFor = true;
    }

    /** Source of the gateway's own records that need no waiting (queue resets at removal). */
    static final String LOCAL = "gateway-local";

    private final java.util.Map<String, Source> sources = new java.util.LinkedHashMap<>();
    private Source[] heads = new Source[0];
    private final RunRecorder recorder;
    private final RequestLedger ledger;
    private final MetricsSink chain;
    private final double timeScale;
    private final Histogram decisionNanos = new Histogram(3);
    private final Histogram addedNanos = new Histogram(3);
    private double last;
    private long clamped;
    private long dropped;
    private final java.util.Map<String, Long> droppedByMember = new java.util.TreeMap<>();
    private final java.util.Map<String, long[]> flushOf = new java.util.HashMap<>();
    private final java.util.Map<String, Long> undelivered = new java.util.TreeMap<>();
    private long lostOnRemoval;
    private long batches;
    private long records;
    private long largestFlush;
    private long decisions;
    private long messages;

    /**
     * @param recorder the run's recorder (n nodes, warm-up, series interval of the scenario)
     * @param timeScale scenario seconds per real second
     */
    public ObservationMerger(RunRecorder recorder, double timeScale) {
        this.recorder = recorder;
        this.timeScale = timeScale;
        this.ledger = new RequestLedger(new RecorderSink(recorder));
        this.chain = new ForwardingSink(ledger) {
            @Override
            public void decision(double now, int balancer, int queries) {
                decisions++;
                super.decision(now, balancer, queries);
            }

            @Override
            public void count(double now, String name, long delta) {
                if (name.startsWith(org.loadlab.shell.actor.LogicActor.UNDELIVERED)) {
                    undelivered.merge(name, delta, Long::sum);
                } else if (name.equals(org.loadlab.balancer.core.BalancerLogic.LOST_ON_REMOVAL)) {
                    lostOnRemoval += delta;
                }
                super.count(now, name, delta);
            }

            @Override
            public void messageSent(double now, String kind, int bytes) {
                messages++;
                super.messageSent(now, kind, bytes);
            }
        };
    }

    /** Queues the records of {@code batch}; the member's watermark moves to the batch's. */
    public void add(Protocol.ObservationBatch batch) {
        droppedByMember.merge(batch.member(), batch.droppedAfterClose(), Math::max); // a running total per member
        batches++;
        records += batch.records().size();
        long[] f = flushOf.computeIfAbsent(batch.member(), m -> new long[2]); // {flush number, records in it}
        if (f[0] != batch.flush()) {
            f[0] = batch.flush();
            f[1] = 0;
        }
        f[1] += batch.records().size();
        largestFlush = Math.max(largestFlush, f[1]);
        add(batch.member(), batch.records(), batch.watermark());
    }

    /**
     * Queues records of source {@code source} (the driver's, made on the gateway) and moves
     * its watermark to {@code watermark} (everything before it is in).
     */
    public void add(String source, ObservationColumns records, double watermark) {
        Source src = source(source);
        src.queue.add(records);
        src.watermark = Math.max(src.watermark, watermark);
    }

    /** Queues records made on the gateway itself (the driver's, or a test's), with no watermark to wait for. */
    public void add(List<Observation> records) {
        Source src = source(LOCAL);
        src.waitedFor = false;
        src.queue.add(ObservationColumns.of(records));
    }

    /** Queues a removed node's queue and busy servers set to 0 at {@code t}. */
    public void addQueueReset(double t, int node, int servers) {
        add(java.util.List.of(new Observation.QueueLength(t, node, 0), new Observation.BusyServers(t, node, 0, servers)));
    }

    /**
     * Declares a source the merger waits for before it has sent anything (each member that
     * takes part, and the driver), so that nothing is fed ahead of its first records.
     */
    public void expect(String source) {
        source(source);
    }

    /** Stops waiting for {@code source} (its member was removed); its queued records are still fed. */
    public void forget(String source) {
        Source src = sources.get(source);
        if (src != null) {
            src.waitedFor = false;
        }
    }

    private Source source(String name) {
        Source src = sources.get(name);
        if (src == null) {
            src = new Source();
            sources.put(name, src);
            heads = sources.values().toArray(new Source[0]);
        }
        return src;
    }

    /** The least watermark of the sources waited for (+∞ when none is). */
    public double watermark() {
        double w = Double.POSITIVE_INFINITY;
        for (Source src : heads) {
            if (src.waitedFor) {
                w = Math.min(w, src.watermark);
            }
        }
        return w;
    }

    /**
     * Feeds every record up to the least watermark, but at least up to {@code floor} (the
     * experiment clock less the most lag allowed), in time order.
     *
     * @param floor feed everything up to here even if a source has not caught up
     */
    public void releaseUpTo(double floor) {
        release(Math.max(watermark(), floor));
    }

    /** Feeds every queued record with time ≤ {@code until}, in order. */
    public void release(double until) {
        while (true) {
            Source next = null;
            double t = until;
            double best = Double.POSITIVE_INFINITY;
            for (Source src : heads) {
                if (!src.queue.isEmpty()) {
                    double h = src.queue.headTime();
                    if (h <= t && h < best) {
                        next = src;
                        best = h;
                    }
                }
            }
            if (next == null) {
                break;
            }
            feed(next.queue);
        }
        if (until > last && until != Double.POSITIVE_INFINITY) {
            last = until;
        }
    }

    /** Feeds everything queued. */
    public void releaseAll() {
        release(Double.POSITIVE_INFINITY);
    }

    /** Feeds the earliest record of {@code queue}. */
    private void feed(ObservationQueue queue) {
        double t = queue.headTime();
        double arrival = queue.headArrivalTime();
        // Like response times, only requests that arrive after the warm-up: the start of an experiment, when its
        // actors and their remoting are new, is excluded as from every other metric.
        if (queue.headIsRouted() && arrival >= recorder.warmupSeconds()) {
            decisionNanos.recordValue(Math.max(0L, Math.round((t - queue.headDecisionStart()) / timeScale * 1e9)));
            addedNanos.recordValue(Math.max(0L, Math.round((t - arrival) / timeScale * 1e9)));
        }
        if (queue.headResolvesRequest()) {
            t = Math.max(t, arrival); // another host's clock may run slightly behind the driver's
        }
        if (t < last) {
            t = last;
            clamped++;
        } else {
            last = t;
        }
        try {
            queue.pollInto(chain, t);
        } catch (IllegalArgumentException e) {
            dropped++; // e.g. a node index outside the scenario: counted, and the run's books will not balance
        }
    }

    /**
     * Feeds everything queued, lets the queues go and closes the recorder at {@code end}
     * (scenario seconds, moved past the last observation and warm-up if needed).
     */
    public RunMetrics finish(double end, double warmup) {
        releaseAll();
        // The queues' columns grew to the run's busiest 100-200 ms (megabytes at high rates) and a finished
        // experiment's runner stays to answer for it: keep none of them.
        sources.clear();
        heads = new Source[0];
        double e = Math.max(Math.max(end, recorder.lastObservationSeconds()), warmup + 1e-9);
        return recorder.finish(e);
    }

    /** Time of the latest fed record, seconds. */
    public double last() {
        return last;
    }

    /** The request counts fed so far. */
    public RequestLedger ledger() {
        return ledger;
    }

    /** Routing decisions, fed so far. */
    public long decisions() {
        return decisions;
    }

    /** Messages sent, fed so far. */
    public long messages() {
        return messages;
    }

    /** Records fed later than their time (at the watermark's time instead). */
    public long clamped() {
        return clamped;
    }

    /** Records the recorder refused, plus those the members refused after their actors stopped. */
    public long dropped() {
        long sum = dropped;
        for (long d : droppedByMember.values()) {
            sum += d;
        }
        return sum;
    }

    /** Records the recorder refused (e.g. a node index outside the scenario). */
    public long refused() {
        return dropped;
    }

    /** Per member, the records it refused because they came after its actors stopped. */
    public java.util.Map<String, Long> droppedByMember() {
        return java.util.Collections.unmodifiableMap(droppedByMember);
    }

    /** Messages the members' shells could not deliver (no actor bound to the address), by counter name. */
    public java.util.Map<String, Long> undelivered() {
        return java.util.Collections.unmodifiableMap(undelivered);
    }

    /** Undelivered messages of {@code kind} (e.g. "arrival"), fed so far. */
    public long undelivered(String kind) {
        return undelivered.getOrDefault(org.loadlab.shell.actor.LogicActor.UNDELIVERED + "_" + kind, 0L);
    }

    /** Of the lost requests fed, those a node counted (not a balancer, at its node's removal). */
    public long lostByNodes() {
        return ledger.lost() - lostOnRemoval;
    }

    /** Observation batches received from members. */
    public long batches() {
        return batches;
    }

    /** Records received from members. */
    public long records() {
        return records;
    }

    /** Most records one member sent in one flush (what one unbounded batch would have carried). */
    public long largestFlush() {
        return largestFlush;
    }

    /** The recorder (for a snapshot of the response-time histogram so far). */
    public RunRecorder recorder() {
        return recorder;
    }

    /** Decision latency per routed request arriving after the warm-up (arrival at the balancer → routing), ns of real time. */
    public Histogram decisionNanos() {
        return decisionNanos;
    }

    /** Added latency per routed request arriving after the warm-up (driver timestamp → routing), ns of real time. */
    public Histogram addedNanos() {
        return addedNanos;
    }
}

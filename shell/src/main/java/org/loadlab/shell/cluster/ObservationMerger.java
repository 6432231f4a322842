package org.loadlab.shell.cluster;

import java.util.Collection;
import java.util.PriorityQueue;
import org.HdrHistogram.Histogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.experiment.run.RecorderSink;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.observe.ForwardingSink;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.RequestLedger;

/**
 * Merges the observation records of all members of one experiment into one sink chain —
 * the {@link RequestLedger} that counts requests, then the run's recorder — in time order.
 * Members flush every {@code flush-interval}, so a record may arrive up to about that late:
 * the merger holds records back until the experiment clock is {@code lag} past them (a
 * watermark), then feeds them in (time, arrival) order. One that still comes later than
 * the watermark is fed at the watermark's time (clamped, as the one-JVM live shell clamps),
 * and counted in {@link #clamped()}. Routing records also give the decision latency (the
 * balancer's arrival → routing, real time) and the added latency (driver → routing).
 *
 * <p>Not thread-safe: the experiment's runner actor owns it.
 */
public final class ObservationMerger {
    private record Entry(Observation o, long seq) {
    }

    private final PriorityQueue<Entry> pending = new PriorityQueue<>((p, q) -> p.o.time() != q.o.time()
            ? Double.compare(p.o.time(), q.o.time()) : Long.compare(p.seq, q.seq));
    private final RunRecorder recorder;
    private final RequestLedger ledger;
    private final MetricsSink chain;
    private final double timeScale;
    private final Histogram decisionNanos = new Histogram(3);
    private final Histogram addedNanos = new Histogram(3);
    private long seq;
    private double last;
    private long clamped;
    private long dropped;
    private long droppedByMembers;
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
            public void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
                decisionNanos.recordValue(Math.max(0L, Math.round((now - decisionStart) / timeScale * 1e9)));
                addedNanos.recordValue(Math.max(0L, Math.round((now - arrivalTime) / timeScale * 1e9)));
                super.routed(now, balancer, node, decisionStart, arrivalTime); // the recorder's herding metric
            }

            @Override
            public void messageSent(double now, String kind, int bytes) {
                messages++;
                super.messageSent(now, kind, bytes);
            }
        };
    }

    /** Queues the records of {@code batch}. */
    public void add(Protocol.ObservationBatch batch) {
        droppedByMembers += batch.droppedAfterClose();
        add(batch.records());
    }

    /** Queues records made on the gateway itself (the driver's, or a removed node's queue reset). */
    public void add(Collection<Observation> records) {
        for (Observation o : records) {
            pending.add(new Entry(o, seq++));
        }
    }

    /** Queues a removed node's queue and busy servers set to 0 at {@code t}. */
    public void addQueueReset(double t, int node, int servers) {
        pending.add(new Entry(new Observation.QueueLength(t, node, 0), seq++));
        pending.add(new Entry(new Observation.BusyServers(t, node, 0, servers), seq++));
    }

    /** Feeds every queued record with time ≤ {@code watermark}, in order. */
    public void release(double watermark) {
        while (!pending.isEmpty() && pending.peek().o.time() <= watermark) {
            feed(pending.poll().o);
        }
        if (watermark > last) {
            last = watermark;
        }
    }

    /** Feeds everything queued. */
    public void releaseAll() {
        while (!pending.isEmpty()) {
            feed(pending.poll().o);
        }
    }

    private void feed(Observation o) {
        double t = o.time();
        if (o instanceof Observation.Completed c) {
            t = Math.max(t, c.arrivalTime()); // another host's clock may run slightly behind the driver's
        } else if (o instanceof Observation.Rejected r) {
            t = Math.max(t, r.arrivalTime());
        }
        if (t < last) {
            t = last;
            clamped++;
        } else {
            last = t;
        }
        try {
            o.applyTo(chain, t);
        } catch (IllegalArgumentException e) {
            dropped++; // e.g. a node index outside the scenario: counted, and the run's books will not balance
        }
    }

    /** Closes the recorder at {@code end} (scenario seconds, moved past the last observation and warm-up if needed). */
    public RunMetrics finish(double end, double warmup) {
        releaseAll();
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
        return dropped + droppedByMembers;
    }

    /** The recorder (for a snapshot of the response-time histogram so far). */
    public RunRecorder recorder() {
        return recorder;
    }

    /** Decision latency per routed request (arrival at the balancer → routing), ns of real time. */
    public Histogram decisionNanos() {
        return decisionNanos;
    }

    /** Added latency per routed request (driver timestamp → routing), ns of real time. */
    public Histogram addedNanos() {
        return addedNanos;
    }
}

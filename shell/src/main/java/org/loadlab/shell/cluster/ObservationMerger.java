package org.loadlab.shell.cluster;

import java.util.PriorityQueue;
import org.HdrHistogram.Histogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.experiment.run.RecorderSink;

/**
 * Merges the observation batches of all members of one experiment into one run recorder,
 * in time order. Members flush every {@code flush-interval}, so an observation may arrive up
 * to about that late: the merger holds observations back until the experiment clock is
 * {@code lag} past them (a watermark), then feeds them in (time, arrival) order. One that
 * still comes later than the watermark is fed at the watermark's time (clamped, as the
 * one-JVM live shell clamps), and counted in {@link #clamped()}.
 *
 * <p>Not thread-safe: the experiment's runner actor owns it.
 */
public final class ObservationMerger {
    private record Obs(double t, long seq, byte kind, int a, int b, double x, double y, String name) {
    }

    private final PriorityQueue<Obs> pending = new PriorityQueue<>((p, q) -> p.t != q.t ? Double.compare(p.t, q.t)
            : Long.compare(p.seq, q.seq));
    private final RunRecorder recorder;
    private final RecorderSink sink;
    private final Histogram decisionNanos = new Histogram(3);
    private final Histogram addedNanos = new Histogram(3);
    private long seq;
    private double last;
    private long clamped;
    private long dropped;
    private long arrived;
    private long completed;
    private long rejected;
    private long lost;
    private long decisions;
    private long messages;

    /** @param recorder the run's recorder (n nodes, warm-up, series interval of the scenario) */
    public ObservationMerger(RunRecorder recorder) {
        this.recorder = recorder;
        this.sink = new RecorderSink(recorder);
    }

    /** Queues the rows of {@code batch}. */
    public void add(Protocol.ObservationBatch batch) {
        for (int i = 0; i < batch.size(); i++) {
            byte k = batch.kinds()[i];
            String name = k == ObservationBuffer.COUNT || k == ObservationBuffer.MESSAGE ? batch.names().get(batch.a()[i]) : null;
            pending.add(new Obs(batch.times()[i], seq++, k, batch.a()[i], batch.b()[i], batch.x()[i], batch.y()[i], name));
        }
    }

    /** Queues one observation made on the gateway itself (e.g. a removed node's queue set to 0). */
    public void addQueueReset(double t, int node, int servers) {
        pending.add(new Obs(t, seq++, ObservationBuffer.QUEUE, node, 0, 0, 0, null));
        pending.add(new Obs(t, seq++, ObservationBuffer.BUSY, node, 0, servers, 0, null));
    }

    /** Feeds every queued observation with time ≤ {@code watermark}, in order. */
    public void release(double watermark) {
        while (!pending.isEmpty() && pending.peek().t <= watermark) {
            feed(pending.poll());
        }
        if (watermark > last) {
            last = watermark;
        }
    }

    /** Feeds everything queued. */
    public void releaseAll() {
        while (!pending.isEmpty()) {
            feed(pending.poll());
        }
    }

    private void feed(Obs o) {
        double t = o.t;
        if (o.kind == ObservationBuffer.COMPLETED || o.kind == ObservationBuffer.REJECTED) {
            t = Math.max(t, o.x); // another host's clock may run slightly behind the driver's
        }
        if (t < last) {
            t = last;
            clamped++;
        } else {
            last = t;
        }
        try {
            switch (o.kind) {
                case ObservationBuffer.ARRIVED -> {
                    arrived++;
                    sink.arrived(t, o.a);
                }
                case ObservationBuffer.DECISION -> {
                    decisions++;
                    sink.decision(t, o.a, o.b);
                }
                case ObservationBuffer.REJECTED -> {
                    rejected++;
                    sink.rejected(t, o.x);
                }
                case ObservationBuffer.COMPLETED -> {
                    completed++;
                    sink.completed(t, o.x, o.a);
                }
                case ObservationBuffer.SERVICE_STARTED -> sink.serviceStarted(t, o.a, Math.max(0.0, o.x));
                case ObservationBuffer.LOST -> {
                    lost += o.b;
                    sink.lost(t, o.a, o.b);
                }
                case ObservationBuffer.QUEUE -> sink.queueLength(t, o.a, o.b);
                case ObservationBuffer.BUSY -> sink.busyServers(t, o.a, o.b, (int) o.x);
                case ObservationBuffer.STATE_UPDATE -> sink.stateUpdate(t, o.a, o.b);
                case ObservationBuffer.COUNT -> sink.count(t, o.name, (long) o.x);
                case ObservationBuffer.MESSAGE -> {
                    messages++;
                    recorder.messageSent(t, o.name, o.b);
                }
                case ObservationBuffer.ROUTING -> {
                    decisionNanos.recordValue(Math.max(0L, Math.round(o.x * 1e9)));
                    addedNanos.recordValue(Math.max(0L, Math.round(o.y * 1e9)));
                }
                default -> dropped++;
            }
        } catch (IllegalArgumentException e) {
            dropped++; // e.g. a node index outside the scenario: never let one row stop the run
        }
    }

    /** Closes the recorder at {@code end} (scenario seconds, moved past the last observation and warm-up if needed). */
    public RunMetrics finish(double end, double warmup) {
        releaseAll();
        double e = Math.max(Math.max(end, recorder.lastObservationSeconds()), warmup + 1e-9);
        return recorder.finish(e);
    }

    /** Time of the latest fed observation, seconds. */
    public double last() {
        return last;
    }

    /** Requests whose fate is known (completed, rejected or lost), fed so far. */
    public long resolved() {
        return completed + rejected + lost;
    }

    /** Requests that arrived at a balancer, fed so far. */
    public long arrived() {
        return arrived;
    }

    /** Requests completed, fed so far. */
    public long completed() {
        return completed;
    }

    /** Requests rejected, fed so far. */
    public long rejected() {
        return rejected;
    }

    /** Requests lost at failed nodes, fed so far. */
    public long lost() {
        return lost;
    }

    /** Routing decisions, fed so far. */
    public long decisions() {
        return decisions;
    }

    /** Messages sent, fed so far. */
    public long messages() {
        return messages;
    }

    /** Observations fed later than their time (at the watermark's time instead). */
    public long clamped() {
        return clamped;
    }

    /** Observations the recorder refused. */
    public long dropped() {
        return dropped;
    }

    /** The recorder (for a snapshot of the response-time histogram so far). */
    public RunRecorder recorder() {
        return recorder;
    }

    /** Decision latency per routed or rejected request (arrival at the balancer → decision), ns. */
    public Histogram decisionNanos() {
        return decisionNanos;
    }

    /** Added latency per request (driver timestamp → decision), ns. */
    public Histogram addedNanos() {
        return addedNanos;
    }
}

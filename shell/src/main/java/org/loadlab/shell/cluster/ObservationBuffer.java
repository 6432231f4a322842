package org.loadlab.shell.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;

/**
 * Collects the observations of the actors of one experiment on one member (several threads)
 * and hands them out as {@link Protocol.ObservationBatch}es, which the gateway's
 * {@link ObservationMerger} feeds, in time order, into the run's recorder: the same
 * {@code RunMetrics} as a simulation. Every call is also passed to {@code tee} (Kamon).
 *
 * <p>Columns per kind: ARRIVED a=balancer; DECISION a=balancer b=queries; REJECTED
 * x=arrival time; COMPLETED a=node x=arrival time; SERVICE_STARTED a=node x=wait;
 * LOST a=node b=count; QUEUE a=node b=q; BUSY a=node b=busy x=servers; STATE_UPDATE a=node
 * b=receivers; COUNT a=name x=delta; MESSAGE a=name b=bytes; ROUTING x=decision latency
 * y=added latency (real seconds, not part of RunMetrics: reported beside it).
 */
public final class ObservationBuffer implements MetricsSink {
    static final byte ARRIVED = 0;
    static final byte DECISION = 1;
    static final byte REJECTED = 2;
    static final byte COMPLETED = 3;
    static final byte SERVICE_STARTED = 4;
    static final byte LOST = 5;
    static final byte QUEUE = 6;
    static final byte BUSY = 7;
    static final byte STATE_UPDATE = 8;
    static final byte COUNT = 9;
    static final byte MESSAGE = 10;
    static final byte ROUTING = 11;

    private static final ClassValue<String> KIND = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return type.getSimpleName();
        }
    };

    private final String experiment;
    private final String member;
    private final ExperimentClock clock;
    private final MetricsSink tee;
    private byte[] kinds = new byte[256];
    private double[] times = new double[256];
    private int[] as = new int[256];
    private int[] bs = new int[256];
    private double[] xs = new double[256];
    private double[] ys = new double[256];
    private int size;
    private final Map<String, Integer> nameIndex = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private boolean closed;

    /**
     * @param experiment experiment id
     * @param member this member's address
     * @param clock the experiment's clock (stamps messages sent, whose shell time is not the scenario's)
     * @param tee also receives every observation (e.g. Kamon); {@link MetricsSink#NONE} for none
     */
    public ObservationBuffer(String experiment, String member, ExperimentClock clock, MetricsSink tee) {
        this.experiment = experiment;
        this.member = member;
        this.clock = clock;
        this.tee = tee;
    }

    private void add(byte kind, double t, int a, int b, double x, double y) {
        if (closed) {
            return;
        }
        if (size == kinds.length) {
            int n = size * 2;
            kinds = Arrays.copyOf(kinds, n);
            times = Arrays.copyOf(times, n);
            as = Arrays.copyOf(as, n);
            bs = Arrays.copyOf(bs, n);
            xs = Arrays.copyOf(xs, n);
            ys = Arrays.copyOf(ys, n);
        }
        kinds[size] = kind;
        times[size] = t;
        as[size] = a;
        bs[size] = b;
        xs[size] = x;
        ys[size] = y;
        size++;
    }

    private int name(String s) {
        Integer i = nameIndex.get(s);
        if (i == null) {
            i = names.size();
            names.add(s);
            nameIndex.put(s, i);
        }
        return i;
    }

    @Override
    public synchronized void arrived(double now, int balancer) {
        add(ARRIVED, now, balancer, 0, 0, 0);
        tee.arrived(now, balancer);
    }

    @Override
    public synchronized void decision(double now, int balancer, int queries) {
        add(DECISION, now, balancer, queries, 0, 0);
        tee.decision(now, balancer, queries);
    }

    @Override
    public synchronized void rejected(double now, double arrivalTime) {
        add(REJECTED, now, 0, 0, arrivalTime, 0);
        tee.rejected(now, arrivalTime);
    }

    @Override
    public synchronized void completed(double now, double arrivalTime, int node) {
        add(COMPLETED, now, node, 0, arrivalTime, 0);
        tee.completed(now, arrivalTime, node);
    }

    @Override
    public synchronized void serviceStarted(double now, int node, double waitSeconds) {
        add(SERVICE_STARTED, now, node, 0, waitSeconds, 0);
        tee.serviceStarted(now, node, waitSeconds);
    }

    @Override
    public synchronized void lost(double now, int node, int count) {
        add(LOST, now, node, count, 0, 0);
        tee.lost(now, node, count);
    }

    @Override
    public synchronized void queueLength(double now, int node, int queueLength) {
        add(QUEUE, now, node, queueLength, 0, 0);
        tee.queueLength(now, node, queueLength);
    }

    @Override
    public synchronized void busyServers(double now, int node, int busy, int servers) {
        add(BUSY, now, node, busy, servers, 0);
        tee.busyServers(now, node, busy, servers);
    }

    @Override
    public synchronized void stateUpdate(double now, int node, int receivers) {
        add(STATE_UPDATE, now, node, receivers, 0, 0);
        tee.stateUpdate(now, node, receivers);
    }

    @Override
    public synchronized void count(double now, String counter, long delta) {
        add(COUNT, now, name(counter), 0, delta, 0);
        tee.count(now, counter, delta);
    }

    @Override
    public synchronized void messageSent(double now, Message message) {
        // The LogicActor stamps sends with its own clock; the scenario clock is the experiment's.
        double t = clock.now();
        add(MESSAGE, t, name(KIND.get(message.getClass())), message.estimatedBytes(), 0, 0);
        tee.messageSent(t, message);
    }

    /**
     * A routing decision's latencies (real seconds): from the request's arrival at the
     * balancer to its decision (probes included), and from the driver's timestamp to the
     * decision (adds the gateway → balancer hop and mailbox waits).
     */
    public synchronized void routing(double now, double decisionSeconds, double addedSeconds) {
        add(ROUTING, now, 0, 0, decisionSeconds, addedSeconds);
        if (tee instanceof org.loadlab.shell.metrics.KamonSink k) {
            k.routing(decisionSeconds);
        }
    }

    /** Takes everything collected so far as one batch, or null if nothing was collected. */
    public synchronized Protocol.ObservationBatch drain() {
        if (size == 0) {
            return null;
        }
        Protocol.ObservationBatch batch = new Protocol.ObservationBatch(experiment, member, Arrays.copyOf(kinds, size),
                Arrays.copyOf(times, size), Arrays.copyOf(as, size), Arrays.copyOf(bs, size), Arrays.copyOf(xs, size),
                Arrays.copyOf(ys, size), List.copyOf(names));
        size = 0;
        names.clear();
        nameIndex.clear();
        return batch;
    }

    /** Drops every later observation (the experiment's actors are stopping). */
    public synchronized void close() {
        closed = true;
    }
}

package org.loadlab.kernel.sim;

import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The future-event list under the traffic of the bench workload (p2c with probes at
 * ρ = 0.9 over n nodes), without any logic: per request an arrival timer (exponential
 * gap), two probes, two replies, the request and the response (constant latency), a probe
 * timeout (constant 50 ms, cancelled when the second reply comes) and a service completion
 * (exponential, mean 1 s, so about 0.9·n completions are pending, as in the real run).
 *
 * <p>Three lists: {@code lanes} (the engine's {@link EventQueue}: FIFO lanes for constant
 * delays plus a 4-ary heap; a cancelled timer that is still its lane's tail is dropped,
 * any other is skipped when popped, by its id), {@code heap} (the same 4-ary heap alone, the engine
 * before issue 16: every cancelled timer is pushed and popped) and {@code priorityQueue}
 * ({@link java.util.PriorityQueue} of event records, as the bare loop of
 * {@code loadlab bench --baseline} uses it, cancelled timers skipped when popped). Score:
 * ns per event handled (pop plus the pushes it causes). Run with {@code -prof gc} to see
 * the allocation per event (0 B for {@code lanes} and {@code heap}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class EventListBenchmark {
    private static final int EVENTS = 1000;
    private static final double LATENCY = 0.0005;
    private static final double TIMEOUT = 0.05;
    private static final int ARRIVAL = 0;
    private static final int PROBE = 1;
    private static final int REPLY = 2;
    private static final int REQUEST = 3;
    private static final int DONE = 4;
    private static final int RESPONSE = 5;
    private static final int TIMEOUT_TIMER = 6;
    /** Timer handles in rotation: more than the requests of one timeout period at n = 10^5. */
    private static final int HANDLES = 1 << 16;

    /** Cluster size n: about 0.9·n service completions are pending. */
    @Param({"100", "10000", "100000"})
    public int n;

    /** Which event list. */
    @Param({"lanes", "heap", "priorityQueue"})
    public String list;

    private Sim sim;

    /** Builds the list and runs it into steady state. */
    @Setup(Level.Trial)
    public void setUp() {
        sim = list.equals("priorityQueue") ? new RecordSim(n) : new EngineSim(n, list.equals("lanes"));
        sim.start();
        for (int i = 0; i < 40 * n + 100_000; i++) {
            sim.step();
        }
    }

    /** Handles {@value #EVENTS} events. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public double events() {
        for (int i = 0; i < EVENTS; i++) {
            sim.step();
        }
        return sim.now();
    }

    /** The traffic generator, independent of the list. */
    private abstract static class Sim {
        final SplittableRandom rng = new SplittableRandom(7);
        final double lambda;
        double now;
        long requests;
        // Requests whose probes are out, oldest first (replies come back in that order, all
        // latencies being equal): their timeout handles, and the replies of the oldest so far.
        final long[] waiting = new long[HANDLES];
        int oldest;
        int newest;
        int oldestReplies;

        Sim(int n) {
            this.lambda = 0.9 * n;
        }

        double exp(double rate) {
            return -Math.log(1.0 - rng.nextDouble()) / rate;
        }

        double now() {
            return now;
        }

        void start() {
            push(exp(lambda), ARRIVAL);
        }

        /** Pops one event and pushes what it causes. */
        void step() {
            int kind = pop();
            switch (kind) {
                case ARRIVAL -> {
                    requests++;
                    push(exp(lambda), ARRIVAL);
                    push(LATENCY, PROBE);
                    push(LATENCY, PROBE);
                    waiting[newest++ & (HANDLES - 1)] = startTimeout();
                }
                case PROBE -> push(LATENCY, REPLY);
                case REPLY -> {
                    if (++oldestReplies == 2) {
                        cancelTimeout(waiting[oldest++ & (HANDLES - 1)]);
                        oldestReplies = 0;
                    }
                    if (rng.nextBoolean()) {
                        push(LATENCY, REQUEST); // one request per two replies, on average
                    }
                }
                case REQUEST -> push(exp(1.0), DONE);
                case DONE -> push(LATENCY, RESPONSE);
                case RESPONSE, TIMEOUT_TIMER -> { }
                default -> throw new IllegalStateException("kind " + kind);
            }
        }

        abstract void push(double delay, int kind);

        /** Pops the next live event, skipping cancelled timers; returns its kind. */
        abstract int pop();

        abstract long startTimeout();

        abstract void cancelTimeout(long handle);
    }

    /**
     * {@link EventQueue}, with or without lanes; the kind rides in the entity field. Every
     * probe timeout of this workload is cancelled (the replies come back in 1 ms), so a
     * popped timer entry is skipped, as the engine skips one whose id is no longer live.
     */
    private static final class EngineSim extends Sim {
        private static final Object EVENT = new Object();
        private final EventQueue queue;

        EngineSim(int n, boolean lanes) {
            super(n);
            queue = new EventQueue(lanes);
        }

        @Override
        void push(double delay, int kind) {
            queue.pushAfter(now, delay, kind, EVENT);
        }

        @Override
        int pop() {
            while (true) {
                queue.pop();
                now = queue.time();
                if (!queue.poppedTimer()) {
                    return queue.target();
                }
            }
        }

        @Override
        long startTimeout() {
            queue.pushTimerAfter(now, TIMEOUT, TIMEOUT_TIMER, EVENT);
            return queue.lastId();
        }

        @Override
        void cancelTimeout(long handle) {
            queue.dropIfLast(handle);
        }
    }

    /** A {@link PriorityQueue} of records, as a bare loop writes it. */
    private static final class RecordSim extends Sim {
        private record Event(double time, long seq, int kind, long timer) implements Comparable<Event> {
            @Override
            public int compareTo(Event o) {
                int c = Double.compare(time, o.time);
                return c != 0 ? c : Long.compare(seq, o.seq);
            }
        }

        private final PriorityQueue<Event> queue = new PriorityQueue<>();
        private final boolean[] cancelled = new boolean[HANDLES];
        private long seq;
        private int nextTimer;

        RecordSim(int n) {
            super(n);
        }

        @Override
        void push(double delay, int kind) {
            queue.add(new Event(now + delay, seq++, kind, -1));
        }

        @Override
        int pop() {
            while (true) {
                Event e = queue.poll();
                now = e.time();
                if (e.timer() >= 0 && cancelled[(int) e.timer()]) {
                    cancelled[(int) e.timer()] = false;
                    continue;
                }
                return e.kind();
            }
        }

        @Override
        long startTimeout() {
            int h = nextTimer;
            nextTimer = (nextTimer + 1) & (cancelled.length - 1);
            queue.add(new Event(now + TIMEOUT, seq++, TIMEOUT_TIMER, h));
            return h;
        }

        @Override
        void cancelTimeout(long handle) {
            cancelled[(int) handle] = true;
        }
    }
}

package org.loadlab.node.sharing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;

/**
 * A hand-driven cluster of {@link PeerNode}s for protocol tests: a tiny discrete-event loop
 * with a constant network latency, per-pair FIFO delivery, Pekko-style timers (same key
 * replaces, cancel removes) and a recording metrics sink. Tasks are put at nodes by hand
 * ({@link #arrive}); {@link #run} delivers everything due up to a time. Every message between
 * nodes is recorded for assertions.
 */
final class PeerCluster {
    /** One delivered or pending message. */
    record Sent(double at, int from, int to, Message message) {
    }

    private record Event(double time, long seq, int target, Message message, Timer timer) {
    }

    private static final class Timer {
        final Object key;
        boolean cancelled;

        Timer(Object key) {
            this.key = key;
        }
    }

    final PeerNode[] nodes;
    final Metrics metrics = new Metrics();
    final List<Sent> sent = new ArrayList<>();
    private final double latency;
    private final NodeEnv[] envs;
    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Double.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private double now;
    private long seq;
    private long nextTaskId;

    /**
     * @param n nodes
     * @param protocol every node's protocol
     * @param settings the protocol parameters
     * @param latency one-way network latency, seconds
     * @param seed random streams
     */
    PeerCluster(int n, SharingProtocol protocol, SharingSettings settings, double latency, long seed) {
        this.latency = latency;
        nodes = new PeerNode[n];
        envs = new NodeEnv[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new PeerNode(NodeId.of(i), n, 1.0, 1, protocol, settings);
            envs[i] = new NodeEnv(i, new SplittableRandom(seed * 31 + i));
        }
        for (int i = 0; i < n; i++) {
            nodes[i].onStart(envs[i]);
        }
    }

    /** Settings with threshold T, zero latency and delay, and everything else at its default. */
    static SharingSettings ideal(int threshold) {
        SharingSettings d = SharingSettings.defaults();
        return new SharingSettings(threshold, d.pollLimit(), 0, d.pollTimeout(), 0, 0, 0, 1, d.retryPeriod(), d.aboveAverage());
    }

    double now() {
        return now;
    }

    /** A new task of demand {@code demand} arrives at node {@code i} now (handled at once). */
    void arrive(int i, double demand) {
        nodes[i].on(new SharingMessage.Arrival(nextTaskId++, demand, now), envs[i]);
    }

    /** Delivers {@code m} to node {@code i} now (e.g. NodeMessage.Fail). */
    void deliver(int i, Message m) {
        nodes[i].on(m, envs[i]);
    }

    /** Handles every event due at or before {@code until}, then sets the clock there. */
    void run(double until) {
        while (!queue.isEmpty() && queue.peek().time <= until) {
            step();
        }
        now = Math.max(now, until);
    }

    /** Handles every event at the current instant (zero-latency message exchanges). */
    void settle() {
        run(now);
    }

    /**
     * Runs until every task has completed or been lost (receivers may go on polling for ever,
     * so an empty event queue is not the criterion).
     *
     * @throws AssertionError if that takes more than ten million events
     */
    void drain() {
        long events = 0;
        while (!queue.isEmpty() && metrics.arrived > metrics.completed + metrics.lost) {
            step();
            if (++events > 10_000_000) {
                throw new AssertionError("the cluster does not drain: " + metrics.arrived + " arrived, "
                        + metrics.completed + " completed, " + metrics.lost + " lost");
            }
        }
    }

    private void step() {
        Event e = queue.poll();
        if (e.timer != null) {
            if (e.timer.cancelled) {
                return;
            }
            envs[e.target].timers.remove(e.timer.key, e.timer);
        }
        now = e.time;
        nodes[e.target].on(e.message, envs[e.target]);
    }

    /** Messages of {@code type} sent so far, in order. */
    <T extends Message> List<T> sentOfType(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Sent s : sent) {
            if (type.isInstance(s.message())) {
                out.add(type.cast(s.message()));
            }
        }
        return out;
    }

    /** Messages of {@code type} sent so far with their endpoints. */
    List<Sent> sends(Class<? extends Message> type) {
        return sent.stream().filter(s -> type.isInstance(s.message())).toList();
    }

    long counter(String name) {
        return metrics.counters.getOrDefault(name, 0L);
    }

    /** Whether node {@code i} has an active timer whose message is of {@code type}. */
    boolean hasTimer(int i, Class<? extends Message> type) {
        for (Event e : queue) {
            if (e.target == i && e.timer != null && !e.timer.cancelled && type.isInstance(e.message)) {
                return true;
            }
        }
        return false;
    }

    /** Checks task conservation now. */
    void checkConservation() {
        TaskConservation.checkPeers("test", metrics.arrived, metrics.completed, 0, metrics.lost, nodes);
    }

    private final class NodeEnv implements Env {
        final int index;
        final RandomGenerator rng;
        final Map<Object, Timer> timers = new HashMap<>();

        NodeEnv(int index, RandomGenerator rng) {
            this.index = index;
            this.rng = rng;
        }

        @Override
        public double now() {
            return now;
        }

        @Override
        public Address self() {
            return NodeId.of(index);
        }

        @Override
        public RandomGenerator random() {
            return rng;
        }

        @Override
        public void send(Address to, Message message) {
            int target = to.index();
            double at = target == index ? now : now + latency;
            sent.add(new Sent(now, index, target, message));
            queue.add(new Event(at, seq++, target, message, null));
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
            Timer old = timers.remove(key);
            if (old != null) {
                old.cancelled = true;
            }
            Timer t = new Timer(key);
            timers.put(key, t);
            queue.add(new Event(now + delaySeconds, seq++, index, message, t));
        }

        @Override
        public void cancelTimer(Object key) {
            Timer old = timers.remove(key);
            if (old != null) {
                old.cancelled = true;
            }
        }

        @Override
        public MetricsSink metrics() {
            return metrics;
        }

    }

    /** Counts what the nodes report. */
    static final class Metrics implements MetricsSink {
        long arrived;
        long completed;
        long lost;
        long decisions;
        long queries;
        final List<double[]> completions = new ArrayList<>();
        final Map<String, Long> counters = new TreeMap<>();

        @Override
        public void arrived(double now, int balancer) {
            arrived++;
        }

        @Override
        public void decision(double now, int balancer, int q) {
            decisions++;
            queries += q;
        }

        @Override
        public void completed(double now, double arrivalTime, int node) {
            completed++;
            completions.add(new double[] {now, arrivalTime, node});
        }

        @Override
        public void lost(double now, int node, int count) {
            lost += count;
        }

        @Override
        public void count(double now, String name, long delta) {
            counters.merge(name, delta, Long::sum);
        }
    }
}

package org.loadlab.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;

/**
 * A hand-driven {@link Env} for unit tests of logic cores: settable clock, seeded
 * SplittableRandom, recorded sends, timers with Pekko semantics (same key replaces,
 * cancel removes) and a recording metrics sink.
 */
public final class FakeEnv implements Env {
    /** One recorded send. */
    public record Sent(Address to, Message message, double at) {
    }

    /** An active timer. */
    public record Timer(Object key, double due, double delay, Message message, long seq) {
    }

    /** One call of startTimer, kept in order (also those later replaced or cancelled). */
    public record TimerStart(Object key, double now, double delay, Message message) {
    }

    private final Address self;
    private final SplittableRandom random;
    private double now;
    private long seq;
    private final List<Sent> sent = new ArrayList<>();
    private final Map<Object, Timer> timers = new LinkedHashMap<>();
    private final List<TimerStart> timerStarts = new ArrayList<>();
    private final List<Object> cancelled = new ArrayList<>();
    private final RecordingMetrics metrics = new RecordingMetrics();

    public FakeEnv(Address self, long seed) {
        this.self = self;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public double now() {
        return now;
    }

    public FakeEnv at(double t) {
        this.now = t;
        return this;
    }

    @Override
    public Address self() {
        return self;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public void send(Address to, Message message) {
        sent.add(new Sent(to, message, now));
    }

    @Override
    public void startTimer(Object key, double delaySeconds, Message message) {
        if (!(delaySeconds >= 0)) {
            throw new AssertionError("negative or NaN timer delay " + delaySeconds + " for " + message);
        }
        timers.remove(key);
        timers.put(key, new Timer(key, now + delaySeconds, delaySeconds, message, seq++));
        timerStarts.add(new TimerStart(key, now, delaySeconds, message));
    }

    @Override
    public void cancelTimer(Object key) {
        timers.remove(key);
        cancelled.add(key);
    }

    @Override
    public RecordingMetrics metrics() {
        return metrics;
    }


    public List<Sent> sent() {
        return sent;
    }

    /** Returns and forgets the recorded sends. */
    public List<Sent> drainSent() {
        List<Sent> out = new ArrayList<>(sent);
        sent.clear();
        return out;
    }

    public <T extends Message> List<T> sentOfType(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Sent s : sent) {
            if (type.isInstance(s.message())) {
                out.add(type.cast(s.message()));
            }
        }
        return out;
    }

    public Map<Object, Timer> timers() {
        return timers;
    }

    public Timer timer(Object key) {
        return timers.get(key);
    }

    public List<TimerStart> timerStarts() {
        return timerStarts;
    }

    public List<Object> cancelled() {
        return cancelled;
    }

    /** The active timers whose message is of {@code type}. */
    public <T extends Message> List<Timer> timersOf(Class<T> type) {
        List<Timer> out = new ArrayList<>();
        for (Timer t : timers.values()) {
            if (type.isInstance(t.message())) {
                out.add(t);
            }
        }
        return out;
    }

    /** The earliest active timer (ties by start order), or null. */
    public Timer nextTimer() {
        Timer best = null;
        for (Timer t : timers.values()) {
            if (best == null || t.due() < best.due() || (t.due() == best.due() && t.seq() < best.seq())) {
                best = t;
            }
        }
        return best;
    }

    /** Removes timer {@code key}, advances the clock to its due time and delivers it. */
    @SuppressWarnings("unchecked")
    public <M extends Message> void fire(Object key, Logic<M> logic) {
        Timer t = timers.remove(key);
        if (t == null) {
            throw new AssertionError("no active timer " + key + "; active: " + timers.keySet());
        }
        now = t.due();
        logic.on((M) t.message(), this);
    }

    /** Fires every timer due at or before {@code until} in time order, then sets the clock to {@code until}. */
    @SuppressWarnings("unchecked")
    public <M extends Message> void runUntil(double until, Logic<M> logic) {
        while (true) {
            Timer t = nextTimer();
            if (t == null || t.due() > until) {
                break;
            }
            timers.remove(t.key());
            now = t.due();
            logic.on((M) t.message(), this);
        }
        now = Math.max(now, until);
    }

    /** Records every observation. */
    public static final class RecordingMetrics implements MetricsSink {
        public record Lost(double now, int node, int count) {
        }

        public record Started(double now, int node, double waitSeconds) {
        }

        public record Decision(double now, int balancer, int queries) {
        }

        public record Rejected(double now, double arrivalTime) {
        }

        public record Completed(double now, double arrivalTime, int node) {
        }

        public record StateUpdate(double now, int node, int receivers) {
        }

        public final List<Lost> lost = new ArrayList<>();
        public final List<Started> started = new ArrayList<>();
        public final List<Decision> decisions = new ArrayList<>();
        public final List<Rejected> rejected = new ArrayList<>();
        public final List<Completed> completed = new ArrayList<>();
        public final List<StateUpdate> stateUpdates = new ArrayList<>();
        public final List<Integer> queueLengths = new ArrayList<>();
        public final List<int[]> busy = new ArrayList<>();
        public final Map<String, Long> counters = new java.util.TreeMap<>();
        public int arrived;

        /** Counter {@code name}, 0 if never counted. */
        public long counter(String name) {
            return counters.getOrDefault(name, 0L);
        }

        @Override
        public void count(double now, String name, long delta) {
            counters.merge(name, delta, Long::sum);
        }

        public int totalLost() {
            return lost.stream().mapToInt(Lost::count).sum();
        }

        @Override
        public void arrived(double now, int balancer) {
            arrived++;
        }

        @Override
        public void decision(double now, int balancer, int queries) {
            decisions.add(new Decision(now, balancer, queries));
        }

        @Override
        public void rejected(double now, double arrivalTime) {
            rejected.add(new Rejected(now, arrivalTime));
        }

        @Override
        public void completed(double now, double arrivalTime, int node) {
            completed.add(new Completed(now, arrivalTime, node));
        }

        @Override
        public void serviceStarted(double now, int node, double waitSeconds) {
            started.add(new Started(now, node, waitSeconds));
        }

        @Override
        public void lost(double now, int node, int count) {
            lost.add(new Lost(now, node, count));
        }

        @Override
        public void queueLength(double now, int node, int queueLength) {
            queueLengths.add(queueLength);
        }

        @Override
        public void busyServers(double now, int node, int busy, int servers) {
            this.busy.add(new int[] {busy, servers});
        }

        @Override
        public void stateUpdate(double now, int node, int receivers) {
            stateUpdates.add(new StateUpdate(now, node, receivers));
        }
    }
}

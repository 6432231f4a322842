package org.loadlab.kernel.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.ClientId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.StreamSeeds;

/**
 * Pekko timer semantics at scale (many keys at once, equal-but-distinct key objects,
 * replacements, cancellations, constant and random delays) against a brute-force
 * reference, and no allocation per event in the engine.
 */
class SimEngineTimerTest {
    record Num(int value) implements Message {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** A timer key compared by value: every use is a new, equal object. */
    record Key(int k) {
    }

    /** Starts and cancels timers at random and logs what fires. */
    static final class Script implements Logic<Message> {
        final List<String> log = new ArrayList<>();
        int next;

        @Override
        public void onStart(Env env) {
            for (int i = 0; i < 8; i++) {
                act(env);
            }
        }

        @Override
        public void on(Message m, Env env) {
            log.add(env.now() + " " + ((Num) m).value());
            if (log.size() < 20_000) {
                int ops = 1 + env.random().nextInt(3);
                for (int i = 0; i < ops; i++) {
                    act(env);
                }
            }
        }

        private void act(Env env) {
            RandomGenerator rng = env.random();
            Key key = new Key(rng.nextInt(64));
            if (rng.nextInt(6) == 0) {
                env.cancelTimer(key);
                return;
            }
            double delay = switch (rng.nextInt(4)) {
                case 0 -> 0.0;
                case 1, 2 -> 0.05;
                default -> rng.nextDouble();
            };
            env.startTimer(key, delay, new Num(next++));
        }
    }

    /** The reference: live timers in a map, the next one found by a full scan. */
    static final class ReferenceEnv implements Env {
        record Live(double time, long seq, Message message) {
        }

        final Map<Object, Live> live = new HashMap<>();
        final RandomGenerator rng;
        double now;
        long seq;

        ReferenceEnv(RandomGenerator rng) {
            this.rng = rng;
        }

        void run(Script script) {
            script.onStart(this);
            while (!live.isEmpty()) {
                Map.Entry<Object, Live> first = null;
                for (Map.Entry<Object, Live> e : live.entrySet()) {
                    Live l = e.getValue();
                    if (first == null || l.time < first.getValue().time
                            || (l.time == first.getValue().time && l.seq < first.getValue().seq)) {
                        first = e;
                    }
                }
                live.remove(first.getKey());
                now = first.getValue().time;
                script.on(first.getValue().message, this);
            }
        }

        @Override
        public double now() {
            return now;
        }

        @Override
        public Address self() {
            return NodeId.of(0);
        }

        @Override
        public RandomGenerator random() {
            return rng;
        }

        @Override
        public void send(Address to, Message message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
            live.put(key, new Live(now + Math.max(0.0, delaySeconds), seq++, message));
        }

        @Override
        public void cancelTimer(Object key) {
            live.remove(key);
        }

        @Override
        public MetricsSink metrics() {
            return MetricsSink.NONE;
        }
    }

    static final class Idle implements Logic<Message> {
        @Override
        public void on(Message m, Env env) {
        }
    }

    @Test
    void timersFireExactlyAsTheReferenceSays() {
        for (long seed = 1; seed <= 5; seed++) {
            Script engineScript = new Script();
            SimEngine e = new SimEngine(seed, 1, 1, 1, new LatencyModel(0, 0), MetricsSink.NONE);
            e.register(NodeId.of(0), engineScript);
            e.register(new BalancerId(0), new Idle());
            e.register(new ClientId(0), new Idle());
            e.run(() -> false, Double.POSITIVE_INFINITY);

            Script referenceScript = new Script();
            new ReferenceEnv(StreamSeeds.stream(seed, StreamSeeds.NODE, 0)).run(referenceScript);

            assertTrue(referenceScript.log.size() > 1000, "the script keeps timers going: " + referenceScript.log.size());
            assertEquals(referenceScript.log, engineScript.log, "seed " + seed);
            assertEquals(engineScript.log.size(), e.events());
        }
    }

    /** Node and balancer ping-pong with preallocated messages, each restarting a timer. */
    static final class PingPong implements Logic<Message> {
        final Address peer;
        final Num ball = new Num(1);
        final Num tick = new Num(2);
        final Object key = "watchdog";
        final Key[] keys = new Key[64];
        long handled;

        PingPong(Address peer) {
            this.peer = peer;
            for (int i = 0; i < keys.length; i++) {
                keys[i] = new Key(i);
            }
        }

        @Override
        public void onStart(Env env) {
            if (peer instanceof BalancerId) {
                env.send(peer, ball);
            }
        }

        @Override
        public void on(Message m, Env env) {
            handled++;
            if (m instanceof Num n && n.value() == 1) {
                env.startTimer(key, 0.05, tick); // replaces the last one: a cancelled timer per message
                env.startTimer(keys[(int) (handled & 63)], 1.0 + env.random().nextDouble(), tick); // many live keys
                env.cancelTimer(keys[(int) ((handled - 3) & 63)]);
                env.send(peer, ball);
            }
        }
    }

    @Test
    void theEngineAllocatesNothingPerEvent() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        long thread = Thread.currentThread().getId();

        SimEngine e = new SimEngine(9, 1, 1, 1, new LatencyModel(0.0005, 0), MetricsSink.NONE);
        PingPong node = new PingPong(new BalancerId(0));
        PingPong balancer = new PingPong(NodeId.of(0));
        e.register(NodeId.of(0), node);
        e.register(new BalancerId(0), balancer);
        e.register(new ClientId(0), new Idle());
        e.run(() -> false, 20.0); // warm up: arrays reach their size, JIT
        long events = e.events();
        long before = threads.getThreadAllocatedBytes(thread);
        e.run(() -> false, 300.0);
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        long handled = e.events() - events;
        assertTrue(handled > 500_000, "events handled: " + handled);
        // Each event sends, starts two timers and cancels one; one allocation per event would be >= 16 B
        // per event. Less than 1 B per event leaves room for one-off growth and JVM noise only.
        assertTrue(allocated < handled, "allocated " + allocated + " bytes for " + handled + " events");
    }
}

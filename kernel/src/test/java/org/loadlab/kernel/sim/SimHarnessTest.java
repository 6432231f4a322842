package org.loadlab.kernel.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.Observation;

/** The test harness's own behaviour: timers in view, stand-ins, scripts, sends, observations, stepping. */
class SimHarnessTest {
    private static final double EPS = 1e-12;
    private static final NodeId N0 = NodeId.of(0);
    private static final NodeId N1 = NodeId.of(1);
    private static final BalancerId B0 = new BalancerId(0);

    /** A network message. */
    record Ping(int n) implements Message {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** The answer to a ping. */
    record Pong(int n) implements Message {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** A timer message. */
    record Tick(int n) implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** What a test core got, and when. */
    record Got(double at, Message message) {
    }

    /** A core that records what it gets and runs a per-test reaction. */
    static final class Core implements Logic<Message> {
        final List<Got> got = new ArrayList<>();
        private final java.util.function.Consumer<Env> start;
        private final java.util.function.BiConsumer<Message, Env> react;

        Core(java.util.function.Consumer<Env> start, java.util.function.BiConsumer<Message, Env> react) {
            this.start = start;
            this.react = react;
        }

        @Override
        public void onStart(Env env) {
            start.accept(env);
        }

        @Override
        public void on(Message message, Env env) {
            got.add(new Got(env.now(), message));
            react.accept(message, env);
        }
    }

    private static Core quiet() {
        return new Core(env -> { }, (m, env) -> { });
    }

    @Test
    void timersAreListedInStartOrderAndForgottenWhenTheyFireOrAreCancelledOrReplaced() {
        Tick a = new Tick(1);
        Tick b = new Tick(2);
        Tick c = new Tick(3);
        Core core = new Core(env -> {
            env.startTimer("a", 1.0, a);
            env.startTimer("b", 2.0, b);
            env.startTimer("c", 3.0, c);
        }, (m, env) -> { });
        SimHarness h = new SimHarness(1, 1, 1, 0).install(N0, core);
        h.start();
        assertEquals(List.of("a", "b", "c"), List.copyOf(h.timers(N0).keySet()));
        SimHarness.Timer tb = h.timers(N0).get("b");
        assertEquals(2.0, tb.due(), EPS);
        assertEquals(2.0, tb.delay(), EPS);
        assertSame(b, tb.message());
        assertEquals(3, h.timersOf(N0, Tick.class).size());
        assertTrue(h.timersOf(N0, Ping.class).isEmpty());
        assertTrue(h.timers(B0).isEmpty(), "a stand-in has no timers in view");

        h.fire(N0, "a");
        assertEquals(1.0, h.now(), EPS);
        assertEquals(List.of(new Got(1.0, a)), core.got);
        assertEquals(List.of("b", "c"), List.copyOf(h.timers(N0).keySet()), "a fired timer is no longer active");

        h.env(N0).cancelTimer("b");
        assertEquals(List.of("c"), List.copyOf(h.timers(N0).keySet()));
        h.env(N0).startTimer("c", 0.5, new Tick(4)); // replaces c: due at now + 0.5
        assertEquals(1, h.timers(N0).size());
        assertEquals(1.5, h.timers(N0).get("c").due(), EPS);

        h.runUntil(10);
        assertEquals(List.of(new Got(1.0, a), new Got(1.5, new Tick(4))), core.got, "cancelled and replaced timers never fire");
        assertTrue(h.timers(N0).isEmpty());
        assertEquals(10.0, h.now(), EPS);
        AssertionError e = assertThrows(AssertionError.class, () -> h.fire(N0, "a"));
        assertTrue(e.getMessage().contains("no active timer a"), e.getMessage());
    }

    @Test
    void aTimerRestartedByItsOwnHandlerStaysInView() {
        Core core = new Core(env -> env.startTimer("period", 1.0, new Tick(9)), (m, env) -> env.startTimer("period", 1.0, m));
        SimHarness h = new SimHarness(1, 1, 0, 0).install(N0, core);
        h.runUntil(1.0);
        assertEquals(1, core.got.size());
        assertEquals(List.of("period"), List.copyOf(h.timers(N0).keySet()), "re-armed by its handler");
        assertEquals(2.0, h.timers(N0).get("period").due(), EPS);
        h.fire(N0, "period");
        assertEquals(2.0, h.now(), EPS);
        assertEquals(3.0, h.timers(N0).get("period").due(), EPS);
    }

    @Test
    void aSharedTimerMessageIsForgottenOneTimerAtATime() {
        Tick shared = new Tick(0);
        List<Integer> activeWhenHandled = new ArrayList<>();
        SimHarness[] box = new SimHarness[1];
        Core core = new Core(env -> {
            env.startTimer("x", 1.0, shared);
            env.startTimer("y", 1.0, shared);
        }, (m, env) -> activeWhenHandled.add(box[0].timers(N0).size()));
        SimHarness h = new SimHarness(1, 1, 0, 0).install(N0, core);
        box[0] = h;
        h.runUntil(1.0);
        assertEquals(List.of(1, 0), activeWhenHandled, "while x is handled, y (same message, not fired yet) is still active");
    }

    @Test
    void standInsRecordWhatTheyReceiveAndScriptsAnswer() {
        // Node 0 is under test; node 1 is a stand-in scripted to answer every Ping with a Pong.
        Core core = new Core(env -> { }, (m, env) -> {
            if (m instanceof Ping p) {
                env.send(N1, p);
                env.send(B0, new Pong(p.n()));
            }
        });
        SimHarness h = new SimHarness(7, 2, 1, 0, new LatencyModel(0.01, 0))
                .install(N0, core)
                .script(N1, (m, env) -> env.send(N0, new Pong(((Ping) m).n() * 10)));
        h.sendAt(1.0, N0, new Ping(4));
        h.runUntil(0.99);
        assertTrue(core.got.isEmpty(), "sendAt delivers at its time, not before");
        h.runUntil(2.0);
        assertEquals(List.of(new Got(1.0, new Ping(4)), new Got(1.02, new Pong(40))), roundTimes(core.got),
                "the script's answer came back after two latencies");
        List<SimHarness.Delivery> d = h.deliveries();
        assertEquals(2, d.size());
        assertEquals(N1, d.get(0).to());
        assertEquals(new Ping(4), d.get(0).message());
        assertEquals(1.01, d.get(0).at(), 1e-9);
        assertEquals(B0, d.get(1).to());
        assertEquals(List.of(new Pong(4)), h.delivered(Pong.class));
        assertEquals(2, h.drain().size());
        assertTrue(h.deliveries().isEmpty(), "drain forgets");
        // The Pong that the script sent to node 0 is the core's business, not a delivery to a stand-in.
        assertEquals(2, h.sent().size(), "only what the core sent");
        SimHarness.Sent s = h.sent(Pong.class).get(0);
        assertEquals(N0, s.from());
        assertEquals(B0, s.to());
        assertEquals(1.0, s.at(), EPS);
        assertThrows(IllegalStateException.class, () -> h.script(B0, (m, env) -> { }), "scripts before the start");
        assertThrows(IllegalStateException.class, () -> h.install(N1, quiet()), "cores before the start");
    }

    private static List<Got> roundTimes(List<Got> got) {
        return got.stream().map(g -> new Got(Math.round(g.at() * 1e6) / 1e6, g.message())).toList();
    }

    @Test
    void coresTalkToEachOtherAndSendDeliverAndSettleStepTime() {
        // Two cores: node 0 forwards every Ping to node 1 (zero latency); node 1 counts it.
        Core forward = new Core(env -> { }, (m, env) -> env.send(N1, m));
        Core sink = new Core(env -> { }, (m, env) -> env.metrics().count(env.now(), "pings", 1));
        SimHarness h = new SimHarness(3, 2, 0, 0).install(N0, forward).install(N1, sink);
        h.send(N0, new Ping(1));
        assertTrue(forward.got.isEmpty(), "send only queues");
        h.settle();
        assertEquals(1, sink.got.size(), "settle handled the forwarded message too (zero latency)");
        h.deliver(N0, new Ping(2));
        assertEquals(2, sink.got.size(), "deliver = send + settle");
        assertEquals(2, h.counter("pings"));
        assertEquals(0, h.counter("never"));
        assertEquals(List.of(N1, N1), h.sent().stream().map(SimHarness.Sent::to).toList());
        assertTrue(h.deliveries().isEmpty(), "no stand-in got anything");
        assertEquals(N0, h.env(N0).self());
        assertEquals(0.0, h.env(N1).now(), EPS);
    }

    @Test
    void observationsAreTypedRecordsAndRequestsAreCounted() {
        Core node = new Core(env -> env.metrics().busyServers(env.now(), 0, 0, 1), (m, env) -> {
            int n = ((Ping) m).n();
            env.metrics().arrived(env.now(), 0);
            if (n % 3 == 0) {
                env.metrics().lost(env.now(), 0, 2);
            } else {
                env.metrics().completed(env.now(), env.now() - 0.5, 0);
            }
            env.send(B0, new Pong(n));
        });
        SimHarness h = new SimHarness(1, 1, 1, 0).install(N0, node);
        for (int i = 1; i <= 6; i++) {
            h.sendAt(i, N0, new Ping(i));
        }
        h.runUntil(4.5);
        assertEquals(List.of(new Observation.BusyServers(0, 0, 0, 1)), h.observed(Observation.BusyServers.class));
        assertEquals(4, h.observed(Observation.Arrived.class).size());
        List<Observation.Completed> done = h.observed(Observation.Completed.class);
        assertEquals(3, done.size());
        assertEquals(new Observation.Completed(4.0, 3.5, 0), done.get(2));
        assertEquals(2, h.lost(), "the Lost record counts 2");
        assertEquals(4, h.observed(Observation.MessageSent.class).size(), "every send is observed as the shells observe it");
        assertEquals(4, h.requests().arrived());
        assertEquals(3, h.requests().completed());
        assertEquals(2, h.requests().lost());
        assertEquals(5, h.requests().resolved());
        assertTrue(h.observations().get(0) instanceof Observation.BusyServers, "in order, from onStart on");
    }

    @Test
    void runUntilAConditionStopsAtTheEventThatMakesItTrue() {
        // A periodic timer that never stops: "no event left" never comes.
        Core ticker = new Core(env -> env.startTimer("t", 1.0, new Tick(0)), (m, env) -> {
            env.metrics().arrived(env.now(), 0);
            env.startTimer("t", 1.0, m);
        });
        SimHarness h = new SimHarness(1, 1, 0, 0).install(N0, ticker);
        assertTrue(h.runUntil(() -> h.requests().arrived() >= 3, 100));
        assertEquals(3.0, h.now(), EPS, "stopped right after the third tick");
        assertEquals(3, ticker.got.size());
        assertEquals(4.0, h.timers(N0).get("t").due(), EPS);
        assertFalse(h.runUntil(() -> false, 6.5), "the condition never held");
        assertEquals(6.5, h.now(), EPS, "the clock is set to the limit");
        assertEquals(6, ticker.got.size());
    }

    @Test
    void everyParticipantHasItsOwnSeededStream() {
        double[] first = new double[2];
        for (int run = 0; run < 2; run++) {
            double[] d = new double[1];
            SimHarness h = new SimHarness(5, 2, 0, 0).install(N1, new Core(env -> d[0] = env.random().nextDouble(),
                    (m, env) -> { }));
            h.start();
            first[run] = d[0];
            Address self = h.env(N1).self();
            assertEquals(N1, self);
        }
        assertEquals(first[0], first[1], 0.0, "same seed, same draw");
        double[] other = new double[1];
        new SimHarness(6, 2, 0, 0).install(N1, new Core(env -> other[0] = env.random().nextDouble(), (m, env) -> { }))
                .start();
        assertTrue(other[0] != first[0], "another seed, another draw");
    }
}

package org.loadlab.kernel.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.ClientId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;

class SimEngineTest {
    record Num(int value) implements Message {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** Records (time, value) of everything it receives; optionally runs a script at start. */
    static final class Recorder implements Logic<Message> {
        final List<double[]> got = new ArrayList<>();
        final java.util.function.Consumer<Env> start;

        Recorder(java.util.function.Consumer<Env> start) {
            this.start = start;
        }

        @Override
        public void onStart(Env env) {
            start.accept(env);
        }

        @Override
        public void on(Message m, Env env) {
            got.add(new double[] {env.now(), ((Num) m).value()});
        }
    }

    private static SimEngine engine(double latency, double jitter) {
        return new SimEngine(42, 1, 1, 1, new LatencyModel(latency, jitter), MetricsSink.NONE);
    }

    @Test
    void deliveryIsFifoPerPairEvenWithJitter() {
        SimEngine e = engine(0.01, 0.05);
        Recorder node = new Recorder(env -> { });
        e.register(NodeId.of(0), node);
        e.register(new BalancerId(0), new Recorder(env -> {
            for (int i = 0; i < 1000; i++) {
                env.send(NodeId.of(0), new Num(i));
            }
        }));
        e.register(new ClientId(0), new Recorder(env -> { }));
        e.run(() -> false, Double.POSITIVE_INFINITY);
        assertEquals(1000, node.got.size());
        double lastTime = 0;
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, (int) node.got.get(i)[1], "message order");
            assertTrue(node.got.get(i)[0] >= lastTime);
            assertTrue(node.got.get(i)[0] >= 0.01, "latency applied");
            lastTime = node.got.get(i)[0];
        }
        assertTrue(lastTime > 0.05, "jitter spread the deliveries");
    }

    @Test
    void timersFollowPekkoSemantics() {
        SimEngine e = engine(0, 0);
        Recorder r = new Recorder(env -> {
            env.startTimer("a", 1.0, new Num(1));
            env.startTimer("a", 2.0, new Num(2)); // replaces the first
            env.startTimer("b", 0.5, new Num(3));
            env.cancelTimer("b");
            env.startTimer("c", 3.0, new Num(4));
        });
        e.register(NodeId.of(0), r);
        e.register(new BalancerId(0), new Recorder(env -> { }));
        e.register(new ClientId(0), new Recorder(env -> { }));
        e.run(() -> false, Double.POSITIVE_INFINITY);
        assertEquals(2, r.got.size());
        assertEquals(2.0, r.got.get(0)[0]);
        assertEquals(2, (int) r.got.get(0)[1]);
        assertEquals(3.0, r.got.get(1)[0]);
        assertEquals(2, e.events());
    }

    @Test
    void equalTimesPopInInsertionOrderAndMaxTimeStops() {
        SimEngine e = engine(0, 0);
        Recorder r = new Recorder(env -> { });
        e.register(NodeId.of(0), r);
        e.register(new BalancerId(0), new Recorder(env -> { }));
        e.register(new ClientId(0), new Recorder(env -> { }));
        for (int i = 0; i < 50; i++) {
            e.schedule(i < 25 ? 1.0 : 5.0, NodeId.of(0), new Num(i));
        }
        double end = e.run(() -> false, 4.0);
        assertEquals(4.0, end);
        assertEquals(25, r.got.size());
        for (int i = 0; i < 25; i++) {
            assertEquals(i, (int) r.got.get(i)[1]);
        }
    }

    @Test
    void everyEntityHasItsOwnReproducibleStream() {
        double[][] draws = new double[2][];
        for (int run = 0; run < 2; run++) {
            SimEngine e = engine(0, 0);
            double[] d = new double[3];
            e.register(NodeId.of(0), new Recorder(env -> d[0] = env.random().nextDouble()));
            e.register(new BalancerId(0), new Recorder(env -> d[1] = env.random().nextDouble()));
            e.register(new ClientId(0), new Recorder(env -> d[2] = env.random().nextDouble()));
            e.run(() -> false, 1);
            draws[run] = d;
        }
        assertEquals(draws[0][0], draws[1][0]);
        assertEquals(draws[0][2], draws[1][2]);
        assertNotEquals(draws[0][0], draws[0][1]);
        assertNotEquals(draws[0][1], draws[0][2]);
    }

    @Test
    void unknownAddressesAndDuplicatesAreRefused() {
        SimEngine e = engine(0, 0);
        Address missing = NodeId.of(3);
        assertThrows(IllegalArgumentException.class, () -> e.register(missing, new Recorder(env -> { })));
        e.register(NodeId.of(0), new Recorder(env -> { }));
        assertThrows(IllegalArgumentException.class, () -> e.register(NodeId.of(0), new Recorder(env -> { })));
        assertThrows(IllegalStateException.class, () -> e.run(() -> false, 1));
    }
}

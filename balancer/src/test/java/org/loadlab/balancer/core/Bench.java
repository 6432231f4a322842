package org.loadlab.balancer.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;

/**
 * One {@link BalancerLogic} under test on the simulation engine ({@link SimHarness}): the
 * nodes are stand-ins that record what the balancer sends them; the test delivers replies,
 * responses and membership news itself and steps time. Zero network latency.
 */
final class Bench {
    /** A message the balancer sent, as a stand-in received it. */
    record Sent(Address to, Message message, double at) {
    }

    private final SimHarness h;
    private final BalancerId self;
    private final List<Sent> pending = new ArrayList<>();
    private final List<Observation.Decided> decisions = new ArrayList<>();
    private final List<Observation.Rejected> rejected = new ArrayList<>();
    private final List<Observation.Completed> completed = new ArrayList<>();
    private final List<Observation.Lost> lost = new ArrayList<>();
    private final java.util.Map<String, Long> counters = new java.util.HashMap<>();
    private int arrived;
    private int observedSoFar;

    /**
     * @param logic the balancer under test (at its own id; the harness has that many balancers plus one)
     * @param seed master seed
     */
    Bench(BalancerLogic logic, long seed) {
        this(logic, seed, Map.of());
    }

    /**
     * @param logic the balancer under test
     * @param seed master seed
     * @param scripts how some node stand-ins answer (by node index); the others only record
     */
    Bench(BalancerLogic logic, long seed, Map<Integer, SimHarness.Script> scripts) {
        this.self = logic.id();
        SimHarness harness = new SimHarness(seed, logic.nodeCount(), self.index() + 1, 1).install(self, logic);
        scripts.forEach((node, script) -> harness.script(org.loadlab.kernel.NodeId.of(node), script));
        this.h = harness.start();
    }

    /** Advances the clock to {@code t}, handling whatever is due until then (timers included). */
    Bench at(double t) {
        h.runUntil(t);
        return this;
    }

    /** Delivers {@code message} to the balancer now and handles everything due now. */
    void on(BalancerMessage message) {
        h.deliver(self, message);
    }

    double now() {
        return h.now();
    }

    /** What the balancer sent since the last {@link #drainSent()}. */
    List<Sent> sent() {
        for (SimHarness.Delivery d : h.drain()) {
            pending.add(new Sent(d.to(), d.message(), d.at()));
        }
        return List.copyOf(pending);
    }

    /** {@link #sent()}, then forgets it. */
    List<Sent> drainSent() {
        List<Sent> out = sent();
        pending.clear();
        return out;
    }

    <T extends Message> List<T> sentOfType(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Sent s : sent()) {
            if (type.isInstance(s.message())) {
                out.add(type.cast(s.message()));
            }
        }
        return out;
    }

    Map<Object, SimHarness.Timer> timers() {
        return h.timers(self);
    }

    List<SimHarness.Timer> timersOf(Class<? extends Message> type) {
        return h.timersOf(self, type);
    }

    /** Runs until the balancer's timer {@code key} fires. */
    void fire(Object key) {
        h.fire(self, key);
    }

    void runUntil(double t) {
        h.runUntil(t);
    }

    /** The balancer's observations so far. */
    Metrics metrics() {
        return new Metrics();
    }

    SimHarness harness() {
        return h;
    }

    /** Sorts the observations made since the last call into the lists below. */
    private void catchUp() {
        List<Observation> all = h.observations();
        for (; observedSoFar < all.size(); observedSoFar++) {
            Observation o = all.get(observedSoFar);
            if (o instanceof Observation.Decided d) {
                decisions.add(d);
            } else if (o instanceof Observation.Rejected r) {
                rejected.add(r);
            } else if (o instanceof Observation.Completed c) {
                completed.add(c);
            } else if (o instanceof Observation.Lost l) {
                lost.add(l);
            } else if (o instanceof Observation.Arrived) {
                arrived++;
            } else if (o instanceof Observation.Counted c) {
                counters.merge(c.name(), c.delta(), Long::sum);
            }
        }
    }

    /** Views of the observations so far. */
    final class Metrics {
        List<Observation.Decided> decisions() {
            catchUp();
            return decisions;
        }

        List<Observation.Rejected> rejected() {
            catchUp();
            return rejected;
        }

        List<Observation.Completed> completed() {
            catchUp();
            return completed;
        }

        List<Observation.Lost> lost() {
            catchUp();
            return lost;
        }

        int arrived() {
            catchUp();
            return arrived;
        }

        long counter(String name) {
            catchUp();
            return counters.getOrDefault(name, 0L);
        }

        int totalLost() {
            catchUp();
            return lost.stream().mapToInt(Observation.Lost::count).sum();
        }
    }
}

package org.loadlab.kernel.sim;

import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;
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
 * The deterministic discrete-event shell: a single-threaded loop that pops events in
 * (time, sequence) order and hands them to the pure logic cores, on a virtual clock.
 *
 * <ul>
 *   <li>Entities are addressed by {@link NodeId}, {@link BalancerId} and {@link ClientId};
 *       each gets its own random stream derived from (master seed, kind, index).</li>
 *   <li>{@code send} enqueues delivery at now + latency; delivery between any pair is FIFO
 *       (with jitter, a message never overtakes an earlier one of the same pair).</li>
 *   <li>Timers follow Pekko: a timer started with an active key replaces it; a cancelled
 *       timer never fires.</li>
 * </ul>
 * Same seed, same entities, same events: the same sequence of handler calls, bit for bit.
 *
 * <p>Speed: the future-event list is {@link EventQueue} (FIFO lanes for constant delays and
 * a 4-ary heap for the rest); timers come from a pool and live timers sit in a primitive
 * open-addressing table, so the engine allocates nothing per event (the messages are the
 * cores' own records). A cancelled timer that is still the last event of its lane is
 * removed at once; any other stays in the list and is skipped when it comes up.
 * docs/performance.md has the design and the measurements.
 *
 * <p>Source: DESIGN.md ("The sim shell").
 */
public final class SimEngine {
    private final long seed;
    private final int nodeCount;
    private final int balancerCount;
    private final Entity[] entities;
    private final EventQueue queue = new EventQueue();
    private final LatencyModel latency;
    private final RandomGenerator networkRng;
    private final MetricsSink metrics;
    private final PairClock lastDelivery;
    private final int clientBase;
    private Timer[] freeTimers = new Timer[64];
    private int freeCount;
    private double now;
    private long events;
    private long messages;

    /**
     * @param seed master seed of the run
     * @param nodes number of backend nodes n
     * @param balancers number of balancers
     * @param clients number of clients / drivers
     * @param latency network latency model
     * @param metrics where observations of all entities go
     * @throws IllegalArgumentException if there are more than 2^24 entities in all
     */
    public SimEngine(long seed, int nodes, int balancers, int clients, LatencyModel latency, MetricsSink metrics) {
        this.seed = seed;
        this.nodeCount = nodes;
        this.balancerCount = balancers;
        long total = (long) nodes + balancers + clients;
        if (total > EventQueue.MAX_ENTITIES) {
            throw new IllegalArgumentException("a simulation holds at most " + EventQueue.MAX_ENTITIES
                    + " nodes, balancers and clients together, asked for " + total);
        }
        this.entities = new Entity[(int) total];
        this.latency = latency;
        this.networkRng = StreamSeeds.stream(seed, StreamSeeds.NETWORK, 0);
        this.metrics = metrics;
        this.lastDelivery = latency.jitterMean() > 0 ? new PairClock() : null;
        this.clientBase = nodes + balancers;
    }

    /**
     * Registers the logic of {@code address}; its {@code onStart} runs at time 0 when
     * {@link #run} starts, in registration order.
     *
     * @throws IllegalArgumentException if the address is out of range or taken
     */
    public void register(Address address, Logic<? extends Message> logic) {
        int slot = slotOf(address);
        if (entities[slot] != null) {
            throw new IllegalArgumentException(address + " is registered twice");
        }
        int kind = address instanceof NodeId ? StreamSeeds.NODE
                : address instanceof BalancerId ? StreamSeeds.BALANCER : StreamSeeds.CLIENT;
        @SuppressWarnings("unchecked")
        Logic<Message> l = (Logic<Message>) logic;
        entities[slot] = new Entity(slot, address, l, StreamSeeds.stream(seed, kind, address.index()));
    }

    /**
     * Schedules an external event (failure, degradation, chaos) for delivery to
     * {@code to} at absolute time {@code at} seconds.
     */
    public void schedule(double at, Address to, Message message) {
        // at any time, so never in a lane
        queue.push(at, slotOf(to), message);
    }

    /**
     * Runs until no event is left, the next event lies beyond {@code maxTime}, or
     * {@code done} becomes true (checked after every event).
     *
     * @return the virtual time at which the run stopped, seconds
     * @throws IllegalStateException if an entity slot was never registered
     */
    public double run(BooleanSupplier done, double maxTime) {
        for (Entity e : entities) {
            if (e == null) {
                throw new IllegalStateException("not every node, balancer and client is registered");
            }
        }
        for (Entity e : entities) {
            e.logic.onStart(e);
        }
        while (!queue.isEmpty() && !done.getAsBoolean()) {
            if (queue.peekTime() > maxTime) {
                now = maxTime;
                break;
            }
            queue.pop();
            now = queue.time();
            Entity e = entities[queue.target()];
            Object payload = queue.payload();
            if (payload instanceof Timer t) {
                if (t.cancelled) {
                    release(t);
                    continue;
                }
                e.forget(t);
                payload = t.message;
                release(t);
            }
            events++;
            e.logic.on((Message) payload, e);
        }
        return now;
    }

    /** Current virtual time, seconds. */
    public double now() {
        return now;
    }

    /** Events processed so far (messages delivered plus timers fired). */
    public long events() {
        return events;
    }

    /** Messages sent so far (timers excluded). */
    public long messages() {
        return messages;
    }

    private int slotOf(Address a) {
        int i;
        int slot;
        int limit;
        if (a instanceof NodeId n) {
            i = n.index();
            slot = i;
            limit = nodeCount;
        } else if (a instanceof BalancerId b) {
            i = b.index();
            slot = nodeCount + i;
            limit = balancerCount;
        } else {
            i = a.index();
            slot = clientBase + i;
            limit = entities.length - clientBase;
        }
        if (i >= limit) {
            throw new IllegalArgumentException(a + " does not exist in this run");
        }
        return slot;
    }

    private void deliver(Entity from, Address to, Message message) {
        int target = slotOf(to);
        messages++;
        metrics.messageSent(now, message);
        if (from.client || target >= clientBase || target == from.slot) {
            queue.pushAfter(now, 0.0, target, message); // the driver sits with its balancer: no latency
        } else if (lastDelivery == null) {
            queue.pushAfter(now, latency.sample(networkRng), target, message);
        } else {
            // jitter: a message never overtakes an earlier one of the same pair
            queue.push(lastDelivery.deliverAt(from.slot, target, now + latency.sample(networkRng)), target, message);
        }
    }

    private Timer timer(Object key, Message message) {
        if (freeCount == 0) {
            return new Timer(key, message);
        }
        Timer t = freeTimers[--freeCount];
        freeTimers[freeCount] = null;
        t.key = key;
        t.message = message;
        t.cancelled = false;
        return t;
    }

    /** Returns a timer that is in neither the event list nor a timer table to the pool. */
    private void release(Timer t) {
        t.key = null;
        t.message = null;
        if (freeCount == freeTimers.length) {
            freeTimers = java.util.Arrays.copyOf(freeTimers, freeCount * 2);
        }
        freeTimers[freeCount++] = t;
    }

    /** Marks a replaced or cancelled timer; frees it at once if the event list can drop it. */
    private void cancel(Timer old) {
        old.cancelled = true;
        if (queue.dropLast(old.lane, old)) {
            release(old);
        }
    }

    /**
     * A pending timer; the key maps to at most one live timer per entity. Pooled: a timer is
     * reused once it has fired, or has been cancelled and left the event list.
     */
    private static final class Timer {
        Object key;
        Message message;
        boolean cancelled;
        int lane;

        Timer(Object key, Message message) {
            this.key = key;
            this.message = message;
        }
    }

    /** One registered participant and its Env. */
    private final class Entity implements Env {
        final int slot;
        final Address address;
        final Logic<Message> logic;
        final RandomGenerator rng;
        final boolean client;
        // Live timers by key. Most entities use one key at a time (a node's service slot, the
        // driver's next arrival), so the first key lives in two fields and the map, created
        // on demand, only holds the others: no hashing on the common path.
        private Object firstKey;
        private Timer firstTimer;
        private TimerTable<Timer> otherTimers;

        Entity(int slot, Address address, Logic<Message> logic, RandomGenerator rng) {
            this.slot = slot;
            this.address = address;
            this.logic = logic;
            this.rng = rng;
            this.client = address instanceof ClientId;
        }

        @Override
        public double now() {
            return now;
        }

        @Override
        public Address self() {
            return address;
        }

        @Override
        public RandomGenerator random() {
            return rng;
        }

        @Override
        public void send(Address to, Message message) {
            deliver(this, to, message);
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
            Timer t = timer(key, message);
            Timer old = put(key, t);
            if (old != null) {
                cancel(old);
            }
            t.lane = queue.pushAfter(now, Math.max(0.0, delaySeconds), slot, t);
        }

        @Override
        public void cancelTimer(Object key) {
            Timer old = remove(key);
            if (old != null) {
                cancel(old);
            }
        }

        private Timer put(Object key, Timer t) {
            boolean first = firstKey != null && (firstKey == key || firstKey.equals(key));
            if (!first && otherTimers != null && otherTimers.size() > 0) {
                Timer old = otherTimers.get(key);
                if (old != null) {
                    otherTimers.put(key, t);
                    return old;
                }
            }
            if (first || firstKey == null) {
                Timer old = firstTimer;
                firstKey = key;
                firstTimer = t;
                return old;
            }
            if (otherTimers == null) {
                otherTimers = new TimerTable<>();
            }
            return otherTimers.put(key, t);
        }

        private Timer remove(Object key) {
            if (firstKey != null && (firstKey == key || firstKey.equals(key))) {
                Timer old = firstTimer;
                firstKey = null;
                firstTimer = null;
                return old;
            }
            return otherTimers == null ? null : otherTimers.remove(key);
        }

        /** A timer fired: it is no longer live. */
        void forget(Timer t) {
            if (firstTimer == t) {
                firstKey = null;
                firstTimer = null;
            } else if (otherTimers != null) {
                otherTimers.remove(t.key, t);
            }
        }

        @Override
        public MetricsSink metrics() {
            return metrics;
        }

    }
}

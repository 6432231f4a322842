package org.loadlab.kernel.sim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
import org.loadlab.kernel.ServiceId;
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
 * a 4-ary heap for the rest). A timer is an entry of that list whose id the entity keeps
 * while the timer is live (its first timer in two fields, others in a {@link TimerIndex});
 * there is no timer object, and the engine allocates nothing per event (the messages are
 * the cores' own records). A cancelled timer that is still the last entry of its lane is
 * removed at once; any other stays in the list and is skipped by its id when it comes up,
 * without touching its message.
 * docs/performance.md has the design and the measurements.
 *
 * <p>Source: DESIGN.md ("The sim shell").
 */
public final class SimEngine {
    private final long seed;
    private final int nodeCount;
    private final int balancerCount;
    private final int clientCount;
    private final Entity[] entities;
    // Dense per-slot copies of what the loop reads before a handler runs: the handler and the
    // id of the entity's first live timer. At 10^5 nodes an entity's objects are cache misses;
    // read from these arrays, the node's address is known without first loading its Entity,
    // so the two misses overlap instead of following each other, and a skipped (cancelled)
    // timer touches no object at all.
    private final Logic<Message>[] logics;
    private final long[] firstTimerIds;
    private final EventQueue queue = new EventQueue();
    private final LatencyModel latency;
    private final RandomGenerator networkRng;
    private final MetricsSink metrics;
    private final PairClock lastDelivery;
    private final int clientBase;
    private final int serviceBase;
    private static final long NO_TIMER = -1L; // never an event id
    private final List<Cut> cuts = new ArrayList<>();
    private double now;
    private boolean started;
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
        this(seed, nodes, balancers, clients, 0, latency, metrics);
    }

    /**
     * @param seed master seed of the run
     * @param nodes number of backend nodes n
     * @param balancers number of balancers
     * @param clients number of clients / drivers
     * @param services number of control services ({@link ServiceId}: control plane, autoscaler)
     * @param latency network latency model (applies to services' messages too)
     * @param metrics where observations of all entities go
     * @throws IllegalArgumentException if there are more than 2^24 entities in all
     */
    public SimEngine(long seed, int nodes, int balancers, int clients, int services, LatencyModel latency,
                     MetricsSink metrics) {
        this.seed = seed;
        this.nodeCount = nodes;
        this.balancerCount = balancers;
        this.clientCount = clients;
        long total = (long) nodes + balancers + clients + services;
        if (total > EventQueue.MAX_ENTITIES) {
            throw new IllegalArgumentException("a simulation holds at most " + EventQueue.MAX_ENTITIES
                    + " nodes, balancers, clients and services together, asked for " + total);
        }
        this.entities = new Entity[(int) total];
        @SuppressWarnings("unchecked")
        Logic<Message>[] l = (Logic<Message>[]) new Logic<?>[(int) total];
        this.logics = l;
        this.firstTimerIds = new long[(int) total];
        java.util.Arrays.fill(firstTimerIds, NO_TIMER);
        this.latency = latency;
        this.networkRng = StreamSeeds.stream(seed, StreamSeeds.NETWORK, 0);
        this.metrics = metrics;
        this.lastDelivery = latency.jitterMean() > 0 ? new PairClock() : null;
        this.clientBase = nodes + balancers;
        this.serviceBase = clientBase + clients;
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
                : address instanceof BalancerId ? StreamSeeds.BALANCER
                : address instanceof ServiceId ? StreamSeeds.SERVICE : StreamSeeds.CLIENT;
        @SuppressWarnings("unchecked")
        Logic<Message> l = (Logic<Message>) logic;
        entities[slot] = new Entity(slot, address, StreamSeeds.stream(seed, kind, address.index()));
        logics[slot] = l;
    }

    /**
     * Cuts the links between every participant of {@code sideA} and every one of
     * {@code sideB} during [{@code from}, {@code until}) seconds (a network partition): a
     * message sent across the cut in that time is held and delivered when the cut heals,
     * with its latency, as a TCP connection delivers what it buffered (Pekko Artery keeps an
     * association's messages in order). Per-pair FIFO order is kept.
     *
     * @throws IllegalArgumentException if {@code until <= from} or an address does not exist
     */
    public void cut(double from, double until, Collection<? extends Address> sideA,
                    Collection<? extends Address> sideB) {
        if (!(until > from)) {
            throw new IllegalArgumentException("a cut must heal after it starts: [" + from + ", " + until + ")");
        }
        boolean[] a = new boolean[entities.length];
        boolean[] b = new boolean[entities.length];
        for (Address x : sideA) {
            a[slotOf(x)] = true;
        }
        for (Address x : sideB) {
            b[slotOf(x)] = true;
        }
        cuts.add(new Cut(from, until, a, b));
    }

    /** Delivery time of a message from slot {@code from} to {@code to} due at {@code at}, after any cut it crosses. */
    private double heldBack(int from, int to, double at) {
        for (Cut c : cuts) {
            if (now >= c.from && now < c.until && (c.a[from] && c.b[to] || c.b[from] && c.a[to])) {
                at = Math.max(at, c.until + (at - now));
            }
        }
        return at;
    }

    /** A network partition between two sets of entity slots during [from, until). */
    private record Cut(double from, double until, boolean[] a, boolean[] b) {
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
        start();
        while (!queue.isEmpty() && !done.getAsBoolean()) {
            if (!queue.popNotAfter(maxTime)) {
                now = maxTime;
                break;
            }
            now = queue.time();
            int slot = queue.target();
            if (queue.poppedTimer() && !timerFired(slot, queue.poppedId())) {
                continue; // cancelled or replaced
            }
            events++;
            // Two call sites: nodes (one class per run) and the rest, so each site stays mono-
            // or bimorphic and the JIT can inline the handler instead of an interface dispatch.
            if (slot < nodeCount) {
                logics[slot].on((Message) queue.payload(), entities[slot]);
            } else {
                logics[slot].on((Message) queue.payload(), entities[slot]);
            }
        }
        return now;
    }

    /**
     * Runs every event due at or before {@code until}, then sets the clock to {@code until}
     * (test harnesses step a run this way).
     */
    public void runUntil(double until) {
        run(() -> false, until);
        now = Math.max(now, until);
    }

    /**
     * Runs every participant's {@code onStart} at time 0, in registration order; later calls
     * do nothing ({@link #run} starts the engine itself).
     *
     * @throws IllegalStateException if an entity slot was never registered
     */
    public void start() {
        if (started) {
            return;
        }
        for (Entity e : entities) {
            if (e == null) {
                throw new IllegalStateException("not every node, balancer and client is registered");
            }
        }
        started = true;
        for (Entity e : entities) {
            logics[e.slot].onStart(e);
        }
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
        } else if (a instanceof ClientId c) {
            i = c.index();
            slot = clientBase + i;
            limit = clientCount;
        } else {
            i = a.index();
            slot = serviceBase + i;
            limit = entities.length - serviceBase;
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
        if (from.client || (target >= clientBase && target < serviceBase) || target == from.slot) {
            queue.pushAfter(now, 0.0, target, message); // the driver sits with its balancer: no latency
            return;
        }
        double delay = latency.sample(networkRng);
        if (!cuts.isEmpty()) {
            double held = heldBack(from.slot, target, now + delay);
            if (held > now + delay) { // across a partition: delivered when it heals, still in order per pair
                queue.push(lastDelivery == null ? held : lastDelivery.deliverAt(from.slot, target, held), target, message);
                return;
            }
        }
        if (lastDelivery == null) {
            queue.pushAfter(now, delay, target, message);
        } else {
            // jitter: a message never overtakes an earlier one of the same pair
            queue.push(lastDelivery.deliverAt(from.slot, target, now + delay), target, message);
        }
    }

    /**
     * The timer event {@code id} of entity {@code slot} came up: true (and it is no longer
     * live) if it is a live timer of that entity, false if it was cancelled or replaced.
     */
    private boolean timerFired(int slot, long id) {
        if (firstTimerIds[slot] == id) {
            firstTimerIds[slot] = NO_TIMER;
            entities[slot].firstKey = null;
            return true;
        }
        return entities[slot].otherFired(id);
    }

    /** One registered participant and its Env. */
    private final class Entity implements Env {
        final int slot;
        final Address address;
        final RandomGenerator rng;
        final boolean client;
        // Live timers: key and event id. Most entities use one key at a time (a node's service
        // slot, the driver's next arrival), so the first has its key here and its id in
        // firstTimerIds[slot] (where the loop reads it), and the index, created on demand,
        // only holds the others: no hashing on the common path. (The handler is logics[slot].)
        private Object firstKey;
        private TimerIndex otherTimers;

        Entity(int slot, Address address, RandomGenerator rng) {
            this.slot = slot;
            this.address = address;
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
            cancelTimer(key); // Pekko: a timer started with an active key replaces it
            queue.pushTimerAfter(now, Math.max(0.0, delaySeconds), slot, message);
            long id = queue.lastId();
            if (firstKey == null) {
                firstKey = key;
                firstTimerIds[slot] = id;
            } else {
                if (otherTimers == null) {
                    otherTimers = new TimerIndex();
                }
                otherTimers.put(key, id);
            }
        }

        @Override
        public void cancelTimer(Object key) {
            long id;
            if (firstKey != null && (firstKey == key || firstKey.equals(key))) {
                id = firstTimerIds[slot];
                firstKey = null;
                firstTimerIds[slot] = NO_TIMER;
            } else if (otherTimers != null) {
                id = otherTimers.removeKey(key);
                if (id == NO_TIMER) {
                    return;
                }
            } else {
                return;
            }
            queue.dropIfLast(id); // else it stays in the list and is skipped: its id is no longer live
        }

        /** The timer event {@code id}, not this entity's first live timer, came up: see {@link #timerFired}. */
        boolean otherFired(long id) {
            return otherTimers != null && otherTimers.removeId(id);
        }

        @Override
        public MetricsSink metrics() {
            return metrics;
        }
    }
}

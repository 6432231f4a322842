package org.loadlab.kernel.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.ObservationLog;
import org.loadlab.kernel.observe.RequestLedger;

/**
 * The simulation engine set up for a test of one or a few cores: the cores under test run
 * on the real {@link SimEngine} (virtual clock, per-pair FIFO delivery, Pekko timer
 * semantics, one random stream per participant), every other participant is a stand-in
 * that records what it receives and may answer by a script, observations are kept as
 * {@link Observation} records, and the test steps time with {@link #runUntil}. The cores'
 * timers can be listed and fired, every message a core sends is kept ({@link #sent}) and
 * requests are counted as the shells count them ({@link #requests}). Network latency is zero
 * unless given.
 *
 * <p>Source: DESIGN.md ("the simulation engine ... becomes the bottom layer that every
 * core's tests use").
 */
public final class SimHarness {
    /**
     * A message delivered to a stand-in.
     *
     * @param at delivery time, seconds
     * @param to the stand-in's address
     * @param message the message
     */
    public record Delivery(double at, Address to, Message message) {
    }

    /**
     * A message a core under test sent (to anyone: a stand-in, another core or itself).
     *
     * @param at send time, seconds (it is delivered at this time plus the network latency)
     * @param from the sending core's address
     * @param to the receiver's address
     * @param message the message
     */
    public record Sent(double at, Address from, Address to, Message message) {
    }

    /**
     * An active timer of a core under test.
     *
     * @param key its key
     * @param due when it fires, seconds
     * @param delay the delay it was started with, seconds
     * @param message what it delivers
     */
    public record Timer(Object key, double due, double delay, Message message) {
    }

    /** What a stand-in does with a message it receives (besides recording it). */
    @FunctionalInterface
    public interface Script {
        /**
         * @param message the message received
         * @param env the stand-in's effects (send, timers, clock)
         */
        void on(Message message, Env env);
    }

    private final int nodes;
    private final int balancers;
    private final int clients;
    private final int services;
    private final SimEngine engine;
    private final ObservationLog log = new ObservationLog();
    private final RequestLedger ledger = new RequestLedger(log);
    private final List<Observation> observed = new ArrayList<>();
    private final List<Delivery> deliveries = new ArrayList<>();
    private final List<Sent> sent = new ArrayList<>();
    private final Map<Address, Map<Object, Timer>> timers = new LinkedHashMap<>();
    private final Map<Address, Env> envs = new LinkedHashMap<>();
    private final Map<Address, Logic<? extends Message>> installed = new LinkedHashMap<>();
    private final Map<Address, Script> scripts = new LinkedHashMap<>();
    private boolean started;

    /**
     * A harness with zero network latency.
     *
     * @param seed master seed (each participant's random stream derives from it)
     * @param nodes number of node addresses
     * @param balancers number of balancer addresses
     * @param clients number of client addresses
     */
    public SimHarness(long seed, int nodes, int balancers, int clients) {
        this(seed, nodes, balancers, clients, new LatencyModel(0, 0));
    }

    /**
     * @param seed master seed
     * @param nodes number of node addresses
     * @param balancers number of balancer addresses
     * @param clients number of client addresses
     * @param latency the network latency model
     */
    public SimHarness(long seed, int nodes, int balancers, int clients, LatencyModel latency) {
        this(seed, nodes, balancers, clients, 0, latency);
    }

    /**
     * @param seed master seed
     * @param nodes number of node addresses
     * @param balancers number of balancer addresses
     * @param clients number of client addresses
     * @param services number of service addresses ({@link org.loadlab.kernel.ServiceId})
     * @param latency the network latency model
     */
    public SimHarness(long seed, int nodes, int balancers, int clients, int services, LatencyModel latency) {
        this.nodes = nodes;
        this.balancers = balancers;
        this.clients = clients;
        this.services = services;
        this.engine = new SimEngine(seed, nodes, balancers, clients, services, latency, ledger);
    }

    /**
     * Puts a core under test at {@code address}.
     *
     * @return this
     * @throws IllegalStateException if the harness has started
     */
    public SimHarness install(Address address, Logic<? extends Message> logic) {
        requireNotStarted();
        installed.put(address, logic);
        return this;
    }

    /**
     * Gives the stand-in at {@code address} a script (e.g. answer probes).
     *
     * @return this
     * @throws IllegalStateException if the harness has started
     */
    public SimHarness script(Address address, Script script) {
        requireNotStarted();
        scripts.put(address, script);
        return this;
    }

    /** Starts the run (every {@code onStart} at time 0) if it has not started; the stepping methods call it. */
    public SimHarness start() {
        if (!started) {
            started = true;
            for (Address a : addresses()) {
                Logic<? extends Message> core = installed.get(a);
                engine.register(a, core != null ? new Watched<>(a, core) : new StandIn(a, scripts.get(a)));
            }
            engine.start();
        }
        return this;
    }

    /** Delivers {@code message} to {@code to} now (it is handled at the next step). */
    public void send(Address to, Message message) {
        start();
        engine.schedule(engine.now(), to, message);
    }

    /** Delivers {@code message} to {@code to} at time {@code at} ≥ now. */
    public void sendAt(double at, Address to, Message message) {
        start();
        engine.schedule(at, to, message);
    }

    /** Delivers {@code message} to {@code to} now and handles everything due now. */
    public void deliver(Address to, Message message) {
        send(to, message);
        settle();
    }

    /** Handles every event due at or before {@code until}, then sets the clock there. */
    public void runUntil(double until) {
        start();
        engine.runUntil(until);
        drainLog();
    }

    /**
     * Handles events in order until {@code done} holds (checked before each event), no event
     * is left or the next one lies beyond {@code maxTime} (then the clock is set to
     * {@code maxTime}). For runs whose cores keep timers going for ever (a receiver that
     * polls periodically), where "no event left" never comes; keep {@code done} cheap, e.g.
     * a count of {@link #requests()}.
     *
     * @param done the stop condition
     * @param maxTime latest event time to handle, seconds
     * @return whether {@code done} holds at the end
     */
    public boolean runUntil(BooleanSupplier done, double maxTime) {
        start();
        engine.run(done, maxTime);
        drainLog();
        return done.getAsBoolean();
    }

    /** Handles every event due now (zero-latency exchanges). */
    public void settle() {
        runUntil(now());
    }

    /**
     * Fires the active timer {@code key} of the core at {@code address}: runs until its due time.
     *
     * @throws AssertionError if there is no such timer
     */
    public void fire(Address address, Object key) {
        Timer t = timers(address).get(key);
        if (t == null) {
            throw new AssertionError("no active timer " + key + " at " + address + "; active: " + timers(address).keySet());
        }
        runUntil(t.due());
    }

    /** Current time, seconds. */
    public double now() {
        return engine.now();
    }

    /** The active timers of the core at {@code address}, by key, in start order. */
    public Map<Object, Timer> timers(Address address) {
        return timers.getOrDefault(address, Map.of());
    }

    /** The active timers of the core at {@code address} whose message is of {@code type}. */
    public List<Timer> timersOf(Address address, Class<? extends Message> type) {
        List<Timer> out = new ArrayList<>();
        for (Timer t : timers(address).values()) {
            if (type.isInstance(t.message())) {
                out.add(t);
            }
        }
        return out;
    }

    /** Every message delivered to a stand-in so far, in delivery order. */
    public List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** The deliveries so far, forgotten afterwards. */
    public List<Delivery> drain() {
        List<Delivery> out = List.copyOf(deliveries);
        deliveries.clear();
        return out;
    }

    /** The messages of {@code type} delivered to stand-ins so far. */
    public <T extends Message> List<T> delivered(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (type.isInstance(d.message())) {
                out.add(type.cast(d.message()));
            }
        }
        return out;
    }

    /**
     * Every message the cores under test sent so far, in send order (messages that the test
     * or a stand-in's script sent are not included).
     */
    public List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** The messages of {@code type} the cores under test sent so far, in send order. */
    public List<Sent> sent(Class<? extends Message> type) {
        List<Sent> out = new ArrayList<>();
        for (Sent s : sent) {
            if (type.isInstance(s.message())) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * The request counts so far (arrived, completed, rejected, lost), kept as every shell keeps
     * them: by a {@link RequestLedger} in front of the observation log. Live: it goes on
     * counting as the run goes on.
     */
    public RequestLedger requests() {
        return ledger;
    }

    /** Every observation so far, in order (a read-only view that grows as the run goes on). */
    public List<Observation> observations() {
        drainLog();
        return java.util.Collections.unmodifiableList(observed);
    }

    /** The observations of {@code type} so far. */
    public <T extends Observation> List<T> observed(Class<T> type) {
        drainLog();
        List<T> out = new ArrayList<>();
        for (Observation o : observed) {
            if (type.isInstance(o)) {
                out.add(type.cast(o));
            }
        }
        return out;
    }

    /** The run counter {@code name} summed so far (0 if never counted). */
    public long counter(String name) {
        long sum = 0;
        for (Observation.Counted c : observed(Observation.Counted.class)) {
            if (c.name().equals(name)) {
                sum += c.delta();
            }
        }
        return sum;
    }

    /** Requests observed lost so far. */
    public int lost() {
        return observed(Observation.Lost.class).stream().mapToInt(Observation.Lost::count).sum();
    }

    /** The Env of the participant at {@code address} (for a test that calls a core's methods directly). */
    public Env env(Address address) {
        start();
        return envs.get(address);
    }

    private void drainLog() {
        observed.addAll(log.drain(Integer.MAX_VALUE).toList());
    }

    private void requireNotStarted() {
        if (started) {
            throw new IllegalStateException("install cores and scripts before the harness starts");
        }
    }

    private List<Address> addresses() {
        List<Address> out = new ArrayList<>();
        for (int j = 0; j < nodes; j++) {
            out.add(NodeId.of(j));
        }
        for (int i = 0; i < balancers; i++) {
            out.add(new BalancerId(i));
        }
        for (int c = 0; c < clients; c++) {
            out.add(new ClientId(c));
        }
        for (int v = 0; v < services; v++) {
            out.add(new org.loadlab.kernel.ServiceId(v));
        }
        return out;
    }

    /** A core under test: handled by the engine, its timers kept in view. */
    private final class Watched<M extends Message> implements Logic<M> {
        private final Address address;
        private final Logic<M> core;
        private TimerView env;

        Watched(Address address, Logic<M> core) {
            this.address = address;
            this.core = core;
        }

        private Env wrap(Env e) {
            if (env == null) {
                env = new TimerView(address, e);
                envs.put(address, env);
            }
            return env;
        }

        @Override
        public void onStart(Env e) {
            core.onStart(wrap(e));
        }

        @Override
        public void on(M message, Env e) {
            Env view = wrap(e);
            forgetFired(message, e.now());
            core.on(message, view);
        }

        /**
         * A timer that fires is no longer active. It is found by its message (the engine
         * delivers the timer's message object): the due one started first, as the engine fires
         * timers in (due time, start) order; another timer with the same message stays active.
         */
        private void forgetFired(M message, double now) {
            Map<Object, Timer> active = timers.get(address);
            if (active == null) {
                return;
            }
            Timer fired = null;
            for (Timer t : active.values()) {
                if (t.message() == message && t.due() <= now && (fired == null || t.due() < fired.due())) {
                    fired = t;
                }
            }
            if (fired != null) {
                active.remove(fired.key());
            }
        }
    }

    /** The Env a core under test sees: the engine's, with its timers recorded. */
    private final class TimerView implements Env {
        private final Address address;
        private final Env engineEnv;

        TimerView(Address address, Env engineEnv) {
            this.address = address;
            this.engineEnv = engineEnv;
        }

        @Override
        public double now() {
            return engineEnv.now();
        }

        @Override
        public Address self() {
            return engineEnv.self();
        }

        @Override
        public RandomGenerator random() {
            return engineEnv.random();
        }

        @Override
        public void send(Address to, Message message) {
            sent.add(new Sent(now(), address, to, message));
            engineEnv.send(to, message);
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
            if (!(delaySeconds >= 0)) {
                throw new AssertionError("negative or NaN timer delay " + delaySeconds + " for " + message);
            }
            Map<Object, Timer> active = timers.computeIfAbsent(address, a -> new LinkedHashMap<>());
            active.remove(key);
            active.put(key, new Timer(key, now() + delaySeconds, delaySeconds, message));
            engineEnv.startTimer(key, delaySeconds, message);
        }

        @Override
        public void cancelTimer(Object key) {
            Map<Object, Timer> active = timers.get(address);
            if (active != null) {
                active.remove(key);
            }
            engineEnv.cancelTimer(key);
        }

        @Override
        public MetricsSink metrics() {
            return engineEnv.metrics();
        }
    }

    /** A participant that is not under test: records what it receives and runs its script. */
    private final class StandIn implements Logic<Message> {
        private final Address address;
        private final Script script;

        StandIn(Address address, Script script) {
            this.address = address;
            this.script = script;
        }

        @Override
        public void onStart(Env env) {
            envs.put(address, env);
        }

        @Override
        public void on(Message message, Env env) {
            deliveries.add(new Delivery(env.now(), address, message));
            if (script != null) {
                script.on(message, env);
            }
        }
    }
}

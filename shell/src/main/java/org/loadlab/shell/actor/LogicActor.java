package org.loadlab.shell.actor;

import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MessageKinds;
import org.loadlab.kernel.MetricsSink;

/**
 * The Pekko shell around any logic core: an {@code AbstractBehavior} whose mailbox feeds
 * {@link Logic#on}, with an {@link Env} on scaled wall time ({@link LiveClock}, read once per message),
 * {@code tell} through a {@link Directory}, and timers with the key semantics of Pekko's
 * {@code TimerScheduler} (which the simulation engine copies), kept by the actor in
 * {@link ActorTimers} with one Pekko timer for the earliest. The logic's {@code onStart} runs when the
 * actor receives {@link Start}, so a launcher can bind every address first. Two local-only
 * messages let the shell hosting the actor read its core ({@link Inspect}) or hand it a
 * control call ({@link Apply}, e.g. a policy switch) on the actor's own thread; they never
 * cross a JVM.
 *
 * <p>Source: DESIGN.md ("The Pekko shells wrap the same Logic in AbstractBehavior actors").
 */
public final class LogicActor extends AbstractBehavior<Message> {

    /**
     * Local only: reads the core on the actor's thread and replies with what {@code read} returns.
     *
     * @param read what to read, given the core and its Env
     * @param replyTo where the answer goes
     * @param <T> the answer's type
     */
    public record Inspect<T>(java.util.function.BiFunction<Logic<?>, Env, T> read, ActorRef<T> replyTo) implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Local only: runs {@code action} on the core, on the actor's thread.
     *
     * @param action what to do, given the core and its Env
     */
    public record Apply(BiConsumer<Logic<?>, Env> action) implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * Local only: reads the core like {@link Inspect}, then stops the actor, so the answer is
     * the core's last state (no later message is handled). A shell ending a run uses it to
     * take the census of what a core still holds.
     *
     * @param read what to read, given the core and its Env
     * @param replyTo where the answer goes
     * @param <T> the answer's type
     */
    public record InspectAndStop<T>(java.util.function.BiFunction<Logic<?>, Env, T> read, ActorRef<T> replyTo)
            implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Tells the actor to run its logic's {@code onStart}. */
    public record Start() implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /**
     * What an actor needs besides its logic.
     *
     * @param self its logical address
     * @param directory address → actor reference
     * @param clock the run's clock (scenario time, real timer durations)
     * @param rng its random stream
     * @param metrics thread-safe observation sink
     * @param afterMessage called after each handled message with the env's time (e.g. to
     *     publish a node's snapshot to an oracle board), or null
     * @param timerLag where the lateness of each timer is recorded, or null (not measured)
     */
    public record Wiring(Address self, Directory directory, ShellClock clock, RandomGenerator rng,
                         MetricsSink metrics, BiConsumer<Logic<?>, Double> afterMessage, TimerLag timerLag) {
        /** Wiring that does not measure timer lag. */
        public Wiring(Address self, Directory directory, ShellClock clock, RandomGenerator rng,
                      MetricsSink metrics, BiConsumer<Logic<?>, Double> afterMessage) {
            this(self, directory, clock, rng, metrics, afterMessage, null);
        }
    }

    /** Local only: the actor's one Pekko timer, armed for its core's earliest timer ({@link ActorTimers}). */
    record WakeUp() implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** The key and message of the actor's one Pekko timer. */
    static final WakeUp WAKE_UP = new WakeUp();

    /**
     * Counter: messages the shell could not deliver because no actor is bound to their
     * address; {@code undelivered_<kind>} (e.g. {@code undelivered_request}) counts them by kind.
     */
    public static final String UNDELIVERED = "undelivered";

    private final Logic<Message> logic;
    private final Wiring wiring;
    private final ActorTimers timers;
    private final ShellEnv env = new ShellEnv();
    /**
     * Scenario seconds at which the actor took the message it is handling: the core's
     * {@link Env#now()} for the whole handler, as in the simulation, where a handler takes no
     * time. One clock read per message instead of one per {@code now()}: the balancer reads
     * the time five to ten times per message, and at 90,000 requests/s the gateway spent 2% of
     * its CPU in {@code clock_gettime}.
     */
    private double messageTime;

    /**
     * Behaviour running {@code logic}.
     *
     * @param logic the core (its message type must match what others send to {@code wiring.self()})
     * @param wiring the shell's collaborators
     */
    public static Behavior<Message> create(Logic<? extends Message> logic, Wiring wiring) {
        @SuppressWarnings("unchecked")
        Logic<Message> l = (Logic<Message>) logic;
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new LogicActor(ctx, timers, l, wiring)));
    }

    private LogicActor(ActorContext<Message> context, TimerScheduler<Message> scheduler, Logic<Message> logic, Wiring wiring) {
        super(context);
        this.timers = new ActorTimers(wiring.clock(), delay -> scheduler.startSingleTimer(WAKE_UP, WAKE_UP, delay));
        this.logic = logic;
        this.wiring = wiring;
    }

    @Override
    public Receive<Message> createReceive() {
        return newReceiveBuilder()
                .onMessage(Start.class, s -> {
                    clockIn();
                    logic.onStart(env);
                    published();
                    return this;
                })
                .onMessage(Inspect.class, this::onInspect)
                .onMessage(InspectAndStop.class, this::onInspectAndStop)
                .onMessage(Apply.class, a -> {
                    clockIn();
                    a.action().accept(logic, env);
                    published();
                    return this;
                })
                .onMessage(WakeUp.class, w -> {
                    for (ActorTimers.Timer t = timers.pollDue(); t != null; t = timers.pollDue()) {
                        if (wiring.timerLag() != null) {
                            wiring.timerLag().record(wiring.clock().realNanos() - t.dueNanos);
                        }
                        clockIn();
                        logic.on(t.message, env);
                        published();
                    }
                    return this;
                })
                .onMessage(Message.class, m -> {
                    clockIn();
                    logic.on(m, env);
                    published();
                    return this;
                })
                .build();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Behavior<Message> onInspect(Inspect inspect) {
        clockIn();
        Object answer = inspect.read().apply(logic, env);
        inspect.replyTo().tell(answer);
        return this;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Behavior<Message> onInspectAndStop(InspectAndStop inspect) {
        clockIn();
        Object answer = inspect.read().apply(logic, env);
        inspect.replyTo().tell(answer);
        return Behaviors.stopped();
    }

    /** Reads the clock for the message (or timer) the actor is about to hand its core. */
    private void clockIn() {
        messageTime = wiring.clock().now();
    }

    private void published() {
        if (wiring.afterMessage() != null) {
            wiring.afterMessage().accept(logic, messageTime);
        }
    }

    /** The Env seen by the logic inside this actor. */
    private final class ShellEnv implements Env {
        /** The time the actor took the message it is handling (one clock read per message). */
        @Override
        public double now() {
            return messageTime;
        }

        @Override
        public Address self() {
            return wiring.self();
        }

        @Override
        public RandomGenerator random() {
            return wiring.rng();
        }

        @Override
        public void send(Address to, Message message) {
            wiring.metrics().messageSent(now(), message);
            ActorRef<Message> ref = wiring.directory().lookup(to);
            if (ref != null) {
                ref.tell(message);
            } else {
                // No actor is bound to the address (e.g. its member was removed): the message is
                // not delivered, and counted so that a run's books show where it went.
                String kind = MessageKinds.of(message);
                wiring.metrics().count(now(), UNDELIVERED, 1);
                wiring.metrics().count(now(), UNDELIVERED + "_" + kind.toLowerCase(java.util.Locale.ROOT), 1);
            }
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
            timers.start(key, wiring.clock().realDuration(delaySeconds), message);
        }

        @Override
        public void cancelTimer(Object key) {
            timers.cancel(key);
        }

        @Override
        public MetricsSink metrics() {
            return wiring.metrics();
        }

    }
}

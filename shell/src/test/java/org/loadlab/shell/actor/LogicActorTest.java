package org.loadlab.shell.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.pekko.actor.testkit.typed.Effect;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.BehaviorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.ObservationLog;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.node.backend.NodeSettings;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * The actor shell ({@link LogicActor}) on Pekko's typed testkit with manual time: timers are
 * driven by advancing the virtual scheduler, never by waiting. Start runs onStart; a timer
 * fires after its scenario delay divided by the time scale; a timer started again with an
 * active key replaces it and a cancelled timer never fires, even when its message already sits
 * in the mailbox (the semantics the simulation engine copies); Inspect and Apply reach the core
 * on the actor; sends go through the directory and are observed as sent; a real
 * {@link BackendNode} serves FCFS on the shell's timers.
 */
class LogicActorTest {
    private static final ActorTestKit KIT = ActorTestKit.create(ManualTime.config());
    private static final ManualTime TIME = ManualTime.get(KIT.system());
    /** Scenario seconds per real second: 2 scenario seconds take 200 ms of (manual) real time. */
    private static final double SCALE = 10;
    private static final NodeId SELF = NodeId.of(0);
    private static final NodeId TARGET = NodeId.of(1);

    private TestProbe<String> said;
    private ObservationLog observed;
    private Directory directory;
    private AtomicInteger published;
    /** The test's clock: time moves only when the test advances it (Pekko's manual time and the actors' due times alike). */
    private ManualClock clock;

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @BeforeEach
    void fresh() {
        said = KIT.createTestProbe();
        observed = new ObservationLog();
        directory = new Directory();
        published = new AtomicInteger();
        clock = new ManualClock(TIME, SCALE);
    }

    // ------------------------------------------------------------------ a hand-written core

    /** Plays the timer a test asks for: delivers {@link Tick} {@code label} after {@code delay} scenario seconds. */
    record StartTimer(String key, double delay, String label) implements Message {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /** Cancels the timer with {@code key}. */
    record CancelTimer(String key) implements Message {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** Sends {@code message} to {@code to}. */
    record SendTo(Address to, Message message) implements Message {
        @Override
        public int estimatedBytes() {
            return 8;
        }
    }

    /** A timer's (or a plain) message; the core says its label. */
    record Tick(String label) implements Message {
        @Override
        public int estimatedBytes() {
            return 12;
        }
    }

    /** A core that does what the test messages say and tells the test what it saw. */
    static final class Scripted implements Logic<Message> {
        private final Consumer<String> say;
        private final List<String> seen = new ArrayList<>();

        Scripted(Consumer<String> say) {
            this.say = say;
        }

        @Override
        public void onStart(Env env) {
            say.accept("started as " + env.self());
        }

        @Override
        public void on(Message message, Env env) {
            seen.add(message.getClass().getSimpleName());
            if (message instanceof StartTimer t) {
                env.startTimer(t.key(), t.delay(), new Tick(t.label()));
            } else if (message instanceof CancelTimer c) {
                env.cancelTimer(c.key());
            } else if (message instanceof SendTo s) {
                env.send(s.to(), s.message());
            } else if (message instanceof Tick t) {
                say.accept(t.label());
            }
        }

        /** What the core has handled, by kind, in order. */
        List<String> seen() {
            return List.copyOf(seen);
        }
    }

    private LogicActor.Wiring wiring(ShellClock clock) {
        return new LogicActor.Wiring(SELF, directory, clock, new SplittableRandom(7), observed,
                (logic, now) -> published.incrementAndGet());
    }

    /** A started actor around a fresh {@link Scripted} core, on the test's clock at {@link #SCALE}. */
    private ActorRef<Message> scripted() {
        ActorRef<Message> actor = KIT.spawn(LogicActor.create(new Scripted(said.ref()::tell), wiring(clock)));
        actor.tell(new LogicActor.Start());
        said.expectMessage("started as " + SELF);
        settled(actor); // onStart said so, but the shell's afterMessage runs after it
        return actor;
    }

    /** Waits until {@code actor} has handled everything told before (a round trip through its mailbox). */
    private static void settled(ActorRef<Message> actor) {
        TestProbe<Boolean> done = KIT.createTestProbe();
        actor.tell(new LogicActor.Inspect<>((logic, env) -> true, done.ref()));
        done.expectMessage(true);
    }

    private static List<String> seen(ActorRef<Message> actor) {
        TestProbe<List<String>> answer = KIT.createTestProbe();
        actor.tell(new LogicActor.Inspect<>((logic, env) -> ((Scripted) logic).seen(), answer.ref()));
        return answer.receiveMessage();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void startRunsOnStartOnlyWhenTheActorIsTold() {
        ActorRef<Message> actor = KIT.spawn(LogicActor.create(new Scripted(said.ref()::tell), wiring(LiveClock.startingNow(SCALE))));
        clock.expectNoMessageFor(Duration.ofSeconds(1), said);
        actor.tell(new LogicActor.Start());
        said.expectMessage("started as " + SELF);
        assertEquals(List.of(), seen(actor), "Start is the shell's, not a message of the core");
    }

    @Test
    void aTimerFiresAfterItsScenarioDelayDividedByTheTimeScale() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("k", 2.0, "ring"));
        settled(actor);
        clock.expectNoMessageFor(Duration.ofMillis(199), said);
        clock.advance(Duration.ofMillis(1));
        said.expectMessage("ring");
        clock.expectNoMessageFor(Duration.ofSeconds(1), said);
    }

    @Test
    void startingATimerWithAnActiveKeyReplacesIt() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("k", 2.0, "first"));
        settled(actor);
        clock.advance(Duration.ofMillis(100));
        actor.tell(new StartTimer("k", 2.0, "second"));
        settled(actor);
        clock.expectNoMessageFor(Duration.ofMillis(199), said); // "first" was due 100 ms in
        clock.advance(Duration.ofMillis(1));
        said.expectMessage("second");
        clock.expectNoMessageFor(Duration.ofSeconds(1), said);
    }

    @Test
    void aReplacedTimerWhoseMessageIsAlreadyQueuedIsNotDelivered() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("k", 1.0, "old"));
        settled(actor);
        // On the actor: the old timer comes due (its message enters the mailbox), then the key is started again.
        actor.tell(new LogicActor.Apply((logic, env) -> {
            clock.advance(Duration.ofMillis(100));
            env.startTimer("k", 1.0, new Tick("new"));
        }));
        settled(actor);
        clock.expectNoMessageFor(Duration.ofMillis(99), said);
        clock.advance(Duration.ofMillis(1));
        said.expectMessage("new");
        clock.expectNoMessageFor(Duration.ofSeconds(1), said);
    }

    @Test
    void aCancelledTimerNeverFires() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("k", 1.0, "never"));
        actor.tell(new CancelTimer("k"));
        settled(actor);
        clock.expectNoMessageFor(Duration.ofSeconds(2), said);
        assertEquals(List.of("StartTimer", "CancelTimer"), seen(actor));
    }

    @Test
    void aTimerCancelledAfterItsMessageWasQueuedIsNotDelivered() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("k", 1.0, "never"));
        settled(actor);
        actor.tell(new LogicActor.Apply((logic, env) -> {
            clock.advance(Duration.ofMillis(100)); // due now: its message is queued behind this one
            env.cancelTimer("k");
        }));
        settled(actor);
        clock.expectNoMessageFor(Duration.ofSeconds(1), said);
        assertEquals(List.of("StartTimer"), seen(actor), "the queued message of the cancelled timer was dropped");
    }

    @Test
    void timersWithOtherKeysRunSideBySide() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("a", 1.0, "a"));
        actor.tell(new StartTimer("b", 0.5, "b"));
        settled(actor);
        clock.advance(Duration.ofMillis(50));
        said.expectMessage("b");
        clock.advance(Duration.ofMillis(50));
        said.expectMessage("a");
    }

    @Test
    @SuppressWarnings("unchecked")
    void synchronouslyTheShellArmsOnePekkoTimerForTheEarliestCoreTimer() {
        // The test's clock does not move here: every due time is exact.
        BehaviorTestKit<Message> t = BehaviorTestKit.create(LogicActor.create(new Scripted(s -> { }), wiring(clock)));
        t.run(new StartTimer("k", 2.0, "x"));
        Effect.TimerScheduled<Message> first = t.expectEffectClass(Effect.TimerScheduled.class);
        assertEquals(LogicActor.WAKE_UP, first.key());
        assertEquals(LogicActor.WAKE_UP, first.msg());
        assertEquals(Duration.ofMillis(200), first.duration(), "2 scenario seconds at time scale 10");
        assertEquals("SingleMode", first.mode().toString());
        t.run(new StartTimer("later", 5.0, "y"));
        assertFalse(t.hasEffects(), "a timer due after the armed wake-up arms nothing");
        t.run(new StartTimer("k", 0.5, "z"));
        Effect.TimerScheduled<Message> second = t.expectEffectClass(Effect.TimerScheduled.class);
        assertEquals(Duration.ofMillis(50), second.duration(), "the same key replaced, due earlier: the wake-up comes sooner");
        assertTrue(second.overriding());
        t.run(new CancelTimer("k"));
        t.run(new Tick("plain"));
        assertFalse(t.hasEffects(), "a cancel and a plain message start no Pekko timer");
        t.run(LogicActor.WAKE_UP); // nothing due at time 0: armed again for "later"
        assertEquals(Duration.ofMillis(500), t.expectEffectClass(Effect.TimerScheduled.class).duration());
    }

    @Test
    void timersDueTogetherFireInDueOrderThenStartOrder() {
        ActorRef<Message> actor = scripted();
        actor.tell(new StartTimer("c", 1.0, "c"));
        actor.tell(new StartTimer("a", 0.5, "a"));
        actor.tell(new StartTimer("b", 1.0, "b"));
        actor.tell(new StartTimer("gone", 0.7, "gone"));
        actor.tell(new CancelTimer("gone"));
        settled(actor);
        clock.advance(Duration.ofMillis(500)); // one wake-up finds all three due
        said.expectMessage("a");
        said.expectMessage("c");
        said.expectMessage("b");
        clock.expectNoMessageFor(Duration.ofSeconds(1), said);
    }

    /** A clock that moves one scenario second on every read, and counts its reads. */
    static final class MovingClock implements ShellClock {
        int reads;

        @Override
        public double now() {
            return ++reads;
        }

        @Override
        public Duration realDuration(double scenarioSeconds) {
            return Duration.ofNanos((long) (scenarioSeconds * 1e9));
        }
    }

    @Test
    void aCoreSeesOneTimeForTheWholeMessageAndTheClockIsReadOncePerMessage() {
        // As in the simulation, where a handler takes no time: env.now() is the time the actor
        // took the message, however often the core asks, and the shell's afterMessage gets it too.
        MovingClock moving = new MovingClock();
        List<Double> times = new ArrayList<>();
        List<Double> publishedAt = new ArrayList<>();
        Logic<Message> asksThrice = new Logic<>() {
            @Override
            public void onStart(Env env) {
            }

            @Override
            public void on(Message message, Env env) {
                times.add(env.now());
                env.send(TARGET, new Tick("x")); // the observation takes the time too
                times.add(env.now());
                times.add(env.now());
            }
        };
        LogicActor.Wiring w = new LogicActor.Wiring(SELF, directory, moving, new SplittableRandom(7), observed,
                (logic, now) -> publishedAt.add(now));
        BehaviorTestKit<Message> t = BehaviorTestKit.create(LogicActor.create(asksThrice, w));
        t.run(new Tick("first"));
        t.run(new Tick("second"));
        assertEquals(List.of(1.0, 1.0, 1.0, 2.0, 2.0, 2.0), times);
        assertEquals(List.of(1.0, 2.0), publishedAt);
        assertEquals(2, moving.reads, "one clock read per message");
        List<Double> sentAt = observed.drain(Integer.MAX_VALUE).toList().stream()
                .filter(o -> o instanceof Observation.MessageSent).map(Observation::time).toList();
        assertEquals(List.of(1.0, 2.0), sentAt);
    }

    @Test
    void inspectRepliesWithTheCoresStateAndItsEnv() {
        ActorRef<Message> actor = scripted();
        actor.tell(new Tick("one"));
        actor.tell(new Tick("two"));
        said.expectMessage("one");
        said.expectMessage("two");
        TestProbe<String> answer = KIT.createTestProbe();
        actor.tell(new LogicActor.Inspect<>((logic, env) -> env.self() + " saw " + ((Scripted) logic).seen(), answer.ref()));
        assertEquals(SELF + " saw [Tick, Tick]", answer.receiveMessage());
    }

    @Test
    void applyRunsOnTheActorWithTheCoresEnv() {
        ActorRef<Message> actor = scripted();
        int before = published.get();
        // A timer can only be started on the actor's own thread (TimerScheduler is not thread-safe).
        actor.tell(new LogicActor.Apply((logic, env) -> env.startTimer("from-apply", 0.5, new Tick("applied"))));
        settled(actor);
        assertEquals(before + 1, published.get(), "afterMessage runs after an Apply, as after a message");
        clock.advance(Duration.ofMillis(50));
        said.expectMessage("applied");
        assertEquals(List.of("Tick"), seen(actor));
    }

    @Test
    void sendsReachTheDirectorysTargetAndAreObservedAsSent() {
        TestProbe<Message> target = KIT.createTestProbe();
        directory.bind(TARGET, target.ref());
        ActorRef<Message> actor = scripted();
        actor.tell(new SendTo(TARGET, new Tick("hello")));
        target.expectMessage(new Tick("hello"));
        actor.tell(new SendTo(NodeId.of(9), new Tick("nobody"))); // unbound (e.g. a removed node): not delivered
        settled(actor);
        target.expectNoMessage(Duration.ZERO);
        List<Observation> o = observed.drain(Integer.MAX_VALUE).toList();
        List<Observation.MessageSent> sent = o.stream().filter(x -> x instanceof Observation.MessageSent)
                .map(x -> (Observation.MessageSent) x).toList();
        assertEquals(2, sent.size(), "every message that left the core is observed, delivered or not: " + o);
        assertEquals("Tick", sent.get(0).kind());
        assertEquals(12, sent.get(0).bytes(), "the message's estimated size");
        List<String> counted = o.stream().filter(x -> x instanceof Observation.Counted).map(x -> (Observation.Counted) x)
                .map(c -> c.name() + "=" + c.delta()).toList();
        assertEquals(List.of("undelivered=1", "undelivered_tick=1"), counted, "the undelivered message is counted, by kind");
    }

    @Test
    void inspectAndStopAnswersTheLastStateAndHandlesNothingAfterIt() {
        ActorRef<Message> actor = scripted();
        actor.tell(new Tick("before"));
        TestProbe<List<String>> census = KIT.createTestProbe();
        actor.tell(new LogicActor.InspectAndStop<>((logic, env) -> List.copyOf(((Scripted) logic).seen()), census.ref()));
        actor.tell(new Tick("after"));
        said.expectMessage("before");
        assertEquals(List.of("Tick"), census.receiveMessage(), "everything told before it was handled, nothing after");
        census.expectTerminated(actor);
        said.expectNoMessage(Duration.ZERO);
    }

    @Test
    void afterMessageSeesEveryHandledMessageWithTheClocksTime() {
        List<Double> times = new java.util.concurrent.CopyOnWriteArrayList<>();
        ActorRef<Message> actor = KIT.spawn(LogicActor.create(new Scripted(said.ref()::tell),
                new LogicActor.Wiring(SELF, directory, clock, new SplittableRandom(7), observed, (logic, now) -> times.add(now))));
        actor.tell(new LogicActor.Start());
        said.expectMessage("started as " + SELF);
        actor.tell(new StartTimer("k", 3.0, "due"));
        settled(actor);
        clock.advance(Duration.ofMillis(300));
        said.expectMessage("due");
        settled(actor);
        assertEquals(3, times.size(), "after Start, after StartTimer, after the timer's Tick (Inspect publishes nothing): " + times);
        assertEquals(0.0, times.get(0), 1e-12);
        assertEquals(0.0, times.get(1), 1e-12);
        assertEquals(3.0, times.get(2), 1e-12, "the time the timer was due");
    }

    @Test
    void aBackendNodeServesFcfsOnTheShellsTimers() {
        BalancerId balancer = new BalancerId(0);
        TestProbe<Message> replies = KIT.createTestProbe();
        directory.bind(balancer, replies.ref());
        BackendNode node = new BackendNode(SELF, 2.0, NodeSettings.defaults()); // μ = 2 work units/s, one server
        ActorRef<Message> actor = KIT.spawn(LogicActor.create(node, wiring(clock)));
        actor.tell(new LogicActor.Start());
        actor.tell(new NodeMessage.Request(1, 1.0, 0.0, balancer)); // 0.5 s of service: 50 ms real
        actor.tell(new NodeMessage.Request(2, 1.0, 0.0, balancer)); // waits for the first
        settled(actor);
        clock.advance(Duration.ofMillis(49));
        settled(actor);
        replies.expectNoMessage(Duration.ZERO);
        clock.advance(Duration.ofMillis(1));
        assertEquals(new BalancerMessage.Response(1, 0, 0.0, true), replies.receiveMessage());
        settled(actor); // the node starts the second service after replying: let it finish before time moves on
        clock.advance(Duration.ofMillis(49));
        settled(actor);
        replies.expectNoMessage(Duration.ZERO);
        clock.advance(Duration.ofMillis(1));
        assertEquals(new BalancerMessage.Response(2, 0, 0.0, true), replies.receiveMessage());
        settled(actor);
        List<Observation.ServiceStarted> started = observed.drain(Integer.MAX_VALUE).toList().stream()
                .filter(x -> x instanceof Observation.ServiceStarted).map(x -> (Observation.ServiceStarted) x).toList();
        assertEquals(2, started.size(), started.toString());
        assertEquals(0.0, started.get(0).waitSeconds(), 1e-12);
        assertEquals(0.5, started.get(1).waitSeconds(), 1e-12, "the second request waited for the first's service");
        assertTrue(started.get(1).time() >= 0.5 - 1e-12, started.toString());
    }
}

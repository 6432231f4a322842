package org.loadlab.shell.live;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.shell.actor.Directory;
import org.loadlab.shell.actor.LiveClock;
import org.loadlab.shell.actor.LogicActor;
import org.loadlab.shell.actor.ScaledClockCheck;
import org.loadlab.shell.actor.TimerLag;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.ClientId;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.ServiceId;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.experiment.run.RecorderSink;
import org.loadlab.kernel.observe.ForwardingSink;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.ObservationLog;
import org.loadlab.kernel.observe.RequestLedger;
import org.loadlab.experiment.run.RunAssembly;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Runs one {@link RunSpec} live: the very logic objects the simulation uses, each wrapped
 * in a {@link LogicActor} in a local Pekko {@code ActorSystem}, on scaled wall time
 * ({@code timeScale} scenario seconds per real second). Messages are real {@code tell}s,
 * timers are Pekko timers; results go through the same recorder and files.
 *
 * <p>The oracle information model reads a board that every node actor refreshes after
 * each message it handles.
 */
public final class LiveRunner {
    private static final long POLL_MILLIS = 5;
    /**
     * Tolerated mean lateness of the timers, as a fraction of the scenario's mean service time
     * E[D]/μ̄: beyond it, response times carry an error of that order (docs/results.md).
     */
    public static final double LAG_TOLERANCE = ScaledClockCheck.DEFAULT_TOLERANCE;
    /** Largest accepted {@code --time-scale}: beyond it one 1 ms scheduler tick is over 10 scenario seconds. */
    public static final double MAX_TIME_SCALE = 10_000;

    /**
     * A live run stopped because its actors fell behind the scaled clock: the timers fired
     * so late that the run's times are no longer the scenario's. The message gives the
     * measured lag and the time scale to use instead.
     */
    public static final class FellBehindException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FellBehindException(String message) {
            super(message);
        }
    }

    private LiveRunner() {
    }

    /**
     * Why live mode cannot run this scenario, if it cannot: the time-stepped reference model
     * and balls into bins only simulate, and a {@code partition} event is a cut only the simulation engine makes
     * (on a cluster the network is cut for real, docs/cluster.md). The CLI asks before any run
     * starts, so a refused scenario costs nothing.
     *
     * @return the reason naming the scenario and the offending part, or empty when live mode runs it
     */
    public static Optional<String> refusal(Scenario s) {
        if (s.isReferenceModel()) {
            return Optional.of("scenario " + s.name() + " has model = reference (the ASMF seed's time-stepped"
                    + " simulator), which only simulates; run it without --mode live, or live-run a scenario with"
                    + " model = message (e.g. quickstart)");
        }
        if (s.isBallsIntoBins()) {
            return Optional.of("scenario " + s.name() + " uses model = balls-into-bins, whose bins never serve; it only"
                    + " simulates: run it without --mode live");
        }
        for (Scenario.Event e : s.events()) {
            if (e.type().equals("partition")) {
                return Optional.of("scenario " + s.name() + ": events: partition at " + e.at() + " s is a cut"
                        + " only the simulation makes; run it without --mode live (on a cluster, cut the network"
                        + " for real: docs/cluster.md)");
            }
        }
        return Optional.empty();
    }

    /**
     * Runs {@code spec} live and blocks until it is over (every request answered, rejected
     * or lost, or the drain timeout passed).
     *
     * @param timeScale scenario seconds per real second, > 0
     * @return the run's metrics and the number of messages sent
     * @throws FellBehindException if for {@value ScaledClockCheck#WINDOWS_TO_STOP} s in a row the timers fired on
     *     average more than {@value #LAG_TOLERANCE} mean service times late
     */
    public static SimulationRunner.Outcome run(RunSpec spec, double timeScale) {
        return run(spec, timeScale, LAG_TOLERANCE);
    }

    /**
     * Runs {@code spec} live with a given lag tolerance.
     *
     * @param timeScale scenario seconds per real second, > 0
     * @param lagTolerance tolerated mean timer lateness as a fraction of the mean service time
     *     (infinite: never stop)
     * @return the run's metrics and the number of messages sent
     * @throws FellBehindException if the actors fell behind the scaled clock by more than the tolerance
     */
    public static SimulationRunner.Outcome run(RunSpec spec, double timeScale, double lagTolerance) {
        return run(spec, timeScale, lagTolerance, generated -> { });
    }

    /**
     * Runs {@code spec} live and lets a watcher follow it.
     *
     * @param timeScale scenario seconds per real second, > 0
     * @param lagTolerance tolerated mean timer lateness as a fraction of the mean service time
     * @param onStart called once before the actors start with a thread-safe reader of the
     *     requests generated so far (for progress lines)
     * @return the run's metrics and the number of messages sent
     * @throws FellBehindException if the actors fell behind the scaled clock by more than the tolerance
     */
    public static SimulationRunner.Outcome run(RunSpec spec, double timeScale, double lagTolerance,
                                               java.util.function.Consumer<java.util.function.LongSupplier> onStart) {
        return run(spec, timeScale, lagTolerance, onStart, lag -> { });
    }

    /**
     * Runs {@code spec} live, lets a watcher follow it and reports the run's timer lag.
     *
     * @param timeScale scenario seconds per real second, > 0
     * @param lagTolerance tolerated mean timer lateness as a fraction of the mean service time
     * @param onStart called once before the actors start with a thread-safe reader of the
     *     requests generated so far (for progress lines)
     * @param onLag called once the run has not fallen behind, with how late its timers fired over the
     *     whole run (timers handled, mean and largest lateness in real nanoseconds; {@link TimerLag})
     * @return the run's metrics and the number of messages sent
     * @throws FellBehindException if the actors fell behind the scaled clock by more than the tolerance
     */
    public static SimulationRunner.Outcome run(RunSpec spec, double timeScale, double lagTolerance,
                                               java.util.function.Consumer<java.util.function.LongSupplier> onStart,
                                               java.util.function.Consumer<TimerLag.Window> onLag) {
        long t0 = System.nanoTime();
        Scenario s = spec.scenario();
        refusal(s).ifPresent(reason -> {
            throw new IllegalArgumentException(reason);
        });
        AtomicReferenceArray<LoadSnapshot> board = new AtomicReferenceArray<>(s.nodes().count());
        boolean oracle = s.information().model().equals("oracle") && !Scenario.isLoadSharing(spec.policy());
        RunAssembly assembly = RunAssembly.build(spec, oracle ? boardView(board) : null);
        onStart.accept(assembly.driver()::generated);
        RunRecorder recorder = new RunRecorder(s.nodes().count(), assembly.warmupSeconds(), s.seriesInterval())
                .slaLatency(s.autonomy().slaLatency());
        Replay replay = new Replay(new RequestLedger(new RecorderSink(recorder)));
        ObservationLog sink = new ObservationLog();
        TimerLag lag = new TimerLag();
        LagCheck check = new LagCheck(spec, timeScale, lagTolerance, lag);

        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "loadlab-live", liveConfig());
        double end;
        try {
            Directory directory = new Directory();
            LiveClock clock = LiveClock.startingNow(timeScale);
            java.util.function.BiConsumer<Logic<?>, Double> publish = !oracle ? null
                    : (logic, now) -> {
                        org.loadlab.node.backend.ServingNode node = (org.loadlab.node.backend.ServingNode) logic;
                        board.set(node.id().index(), node.snapshot(now));
                    };
            ActorRef<Message>[] nodes = spawnAll(system, directory, clock, sink, spec, assembly, publish, lag);
            for (RunAssembly.ScheduledEvent e : assembly.events()) {
                ActorRef<Message> ref = directory.lookup(e.to());
                system.scheduler().scheduleOnce(clock.realDuration(e.at()), () -> ref.tell(e.message()), system.executionContext());
            }
            LogicActor.Start start = new LogicActor.Start();
            for (ActorRef<Message> ref : nodes) {
                ref.tell(start);
            }
            end = awaitEnd(assembly, sink, replay, clock, s.drainTimeout(), check);
            check.finish();
            onLag.accept(new TimerLag.Window(lag.count(), lag.meanNanos(), lag.maxNanos()));
        } finally {
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // A slow shutdown only delays the exit; late observations are ignored below.
            }
        }
        // The actors are stopped: nothing reports any more while the recorder closes.
        sink.close();
        replay.feed(sink);
        RunResult result = new RunResult(s.name(), spec.policy(), spec.seed(),
                recorder.finish(Math.max(end, recorder.lastObservationSeconds())));
        if (system.whenTerminated().isCompleted()) {
            assembly.checkConservation(result.metrics()); // the actors are stopped: their counts are final
        }
        return new SimulationRunner.Outcome(result, replay.messages, end, (System.nanoTime() - t0) / 1e9);
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<Message>[] spawnAll(ActorSystem<Void> system, Directory directory, LiveClock clock,
                                                MetricsSink sink, RunSpec spec, RunAssembly assembly,
                                                java.util.function.BiConsumer<Logic<?>, Double> publish, TimerLag lag) {
        int n = assembly.nodeCount();
        int b = assembly.balancers().length;
        int v = assembly.services().size();
        ActorRef<Message>[] refs = new ActorRef[n + b + 1 + v];
        for (int k = 0; k < v; k++) {
            // The control services (LinTS control plane, autoscaler): each its own actor, on its own timers.
            refs[n + b + 1 + k] = spawn(system, directory, new ServiceId(k), assembly.services().get(k), StreamSeeds.SERVICE,
                    clock, sink, spec, null, lag);
        }
        for (int j = 0; j < n; j++) {
            refs[j] = spawn(system, directory, new NodeId(j), assembly.nodeLogic(j), StreamSeeds.NODE, clock, sink, spec,
                    publish, lag);
        }
        for (int i = 0; i < b; i++) {
            refs[n + i] = spawn(system, directory, new BalancerId(i), assembly.balancers()[i], StreamSeeds.BALANCER, clock, sink,
                    spec, null, lag);
        }
        refs[n + b] = spawn(system, directory, new ClientId(0), assembly.driver(), StreamSeeds.CLIENT, clock, sink, spec, null, lag);
        return refs;
    }

    private static ActorRef<Message> spawn(ActorSystem<Void> system, Directory directory, Address address,
                                           Logic<? extends Message> logic, int streamKind, LiveClock clock, MetricsSink sink,
                                           RunSpec spec,
                                           java.util.function.BiConsumer<Logic<?>, Double> afterMessage, TimerLag lag) {
        LogicActor.Wiring wiring = new LogicActor.Wiring(address, directory, clock,
                StreamSeeds.stream(spec.seed(), streamKind, address.index()), sink, afterMessage, lag);
        ActorRef<Message> ref = system.systemActorOf(LogicActor.create(logic, wiring), address.toString(), Props.empty());
        directory.bind(address, ref);
        return ref;
    }

    private static double awaitEnd(RunAssembly assembly, ObservationLog sink, Replay replay, LiveClock clock,
                                   double drainTimeout, LagCheck check) {
        double arrivalsEnded = Double.NaN;
        long nextCheck = System.nanoTime() + ScaledClockCheck.WINDOW_MILLIS * 1_000_000;
        while (true) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return clock.now();
            }
            replay.feed(sink);
            if (System.nanoTime() >= nextCheck) {
                check.look();
                nextCheck += ScaledClockCheck.WINDOW_MILLIS * 1_000_000;
            }
            if (!assembly.driver().finished()) {
                continue;
            }
            double now = clock.now();
            if (Double.isNaN(arrivalsEnded)) {
                arrivalsEnded = now;
            }
            long generated = assembly.driver().generated();
            if (replay.ledger.resolved() == generated || now > arrivalsEnded + drainTimeout) {
                return now;
            }
        }
    }

    /**
     * Feeds the actors' observation records into the run's sink chain on one thread, their
     * times clamped to be non-decreasing (two actors may read the clock in one order and
     * report in the other; the recorder integrates over time and needs order).
     */
    private static final class Replay {
        final RequestLedger ledger;
        final MetricsSink chain;
        long messages;
        double last;

        Replay(RequestLedger ledger) {
            this.ledger = ledger;
            this.chain = new ForwardingSink(ledger) {
                @Override
                public void messageSent(double now, String kind, int bytes) {
                    messages++;
                    super.messageSent(now, kind, bytes);
                }
            };
        }

        void feed(ObservationLog log) {
            for (Observation o : log.drain(Integer.MAX_VALUE).toList()) {
                last = Math.max(last, o.time());
                o.applyTo(chain, last);
            }
        }
    }

    /**
     * Watches the timer lag of one run once per {@value ScaledClockCheck#WINDOW_MILLIS} ms and stops the run
     * when it stays above the tolerance ({@link ScaledClockCheck}, the rule cluster experiments use too).
     */
    private static final class LagCheck {
        private final RunSpec spec;
        private final double timeScale;
        private final ScaledClockCheck rule;
        private final TimerLag lag;

        LagCheck(RunSpec spec, double timeScale, double tolerance, TimerLag lag) {
            this.spec = spec;
            this.timeScale = timeScale;
            this.rule = new ScaledClockCheck(timeScale, tolerance, spec.scenario());
            this.lag = lag;
        }

        /** Looks at the last window; throws once {@value ScaledClockCheck#WINDOWS_TO_STOP} windows in a row were too late. */
        void look() {
            TimerLag.Window w = lag.window();
            if (rule.look(w)) {
                throw fellBehind(w.meanNanos(), "over the last second");
            }
        }

        /** At the end of a run (also one too short for two windows): the mean over the whole run. */
        void finish() {
            if (rule.behindOverRun(lag.count(), lag.meanNanos())) {
                throw fellBehind(lag.meanNanos(), "over the run");
            }
        }

        private FellBehindException fellBehind(double meanNanos, String when) {
            return new FellBehindException(String.format(java.util.Locale.ROOT,
                    "live run %s / %s / seed %d fell behind the scaled clock: at --time-scale %s %s. Use a smaller"
                            + " --time-scale (about %s or less on this machine now), or --mode sim for the same logic in"
                            + " simulated time",
                    spec.scenario().name(), spec.policy(), spec.seed(), LiveRunner.format(timeScale),
                    rule.lateness(meanNanos, when), LiveRunner.format(rule.suggestion(meanNanos))));
        }
    }

    static String format(double x) {
        return ScaledClockCheck.plain(x);
    }

    private static ClusterView boardView(AtomicReferenceArray<LoadSnapshot> board) {
        return new ClusterView() {
            @Override
            public int nodeCount() {
                return board.length();
            }

            @Override
            public LoadSnapshot load(int index, double now) {
                return board.get(index); // the node's state after the last message it handled
            }
        };
    }

    /** application.conf and system properties over loadlab-live.conf over Pekko's reference. */
    private static Config liveConfig() {
        return ConfigFactory.defaultOverrides()
                .withFallback(ConfigFactory.defaultApplication())
                .withFallback(ConfigFactory.parseResources(LiveRunner.class.getClassLoader(), "loadlab-live.conf"))
                .withFallback(ConfigFactory.defaultReference())
                .resolve();
    }
}

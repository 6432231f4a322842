package org.loadlab.shell.live;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
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

    private LiveRunner() {
    }

    /**
     * Runs {@code spec} live and blocks until it is over (every request answered, rejected
     * or lost, or the drain timeout passed).
     *
     * @param timeScale scenario seconds per real second, > 0
     * @return the run's metrics and the number of messages sent
     */
    public static SimulationRunner.Outcome run(RunSpec spec, double timeScale) {
        long t0 = System.nanoTime();
        Scenario s = spec.scenario();
        if (s.isReferenceModel()) {
            throw new IllegalArgumentException("scenario " + s.name() + " uses the time-stepped reference model, which only"
                    + " simulates; run it without --mode live");
        }
        if (s.isBallsIntoBins()) {
            throw new IllegalArgumentException("scenario " + s.name() + " uses model = balls-into-bins, whose bins never serve;"
                    + " it only simulates: run it without --mode live");
        }
        AtomicReferenceArray<LoadSnapshot> board = new AtomicReferenceArray<>(s.nodes().count());
        boolean oracle = s.information().model().equals("oracle") && !Scenario.isLoadSharing(spec.policy());
        RunAssembly assembly = RunAssembly.build(spec, oracle ? boardView(board) : null);
        if (!assembly.partitions().isEmpty()) {
            throw new IllegalArgumentException("scenario " + s.name() + " has partition events, which only the simulation"
                    + " cuts; run it without --mode live (on a cluster, cut the network for real: docs/cluster.md)");
        }
        RunRecorder recorder = new RunRecorder(s.nodes().count(), assembly.warmupSeconds(), s.seriesInterval());
        Replay replay = new Replay(new RequestLedger(new RecorderSink(recorder)));
        ObservationLog sink = new ObservationLog();

        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "loadlab-live", liveConfig());
        double end;
        try {
            Directory directory = new Directory();
            LiveClock clock = LiveClock.startingNow(timeScale);
            java.util.function.BiConsumer<Logic<?>, Double> publish = !oracle ? null
                    : (logic, now) -> {
                        BackendNode node = (BackendNode) logic;
                        board.set(node.id().index(), node.snapshot(now));
                    };
            ActorRef<Message>[] nodes = spawnAll(system, directory, clock, sink, spec, assembly, publish);
            for (RunAssembly.ScheduledEvent e : assembly.events()) {
                ActorRef<Message> ref = directory.lookup(e.to());
                system.scheduler().scheduleOnce(clock.realDuration(e.at()), () -> ref.tell(e.message()), system.executionContext());
            }
            LogicActor.Start start = new LogicActor.Start();
            for (ActorRef<Message> ref : nodes) {
                ref.tell(start);
            }
            end = awaitEnd(assembly, sink, replay, clock, s.drainTimeout());
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
                                                java.util.function.BiConsumer<Logic<?>, Double> publish) {
        int n = assembly.nodeCount();
        int b = assembly.balancers().length;
        ActorRef<Message>[] refs = new ActorRef[n + b + 1];
        for (int j = 0; j < n; j++) {
            refs[j] = spawn(system, directory, new NodeId(j), assembly.nodeLogic(j), StreamSeeds.NODE, clock, sink, spec,
                    publish);
        }
        for (int i = 0; i < b; i++) {
            refs[n + i] = spawn(system, directory, new BalancerId(i), assembly.balancers()[i], StreamSeeds.BALANCER, clock, sink,
                    spec, null);
        }
        refs[n + b] = spawn(system, directory, new ClientId(0), assembly.driver(), StreamSeeds.CLIENT, clock, sink, spec, null);
        return refs;
    }

    private static ActorRef<Message> spawn(ActorSystem<Void> system, Directory directory, Address address,
                                           Logic<? extends Message> logic, int streamKind, LiveClock clock, MetricsSink sink,
                                           RunSpec spec,
                                           java.util.function.BiConsumer<Logic<?>, Double> afterMessage) {
        LogicActor.Wiring wiring = new LogicActor.Wiring(address, directory, clock,
                StreamSeeds.stream(spec.seed(), streamKind, address.index()), sink, afterMessage);
        ActorRef<Message> ref = system.systemActorOf(LogicActor.create(logic, wiring), address.toString(), Props.empty());
        directory.bind(address, ref);
        return ref;
    }

    private static double awaitEnd(RunAssembly assembly, ObservationLog sink, Replay replay, LiveClock clock,
                                   double drainTimeout) {
        double arrivalsEnded = Double.NaN;
        while (true) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return clock.now();
            }
            replay.feed(sink);
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
            for (Observation o : log.drain(Integer.MAX_VALUE)) {
                last = Math.max(last, o.time());
                o.applyTo(chain, last);
            }
        }
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

package org.loadlab.experiment.run;

import java.util.ArrayList;
import java.util.List;

import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.ClientId;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.ForwardingSink;
import org.loadlab.kernel.observe.RequestLedger;
import org.loadlab.kernel.sim.LatencyModel;
import org.loadlab.kernel.sim.SimEngine;
import org.loadlab.node.protocol.ResponseStatus;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Runs one {@link RunSpec} in the deterministic simulation shell and returns its metrics.
 * The run ends when the arrivals are over and every request has been answered, rejected
 * or lost, or when {@code drain-timeout} seconds have passed since the last arrival
 * (requests still in the system are then reported as such).
 */
public final class SimulationRunner {
    private SimulationRunner() {
    }

    /**
     * What one run produced, with the shell's work counters.
     *
     * @param result the metrics
     * @param events events processed (simulation) or messages handled (live)
     * @param endTime scenario time at which the run stopped, seconds
     * @param wallSeconds real time the run took, seconds (not part of the results)
     * @param nodes each backend node's state when the arrivals ended (empty when not inspected)
     */
    public record Outcome(RunResult result, long events, double endTime, double wallSeconds, List<NodeInspection> nodes) {
        /** An outcome without node inspection. */
        public Outcome(RunResult result, long events, double endTime, double wallSeconds) {
            this(result, events, endTime, wallSeconds, List.of());
        }
    }

    /** Runs {@code spec} and returns its result. */
    public static RunResult run(RunSpec spec) {
        return runCounted(spec).result();
    }

    /** Runs {@code spec} and returns its result with the number of events processed. */
    public static Outcome runCounted(RunSpec spec) {
        return runCounted(spec, generated -> { }, null, null);
    }

    /**
     * Runs {@code spec} like {@link #runCounted(RunSpec)} and lets a watcher follow it.
     *
     * @param onStart called once before the run starts with a thread-safe reader of the
     *     number of requests generated so far (for progress lines from another thread)
     */
    public static Outcome runCounted(RunSpec spec, java.util.function.Consumer<java.util.function.LongSupplier> onStart) {
        return runCounted(spec, onStart, null, null);
    }

    /**
     * Runs {@code spec} and shows every routed request and counter to {@code tap} as it happens.
     *
     * @param tap a study's tap
     */
    public static Outcome runTapped(RunSpec spec, RoutingTap tap) {
        return runCounted(spec, generated -> { }, tap, null);
    }

    /**
     * Runs {@code spec}, every balancer logging its decisions to {@code log} (for off-policy
     * evaluation), and lets a watcher follow it.
     *
     * @param onStart as in {@link #runCounted(RunSpec, java.util.function.Consumer)}
     * @param log where the balancers log their decisions
     */
    public static Outcome runLogged(RunSpec spec, java.util.function.Consumer<java.util.function.LongSupplier> onStart,
                                    org.loadlab.balancer.core.DecisionLog log) {
        return runCounted(spec, onStart, null, log);
    }

    /**
     * Runs {@code spec}, letting a watcher follow its progress, a study's tap see every
     * routed request and counter, and the balancers log their decisions.
     *
     * @param onStart called once before the run starts with a thread-safe reader of the
     *     number of requests generated so far (for progress lines from another thread)
     * @param tap a study's tap, or null
     * @param log where the balancers log their decisions (off-policy evaluation), or null
     */
    public static Outcome runCounted(RunSpec spec, java.util.function.Consumer<java.util.function.LongSupplier> onStart,
                                     RoutingTap tap, org.loadlab.balancer.core.DecisionLog log) {
        long t0 = System.nanoTime();
        Scenario s = spec.scenario();
        if (s.isReferenceModel()) {
            ModelRunner model = ModelRunner.find(s.model()).orElseThrow(() -> new IllegalStateException(
                    "scenario " + s.name() + " needs model = " + s.model() + ", which is not on the class path"));
            List<NodeInspection> nodes = new ArrayList<>();
            RunResult r = model.run(spec, nodes);
            return new Outcome(r, model.work(spec), s.duration(), (System.nanoTime() - t0) / 1e9, List.copyOf(nodes));
        }
        RunAssembly assembly = RunAssembly.build(spec);
        if (log != null) {
            for (org.loadlab.balancer.core.BalancerLogic b : assembly.balancers()) {
                b.decisionLog(log);
            }
            // A request a failed node loses is news to no balancer (a fail is not membership
            // news), so the nodes end it in the log themselves: lost, status 503, at the loss.
            for (org.loadlab.node.backend.ServingNode node : assembly.nodes()) {
                node.lostRequests((request, now) -> log.finished(request.id(), ResponseStatus.RESET, now));
            }
        }
        onStart.accept(assembly.driver()::generated);
        RunRecorder recorder = new RunRecorder(s.nodes().count(), assembly.warmupSeconds(), s.seriesInterval())
                .slaLatency(s.autonomy().slaLatency());
        LandedBalls landed = s.isBallsIntoBins() ? new LandedBalls(new RecorderSink(recorder), s.nodes().count()) : null;
        MetricsSink last = landed != null ? landed : new RecorderSink(recorder);
        if (tap != null) {
            last = new ForwardingSink(last) {
                @Override
                public void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
                    tap.routed(now, balancer, node);
                    super.routed(now, balancer, node, decisionStart, arrivalTime);
                }

                @Override
                public void count(double now, String name, long delta) {
                    tap.counted(now, name, delta);
                    super.count(now, name, delta);
                }
            };
        }
        RequestLedger sink = new RequestLedger(last);
        SimEngine engine = new SimEngine(spec.seed(), s.nodes().count(), assembly.balancers().length, 1,
                assembly.services().size(), new LatencyModel(s.network().latency(), s.network().jitter()), sink);
        for (int j = 0; j < assembly.nodeCount(); j++) {
            engine.register(NodeId.of(j), assembly.nodeLogic(j));
        }
        for (int i = 0; i < assembly.balancers().length; i++) {
            engine.register(new BalancerId(i), assembly.balancers()[i]);
        }
        engine.register(new ClientId(0), assembly.driver());
        for (int v = 0; v < assembly.services().size(); v++) {
            engine.register(new org.loadlab.kernel.ServiceId(v), assembly.services().get(v));
        }
        for (RunAssembly.ScheduledEvent e : assembly.events()) {
            engine.schedule(e.at(), e.to(), e.message());
        }
        for (RunAssembly.Partition p : assembly.partitions()) {
            List<Address> balancers = new ArrayList<>();
            for (int i = 0; i < assembly.balancers().length; i++) {
                balancers.add(new BalancerId(i));
            }
            engine.cut(p.from(), p.until(), p.nodes().stream().map(NodeId::of).toList(), balancers);
        }
        double[] lastArrivalEnd = {Double.NaN};
        List<NodeInspection> inspection = new ArrayList<>();
        double drain = s.drainTimeout();
        double end = engine.run(() -> {
            if (!assembly.driver().finished()) {
                return false;
            }
            if (landed != null) {
                // Balls into bins: done when every ball has landed (or was refused or lost).
                return sink.rejected() + sink.lost() + landed.total() == assembly.driver().generated();
            }
            if (Double.isNaN(lastArrivalEnd[0])) {
                lastArrivalEnd[0] = engine.now();
                inspection.addAll(NodeInspection.of(assembly, engine.now())); // the loaded cluster, before it drains
            }
            return sink.resolved() == assembly.driver().generated() || engine.now() > lastArrivalEnd[0] + drain;
        }, Double.POSITIVE_INFINITY);
        if (landed != null) {
            inspection.addAll(NodeInspection.of(assembly, end)); // the final loads of the bins
        }
        RunResult result = new RunResult(s.name(), spec.policy(), spec.seed(), recorder.finish(end));
        assembly.checkConservation(result.metrics()); // arrived = completed + in system + lost, or a clear error
        return new Outcome(result, engine.events(), end, (System.nanoTime() - t0) / 1e9, List.copyOf(inspection));
    }
}

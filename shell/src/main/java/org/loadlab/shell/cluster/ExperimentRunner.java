package org.loadlab.shell.cluster;

import org.loadlab.shell.metrics.SinkFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.loadlab.analysis.io.ResultsCsv;
import org.loadlab.analysis.io.ResultsJson;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.io.TimeseriesCsv;
import org.loadlab.analysis.run.ResponseTimeHistogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.shell.actor.Directory;
import org.loadlab.shell.actor.LogicActor;
import org.loadlab.shell.actor.ScaledClockCheck;
import org.loadlab.shell.actor.TimerLag;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.ClientId;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.kernel.observe.ObservationLog;
import org.loadlab.experiment.run.RunAssembly;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.workload.driver.WorkloadDriver;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Runs one experiment from the gateway: asks the members to prepare their share of the
 * run, starts it when every member is ready, drives the workload (the simulation's
 * {@link WorkloadDriver} in a LogicActor, real time), merges the members' observations into
 * the run recorder, follows membership (a removed member's nodes get queue 0; the
 * balancers count their lost requests), ends the run when every request is resolved or
 * the drain timeout passes, writes the same result files as {@code simulate}, and answers
 * the control API's questions about the experiment.
 */
public final class ExperimentRunner extends AbstractBehavior<Protocol.RunnerCommand> {

    /**
     * Where a member's share of the run lives.
     *
     * @param member member address
     * @param host its Host actor
     * @param nodes node indices it hosts
     * @param balancers balancer indices it hosts
     */
    public record Placement(String member, ActorRef<Protocol.HostCommand> host, List<Integer> nodes, List<Integer> balancers) {
    }

    /**
     * What to run.
     *
     * @param id experiment id
     * @param scenario validated scenario
     * @param policy initial policy
     * @param seed master seed
     * @param timeScale scenario seconds per real second
     * @param baseDir directory relative trace paths are resolved against
     * @param placements members and their shares, by member address
     * @param warmupFor null for an experiment; for a JIT warm-up run, the id of the experiment it warms the
     *     members up for (its observations are counted but no files are written)
     * @param awaitWarmup true if this experiment waits for {@link Proceed} (its warm-up run ended) before it
     *     asks the members to prepare
     */
    public record Definition(String id, Scenario scenario, String policy, long seed, double timeScale, String baseDir,
                             Map<String, Placement> placements, String warmupFor, boolean awaitWarmup) {
        /** An experiment that starts at once. */
        public Definition(String id, Scenario scenario, String policy, long seed, double timeScale, String baseDir,
                          Map<String, Placement> placements) {
            this(id, scenario, policy, seed, timeScale, baseDir, placements, null, false);
        }
    }

    /** From the gateway: the JIT warm-up run ended, start the experiment. */
    public record Proceed() implements Protocol.RunnerCommand {
    }

    // ---- local messages (never leave the gateway)
    private record Tick() implements Protocol.RunnerCommand {
    }

    private record StartTimeout() implements Protocol.RunnerCommand {
    }

    /** Time to judge the last window of timer lag ({@link ScaledClockCheck#WINDOW_MILLIS}). */
    private record LagWindowDue() implements Protocol.RunnerCommand {
    }

    private record StopTimeout() implements Protocol.RunnerCommand {
    }

    private record CheckpointDue() implements Protocol.RunnerCommand {
    }

    private record Scripted(int index) implements Protocol.RunnerCommand {
    }

    private record NodeListing(Receptionist.Listing listing) implements Protocol.RunnerCommand {
    }

    private record BalancerListing(Receptionist.Listing listing) implements Protocol.RunnerCommand {
    }

    private record Removed(ClusterEvent.MemberRemoved event) implements Protocol.RunnerCommand {
    }

    private record Reachability(ClusterEvent.ReachabilityEvent event) implements Protocol.RunnerCommand {
    }

    /** Control API: the experiment's status. */
    public record GetStatus(ActorRef<GatewayReply> replyTo) implements Protocol.RunnerCommand {
    }

    /**
     * Stop the experiment (its results so far are written and its end journaled): DELETE
     * /experiments/{id}, or the gateway's own shutdown ({@link Gateway.StopAll}).
     *
     * @param replyTo told 202 with the status (409 if it had already ended)
     * @param reason the end reason its status and run-info.json give, e.g. "stopped by request"
     */
    public record Stop(ActorRef<GatewayReply> replyTo, String reason) implements Protocol.RunnerCommand {
        /** DELETE /experiments/{id}: "stopped by request". */
        public Stop(ActorRef<GatewayReply> replyTo) {
            this(replyTo, BY_REQUEST);
        }
    }

    /** The end reason of an experiment stopped with DELETE. */
    static final String BY_REQUEST = "stopped by request";

    /** Control API: switch the balancers' policy. */
    public record Policy(String policy, ActorRef<GatewayReply> replyTo) implements Protocol.RunnerCommand {
    }

    /** Control API: inject a fault into a node ({@code fault} = clear clears its faults). */
    public record ChaosRequest(int node, String fault, double value, ActorRef<GatewayReply> replyTo) implements Protocol.RunnerCommand {
    }

    /** Control API: the nodes' status. */
    public record Nodes(ActorRef<GatewayReply> replyTo) implements Protocol.RunnerCommand {
    }

    /** Control API: the balancers' explanations. */
    public record Explain(int lastDecisions, ActorRef<GatewayReply> replyTo) implements Protocol.RunnerCommand {
    }

    private record PolicySwitched(String policy, List<Protocol.Ack> acks, ActorRef<GatewayReply> replyTo)
            implements Protocol.RunnerCommand {
    }

    /** States of an experiment. */
    enum State { STARTING, RUNNING, DRAINING, STOPPING, FINISHED, STOPPED, FAILED }

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(3);
    /** Writes the result files (the same shapes as {@code simulate}'s). */
    private static final ObjectMapper FILES = new ObjectMapper();

    private final Definition def;
    private final ActorRef<ExperimentEntity.Command> journal;
    private final Runnable onEnded;
    private final ClusterSettings settings;
    private final TimerScheduler<Protocol.RunnerCommand> timers;
    private final ExperimentClock clock;
    private final ObservationLog driverLog = new ObservationLog();
    private final org.loadlab.kernel.MetricsSink driverSink;
    private final ObservationMerger merger;
    private final RunAssembly assembly;
    /** Where the measurement window starts, seconds (warmup, or the arrival of request warmup-requests + 1). */
    private final double warmup;
    private final WorkloadDriver driver;
    private final Directory driverDirectory = new Directory();
    private final Map<Integer, ActorRef<Message>> nodeRefs = new HashMap<>();
    private final Set<String> ready = new HashSet<>();
    private final Set<String> removedMembers = new HashSet<>();
    private final Set<String> waitingStop = new HashSet<>();
    private final List<Protocol.BalancerHeld> censuses = new ArrayList<>();
    private final List<Protocol.PeerHeld> peerCensuses = new ArrayList<>();
    private RequestAccounting accounting;
    private final List<Map<String, Object>> events = new ArrayList<>();
    private final List<Map<String, Object>> policyChanges = new ArrayList<>();
    private final Instant createdAt = Instant.now();
    private final int balancerCount;
    private State state = State.STARTING;
    private Instant startedAt;
    private Instant finishedAt;
    private long startedNanos;
    private double wallSeconds = Double.NaN;
    private double arrivalsEndedAt = Double.NaN;
    private double endAt = Double.NaN;
    private boolean userStopped;
    private String stopReason;
    private String error;
    private String currentPolicy;
    private ActorRef<Message> driverRef;
    private RunMetrics finalMetrics;
    private Path resultsDir;
    private boolean balancersComplete;
    private boolean warmingUp;
    /** How late the driver's timers (arrivals) fire on this gateway. */
    private final TimerLag driverLag = new TimerLag();
    /** Judges the run's timer lag; null for a JIT warm-up run or with loadlab.cluster.timer-lag-check off. */
    private final ScaledClockCheck clockCheck;
    /** Timer lag of every actor of the run (members' reports and the driver). */
    private final LagReports lag = new LagReports();
    /** Why the run fell behind its scaled clock, or null. */
    private String fellBehind;
    /**
     * Members the failure detector found unreachable during the run (frozen, cut off): their
     * timers' lateness is the fault's, measured in the results, not the time scale's, so their
     * later reports are left out of the judgement.
     */
    private final Set<String> faultedMembers = new HashSet<>();

    /**
     * @param def what to run
     * @param settings the gateway member's settings
     * @param tees give the driver's observations (Kamon), or {@link SinkFactory#NONE}
     * @param onEnded called (on this actor's thread) once the experiment has finished, stopped or failed
     */
    public static Behavior<Protocol.RunnerCommand> create(Definition def, ClusterSettings settings, SinkFactory tees,
                                                          Runnable onEnded) {
        return create(def, settings, tees, null, onEnded);
    }

    /**
     * @param def what to run
     * @param settings the gateway member's settings
     * @param tees give the driver's observations (Kamon), or {@link SinkFactory#NONE}
     * @param journal the experiment's entity, told its checkpoints and its end; null to journal nothing
     * @param onEnded called (on this actor's thread) once the experiment has finished, stopped or failed
     */
    public static Behavior<Protocol.RunnerCommand> create(Definition def, ClusterSettings settings, SinkFactory tees,
                                                          ActorRef<ExperimentEntity.Command> journal, Runnable onEnded) {
        return create(def, settings, tees, journal, null, onEnded);
    }

    /**
     * @param def what to run
     * @param settings the gateway member's settings
     * @param tees give the driver's observations (Kamon), or {@link SinkFactory#NONE}
     * @param journal the experiment's entity, or null
     * @param assembly the run's cores built from {@code def} (off the actors' threads), or null to build them here
     * @param onEnded called (on this actor's thread) once the experiment has finished, stopped or failed
     */
    public static Behavior<Protocol.RunnerCommand> create(Definition def, ClusterSettings settings, SinkFactory tees,
                                                          ActorRef<ExperimentEntity.Command> journal, RunAssembly assembly,
                                                          Runnable onEnded) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(t -> new ExperimentRunner(ctx, t, def, settings, tees, journal,
                assembly, onEnded)));
    }

    private ExperimentRunner(ActorContext<Protocol.RunnerCommand> ctx, TimerScheduler<Protocol.RunnerCommand> timers,
                             Definition def, ClusterSettings settings, SinkFactory tees,
                             ActorRef<ExperimentEntity.Command> journal, RunAssembly built, Runnable onEnded) {
        super(ctx);
        this.def = def;
        this.journal = journal;
        this.onEnded = onEnded;
        this.settings = settings;
        this.timers = timers;
        this.currentPolicy = def.policy();
        this.warmingUp = def.awaitWarmup();
        Scenario s = def.scenario();
        this.clock = new ExperimentClock(def.timeScale());
        this.driverSink = tees.wrap(def.id(), def.timeScale(), driverLog);
        this.assembly = built != null ? built : RunAssembly.build(new RunSpec(s, def.policy(), def.seed()));
        this.warmup = assembly.warmupSeconds();
        this.merger = new ObservationMerger(new RunRecorder(s.nodes().count(), warmup, s.seriesInterval()), def.timeScale());
        merger.expect(DRIVER);
        def.placements().keySet().forEach(merger::expect);
        this.driver = assembly.driver();
        this.balancerCount = assembly.balancers().length;
        this.clockCheck = def.warmupFor() != null || Double.isInfinite(settings.timerLagTolerance()) ? null
                : new ScaledClockCheck(def.timeScale(), settings.timerLagTolerance(), s);

        // One adapter per message class: the listing's key tells nodes from balancers.
        org.apache.pekko.actor.typed.receptionist.ServiceKey<Message> nodesKey = Protocol.nodesKey(def.id());
        ActorRef<Receptionist.Listing> adapter = ctx.messageAdapter(Receptionist.Listing.class,
                l -> l.isForKey(nodesKey) ? new NodeListing(l) : new BalancerListing(l));
        ctx.getSystem().receptionist().tell(Receptionist.subscribe(nodesKey, adapter));
        ctx.getSystem().receptionist().tell(Receptionist.subscribe(Protocol.balancersKey(def.id()), adapter));
        Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(
                ctx.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new), ClusterEvent.MemberRemoved.class));
        Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(
                ctx.messageAdapter(ClusterEvent.ReachabilityEvent.class, Reachability::new), ClusterEvent.ReachabilityEvent.class));
        timers.startTimerWithFixedDelay(new Tick(), settings.flushInterval());
        if (!def.awaitWarmup()) {
            prepare();
        }
    }

    /** Asks every member to build its share of the run. */
    private void prepare() {
        warmingUp = false;
        for (Placement p : def.placements().values()) {
            p.host().tell(new Protocol.PrepareExperiment(def.id(), def.scenario().resolvedJson(), def.baseDir(), def.policy(),
                    def.seed(), def.timeScale(), p.nodes(), p.balancers(), getContext().getSelf()));
        }
        timers.startSingleTimer(new StartTimeout(), settings.startTimeout());
    }

    @Override
    public Receive<Protocol.RunnerCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(Proceed.class, p -> {
                    if (state == State.STARTING && warmingUp) {
                        prepare();
                    }
                    return this;
                })
                .onMessage(Protocol.HostReady.class, r -> {
                    ready.add(r.member());
                    maybeBegin();
                    return this;
                })
                .onMessage(Protocol.HostFailed.class, f -> {
                    fail("member " + f.member() + " could not prepare the experiment: " + f.error());
                    return this;
                })
                .onMessage(Protocol.ObservationBatch.class, b -> {
                    merger.add(b);
                    return this;
                })
                .onMessage(Protocol.HostStopped.class, s -> {
                    if (waitingStop.contains(s.member())) {
                        censuses.addAll(s.held());
                        peerCensuses.addAll(s.peers());
                    }
                    waitingStop.remove(s.member());
                    maybeFinalize();
                    return this;
                })
                .onMessage(Tick.class, t -> onTick())
                .onMessage(Protocol.TimerLagReport.class, r -> {
                    if (!faultedMembers.contains(r.member()) && !removedMembers.contains(r.member())) {
                        lag.add(r.timers(), r.meanLateNanos(), r.maxLateNanos());
                    }
                    return this;
                })
                .onMessage(LagWindowDue.class, w -> onLagWindow())
                .onMessage(CheckpointDue.class, c -> {
                    if (active()) {
                        checkpoint();
                    }
                    return this;
                })
                .onMessage(StartTimeout.class, t -> {
                    if (state == State.STARTING) {
                        Set<String> missing = new HashSet<>(def.placements().keySet());
                        missing.removeAll(ready);
                        fail("not every member was ready within " + settings.startTimeout().toMillis() + " ms: waiting for "
                                + (missing.isEmpty() ? "the balancers' registration" : missing));
                    }
                    return this;
                })
                .onMessage(StopTimeout.class, t -> {
                    waitingStop.clear();
                    maybeFinalize();
                    return this;
                })
                .onMessage(Scripted.class, e -> {
                    RunAssembly.ScheduledEvent ev = assembly.events().get(e.index());
                    ActorRef<Message> ref = ev.to() instanceof NodeId node ? nodeRefs.get(node.index()) : null;
                    if (ref != null && (state == State.RUNNING || state == State.DRAINING)) {
                        ref.tell(ev.message());
                    }
                    return this;
                })
                .onMessage(NodeListing.class, l -> {
                    for (ActorRef<Message> ref : l.listing().getAllServiceInstances(Protocol.nodesKey(def.id()))) {
                        int j = HostedExperiment.indexOf(ref, "node-");
                        if (j >= 0 && j < assembly.nodeCount()) {
                            nodeRefs.put(j, ref);
                            if (assembly.loadSharing()) {
                                driverDirectory.bind(NodeId.of(j), ref); // the driver sends a load-sharing run's tasks to nodes
                            }
                        }
                    }
                    maybeBegin();
                    return this;
                })
                .onMessage(BalancerListing.class, l -> onBalancerListing(l.listing()))
                .onMessage(Removed.class, r -> onRemoved(r.event().member().address().toString()))
                .onMessage(Reachability.class, r -> onReachability(r.event()))
                .onMessage(GetStatus.class, g -> {
                    g.replyTo().tell(GatewayReply.ok(status()));
                    return this;
                })
                .onMessage(Stop.class, this::onStop)
                .onMessage(Policy.class, this::onPolicy)
                .onMessage(PolicySwitched.class, this::onPolicySwitched)
                .onMessage(ChaosRequest.class, this::onChaos)
                .onMessage(Nodes.class, this::onNodes)
                .onMessage(Explain.class, this::onExplain)
                .build();
    }

    private boolean active() {
        return state == State.STARTING || state == State.RUNNING || state == State.DRAINING;
    }

    // ------------------------------------------------------------------ start

    private Behavior<Protocol.RunnerCommand> onBalancerListing(Receptionist.Listing listing) {
        Map<Integer, ActorRef<Message>> present = new TreeMap<>();
        for (ActorRef<Message> ref : listing.getServiceInstances(Protocol.balancersKey(def.id()))) {
            int i = HostedExperiment.indexOf(ref, "balancer-");
            if (i >= 0 && i < balancerCount) {
                present.put(i, ref);
            }
        }
        if (present.size() == balancerCount) {
            balancersComplete = true;
        }
        if (!present.isEmpty()) {
            ActorRef<Message> spare = present.values().iterator().next();
            for (int i = 0; i < balancerCount; i++) {
                // Arrivals for a balancer that is gone go to a live one (it answers them itself).
                driverDirectory.bind(new BalancerId(i), present.getOrDefault(i, spare));
            }
        }
        maybeBegin();
        return this;
    }

    private void maybeBegin() {
        boolean targets = assembly.loadSharing() ? nodeRefs.size() >= assembly.nodeCount() : balancersComplete;
        if (state != State.STARTING || warmingUp || !targets || !ready.containsAll(def.placements().keySet())) {
            return;
        }
        long origin = ExperimentClock.epochMicros();
        clock.begin(origin);
        for (Placement p : def.placements().values()) {
            p.host().tell(new Protocol.BeginRun(def.id(), origin));
        }
        LogicActor.Wiring wiring = new LogicActor.Wiring(new ClientId(0), driverDirectory, clock,
                StreamSeeds.stream(def.seed(), StreamSeeds.CLIENT, 0), driverSink, null, driverLag);
        driverRef = getContext().spawn(LogicActor.create(driver, wiring), "driver", Gateway.RUNNER_DISPATCHER);
        if (clockCheck != null) {
            timers.startTimerWithFixedDelay(new LagWindowDue(), Duration.ofMillis(ScaledClockCheck.WINDOW_MILLIS));
        }
        driverRef.tell(new LogicActor.Start());
        List<RunAssembly.ScheduledEvent> scripted = assembly.events();
        for (int k = 0; k < scripted.size(); k++) {
            timers.startSingleTimer(new Scripted(k), clock.realDuration(scripted.get(k).at()));
        }
        state = State.RUNNING;
        startedAt = Instant.now();
        startedNanos = System.nanoTime();
        timers.cancel(new StartTimeout());
        if (journal != null) {
            checkpoint();
            timers.startTimerWithFixedDelay(new CheckpointDue(), settings.checkpointInterval());
        }
    }

    // ------------------------------------------------------------------ run

    private Behavior<Protocol.RunnerCommand> onTick() {
        drainDriver(clock.now() - settings.flushInterval().toNanos() / 1e9 * def.timeScale());
        if (state == State.RUNNING || state == State.DRAINING || state == State.STOPPING) {
            // Up to where every member has sent everything, but never more than merge-lag behind the clock.
            merger.releaseUpTo(clock.now() - settings.mergeLag().toNanos() / 1e9 * def.timeScale());
        }
        double now = clock.now();
        if (state == State.RUNNING && driver.finished()) {
            state = State.DRAINING;
            arrivalsEndedAt = now;
        }
        if (state == State.DRAINING) {
            long generated = driver.generated();
            if (merger.ledger().arrived() >= generated && merger.ledger().resolved() >= generated) {
                stopRun("completed: every request resolved");
            } else if (now > arrivalsEndedAt + def.scenario().drainTimeout()) {
                stopRun("drain timeout: " + (generated - merger.ledger().resolved()) + " request(s) unresolved");
            }
        }
        return this;
    }

    /**
     * Judges the last window of timer lag: a run whose timers stay too late for the scenario's
     * service times is stopped and fails (its response times would be wrong), as live mode stops.
     */
    private Behavior<Protocol.RunnerCommand> onLagWindow() {
        lag.add(driverLag.window());
        TimerLag.Window w = lag.window();
        if ((state == State.RUNNING || state == State.DRAINING) && clockCheck.look(w)) {
            fellBehind = fellBehindMessage(w.meanNanos(), "over the last second");
            stopRun("fell behind the scaled clock");
        }
        return this;
    }

    private String fellBehindMessage(double meanNanos, String when) {
        return String.format(java.util.Locale.ROOT, "experiment %s (%s / %s / seed %d) fell behind the scaled clock: at"
                        + " timeScale %s %s. Run it with a smaller timeScale (about %s or less on this cluster now), or"
                        + " simulate it: the same logic in simulated time", def.id(), def.scenario().name(), def.policy(),
                def.seed(), ScaledClockCheck.plain(def.timeScale()), clockCheck.lateness(meanNanos, when),
                ScaledClockCheck.plain(clockCheck.suggestion(meanNanos)));
    }

    private void stopRun(String reason) {
        endAt = clock.now();
        wallSeconds = (System.nanoTime() - startedNanos) / 1e9;
        stopReason = reason;
        state = State.STOPPING;
        if (driverRef != null) {
            getContext().stop(driverRef);
        }
        for (Placement p : def.placements().values()) {
            if (!removedMembers.contains(p.member())) {
                waitingStop.add(p.member());
                p.host().tell(new Protocol.StopExperiment(def.id()));
            }
        }
        timers.startSingleTimer(new StopTimeout(), settings.stopTimeout());
        maybeFinalize();
    }

    private void maybeFinalize() {
        if (state != State.STOPPING || !waitingStop.isEmpty()) {
            return;
        }
        timers.cancel(new StopTimeout());
        timers.cancel(new Tick());
        timers.cancel(new LagWindowDue());
        lag.add(driverLag.window());
        if (fellBehind == null && clockCheck != null && clockCheck.behindOverRun(lag.timers(), lag.meanNanos())) {
            fellBehind = fellBehindMessage(lag.meanNanos(), "over the run");
        }
        drainDriver(Double.MAX_VALUE);
        finalMetrics = merger.finish(endAt, warmup);
        finishedAt = Instant.now();
        state = userStopped ? State.STOPPED : State.FINISHED;
        accounting = account();
        if (def.warmupFor() != null) {
            if (!accounting.ok()) {
                getContext().getLog().warn("JIT warm-up run {}: {}", def.id(), accounting.summary());
            }
            onEnded.run(); // a warm-up run writes no files
            return;
        }
        if (!accounting.ok() || fellBehind != null) {
            // Loudly: the run's numbers cannot be trusted, so the experiment fails (its files are still written).
            error = !accounting.ok() && fellBehind != null ? accounting.summary() + "; " + fellBehind
                    : !accounting.ok() ? accounting.summary() : fellBehind;
            state = State.FAILED;
            getContext().getLog().error("experiment {}: {}", def.id(), error);
        }
        try {
            writeResults();
        } catch (IOException | RuntimeException e) {
            error = "could not write results: " + e;
        }
        journalEnd();
        onEnded.run();
    }

    /** Journals the merged status so far (the experiment's results if the gateway dies now). */
    private void checkpoint() {
        journal.tell(new ExperimentEntity.Checkpoint(StatusJson.write(status())));
    }

    /** Journals the end with the final status. */
    private void journalEnd() {
        if (journal != null) {
            timers.cancel(new CheckpointDue());
            journal.tell(new ExperimentEntity.End(stateName(), StatusJson.write(status())));
        }
    }

    /** Source name of the driver's records in the merger. */
    private static final String DRIVER = "driver";

    /** Hands the driver's records to the merger; everything it made before {@code watermark} is among them. */
    private void drainDriver(double watermark) {
        merger.add(DRIVER, driverLog.drain(Integer.MAX_VALUE), watermark);
    }

    /** The books of the run: every generated request completed, rejected, lost, or unresolved with its reason. */
    private RequestAccounting account() {
        Set<Integer> gone = new HashSet<>();
        for (Placement p : def.placements().values()) {
            if (removedMembers.contains(p.member())) {
                gone.addAll(p.balancers());
            }
        }
        var l = merger.ledger();
        if (assembly.loadSharing()) {
            Set<Integer> goneNodes = new HashSet<>();
            for (Placement p : def.placements().values()) {
                if (removedMembers.contains(p.member())) {
                    goneNodes.addAll(p.nodes());
                }
            }
            return RequestAccounting.ofPeers(driver.generated(), l.arrived(), l.completed(), l.rejected(), l.lost(),
                    peerCensuses, goneNodes, assembly.nodeCount(), merger.undelivered("arrival"), merger.dropped(),
                    merger.undelivered());
        }
        return RequestAccounting.of(driver.generated(), l.arrived(), l.completed(), l.rejected(), l.lost(), censuses,
                merger.lostByNodes(), gone,
                balancerCount, merger.undelivered("arrival"), merger.dropped(), merger.undelivered());
    }

    private void writeResults() throws IOException {
        Path dir = settings.resultsDir().resolve(def.id());
        Files.createDirectories(dir);
        List<RunResult> results = List.of(new RunResult(def.scenario().name(), def.policy(), def.seed(), finalMetrics));
        JsonNode scenarioJson = FILES.readTree(def.scenario().resolvedJson());
        ResultsCsv.write(dir.resolve("results.csv"), results);
        ResultsJson.write(dir.resolve("results.json"), scenarioJson, results);
        TimeseriesCsv.write(dir.resolve("timeseries.csv"), results);
        FILES.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("run-info.json").toFile(), runInfo());
        resultsDir = dir;
    }

    private void fail(String why) {
        endEarly(State.FAILED, why);
    }

    /**
     * Ends the experiment where it is, without a run to stop: {@code FAILED} with {@code why} as
     * its error, or {@code STOPPED} (DELETE before it started, e.g. during the JIT warm-up) with
     * {@code why} as its end reason. The state is set before the end is journaled, so a later
     * gateway reads the same state (a stop before the start used to be journaled as failed).
     */
    private void endEarly(State end, String why) {
        if (!active()) {
            return;
        }
        if (end == State.FAILED) {
            error = why;
        } else {
            stopReason = why;
        }
        if (driverRef != null) {
            getContext().stop(driverRef);
        }
        for (Placement p : def.placements().values()) {
            p.host().tell(new Protocol.StopExperiment(def.id()));
        }
        timers.cancel(new Tick());
        timers.cancel(new LagWindowDue());
        state = end;
        finishedAt = Instant.now();
        journalEnd();
        onEnded.run();
    }

    private Behavior<Protocol.RunnerCommand> onRemoved(String member) {
        Placement p = def.placements().get(member);
        if (p == null || !removedMembers.add(member)) {
            return this;
        }
        double now = clock.now();
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("atSeconds", now);
        e.put("event", "member-removed");
        e.put("member", member);
        e.put("nodes", p.nodes());
        e.put("balancers", p.balancers());
        events.add(e);
        if (state == State.STARTING) {
            fail("member " + member + " left the cluster while the experiment was starting");
            return this;
        }
        merger.forget(member);
        if (state == State.RUNNING || state == State.DRAINING || state == State.STOPPING) {
            for (int j : p.nodes()) {
                merger.addQueueReset(now, j, def.scenario().nodes().servers());
            }
        }
        waitingStop.remove(member);
        maybeFinalize();
        return this;
    }

    /** Records when a member taking part became unreachable or reachable again (the failure detector's view). */
    private Behavior<Protocol.RunnerCommand> onReachability(ClusterEvent.ReachabilityEvent event) {
        String member = event.member().address().toString();
        if (!def.placements().containsKey(member) || !active()) {
            return this;
        }
        if (event instanceof ClusterEvent.UnreachableMember) {
            faultedMembers.add(member);
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("atSeconds", clock.now());
        e.put("event", event instanceof ClusterEvent.UnreachableMember ? "member-unreachable" : "member-reachable");
        e.put("member", member);
        events.add(e);
        return this;
    }

    // ------------------------------------------------------------------ control API

    private Behavior<Protocol.RunnerCommand> onStop(Stop s) {
        if (state == State.FINISHED || state == State.STOPPED || state == State.FAILED) {
            // DELETE stops a run: an ended one has nothing to stop, and answering 202 would say it had.
            // Its status, results and journal entry stay as they are.
            s.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "experiment " + def.id() + " is " + stateName()
                    + (stopReason == null ? "" : " (" + stopReason + ")") + ": nothing to stop; its results stay"
                    + (resultsDir == null ? "" : " in " + resultsDir) + "; POST /experiments/" + def.id()
                    + "/rerun runs it again", "status", stateName(), Gateway.STOPPABLE));
            return this;
        }
        if (state == State.STARTING) {
            endEarly(State.STOPPED, s.reason() + " before it started");
        } else if (state == State.RUNNING || state == State.DRAINING) {
            userStopped = true;
            stopRun(s.reason());
        }
        s.replyTo().tell(new GatewayReply.Accepted(status()));
        return this;
    }

    private List<Placement> alive(boolean withNodes, boolean withBalancers) {
        List<Placement> list = new ArrayList<>();
        for (Placement p : def.placements().values()) {
            if (!removedMembers.contains(p.member()) && (withNodes && !p.nodes().isEmpty() || withBalancers && !p.balancers().isEmpty())) {
                list.add(p);
            }
        }
        return list;
    }

    private Behavior<Protocol.RunnerCommand> onPolicy(Policy req) {
        if (assembly.loadSharing()) {
            req.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "experiment " + def.id() + " is a load-sharing"
                    + " run (protocol " + def.policy() + "): it has no balancer to switch", "experiment", def.id(), null));
            return this;
        }
        if (!active()) {
            req.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "experiment " + def.id() + " is " + stateName()
                    + "; only a starting or running experiment can switch policy", "experiment", def.id(), null));
            return this;
        }
        // The policy switched to must fit the experiment as a new experiment with it would (power-of-k's
        // k within the allowed set, ...): the same checks, not a silently capped parameter.
        List<String> misfit = org.loadlab.experiment.scenario.ScenarioLoader.allowedSetProblems(def.scenario(), req.policy());
        if (!misfit.isEmpty()) {
            req.replyTo().tell(GatewayReply.badRequest("policy", req.policy(), misfit, "experiment " + def.id()
                    + " cannot run '" + req.policy() + "': " + String.join("; ", misfit)));
            return this;
        }
        List<Placement> hosts = alive(false, true);
        ActorRef<Protocol.RunnerCommand> self = getContext().getSelf();
        getContext().spawnAnonymous(Collect.<Protocol.Ack>behavior(hosts.size(), QUERY_TIMEOUT,
                to -> hosts.forEach(p -> p.host().tell(new Protocol.SwitchPolicy(def.id(), req.policy(), to))),
                acks -> self.tell(new PolicySwitched(req.policy(), acks, req.replyTo()))));
        return this;
    }

    private Behavior<Protocol.RunnerCommand> onPolicySwitched(PolicySwitched s) {
        boolean ok = s.acks().stream().allMatch(Protocol.Ack::ok) && !s.acks().isEmpty();
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("atSeconds", clock.now());
        change.put("from", currentPolicy);
        change.put("to", s.policy());
        change.put("ok", ok);
        policyChanges.add(change);
        if (ok) {
            currentPolicy = s.policy();
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("experiment", def.id());
        body.put("policy", currentPolicy);
        body.put("members", s.acks());
        s.replyTo().tell(ok ? GatewayReply.ok(body)
                : GatewayReply.problem(GatewayReply.Kind.MEMBER_FAILED, "not every balancer member confirmed the switch: " + s.acks(),
                "policy", s.policy(), null));
        return this;
    }

    private Placement hostOfNode(int node) {
        for (Placement p : def.placements().values()) {
            if (p.nodes().contains(node)) {
                return p;
            }
        }
        return null;
    }

    private Behavior<Protocol.RunnerCommand> onChaos(ChaosRequest c) {
        int n = def.scenario().nodes().count();
        if (assembly.loadSharing()) {
            c.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "chaos faults act on backend nodes; experiment "
                    + def.id() + " is a load-sharing run (its peers take the scenario's fail, recover and degrade events)",
                    "experiment", def.id(), null));
            return this;
        }
        if (c.node() == -1 && c.fault().equals("clear") && active()) {
            List<Placement> hosts = alive(true, false);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("atSeconds", clock.now());
            e.put("event", "chaos-clear");
            e.put("node", "all");
            events.add(e);
            getContext().spawnAnonymous(Collect.<Protocol.Ack>behavior(hosts.size(), QUERY_TIMEOUT,
                    to -> hosts.forEach(p -> p.host().tell(new Protocol.Chaos(def.id(), -1, "clear", 0, to))),
                    acks -> c.replyTo().tell(GatewayReply.ok(Map.of("experiment", def.id(), "fault", "clear", "node", "all",
                            "members", acks)))));
            return this;
        }
        if (c.node() < 0 || c.node() >= n) {
            c.replyTo().tell(GatewayReply.badRequest("node", c.node(), "0.." + (n - 1), "node " + c.node()
                    + " is not a node of experiment " + def.id()));
            return this;
        }
        if (state != State.RUNNING && state != State.DRAINING) {
            c.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "experiment " + def.id() + " is " + stateName()
                    + "; chaos needs a running experiment", "experiment", def.id(), null));
            return this;
        }
        Placement p = hostOfNode(c.node());
        if (p == null || removedMembers.contains(p.member())) {
            c.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "node " + c.node() + "'s member "
                    + (p == null ? "?" : p.member()) + " was removed from the cluster", "node", c.node(), null));
            return this;
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("atSeconds", clock.now());
        e.put("event", c.fault().equals("clear") ? "chaos-clear" : "chaos-inject");
        e.put("node", c.node());
        e.put("fault", c.fault());
        e.put("value", c.value());
        events.add(e);
        getContext().spawnAnonymous(Collect.<Protocol.Ack>behavior(1, QUERY_TIMEOUT,
                to -> p.host().tell(new Protocol.Chaos(def.id(), c.node(), c.fault(), c.value(), to)),
                acks -> c.replyTo().tell(acks.isEmpty()
                        ? GatewayReply.problem(GatewayReply.Kind.MEMBER_TIMEOUT, "member " + p.member() + " did not confirm", "node", c.node(), null)
                        : acks.get(0).ok() ? GatewayReply.ok(Map.of("experiment", def.id(), "node", c.node(), "fault", c.fault(),
                        "value", c.value(), "member", acks.get(0).member()))
                        : GatewayReply.problem(GatewayReply.Kind.CONFLICT, acks.get(0).detail(), "node", c.node(), null))));
        return this;
    }

    private Behavior<Protocol.RunnerCommand> onNodes(Nodes q) {
        List<Placement> hosts = active() ? alive(true, false) : List.of();
        List<Integer> removedNodes = new ArrayList<>();
        Map<Integer, String> removedMember = new HashMap<>();
        for (Placement p : def.placements().values()) {
            if (removedMembers.contains(p.member())) {
                for (int j : p.nodes()) {
                    removedNodes.add(j);
                    removedMember.put(j, p.member());
                }
            }
        }
        String id = def.id();
        String st = stateName();
        getContext().spawnAnonymous(Collect.<Protocol.NodesReply>behavior(hosts.size(), QUERY_TIMEOUT,
                to -> hosts.forEach(p -> p.host().tell(new Protocol.QueryNodes(id, to))),
                replies -> {
                    List<Protocol.NodeStatus> all = new ArrayList<>();
                    replies.forEach(r -> all.addAll(r.nodes()));
                    for (int j : removedNodes) {
                        all.add(new Protocol.NodeStatus(j, removedMember.get(j), "removed", null, Double.NaN, List.of()));
                    }
                    all.sort(Comparator.comparingInt(Protocol.NodeStatus::node));
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("experiment", id);
                    body.put("status", st);
                    body.put("nodes", all);
                    q.replyTo().tell(GatewayReply.ok(body));
                }));
        return this;
    }

    private Behavior<Protocol.RunnerCommand> onExplain(Explain q) {
        List<Placement> hosts = active() ? alive(false, true) : List.of();
        String id = def.id();
        String policy = currentPolicy;
        String st = stateName();
        org.loadlab.balancer.guardrail.Guardrails g = def.scenario().guardrails();
        getContext().spawnAnonymous(Collect.<Protocol.ExplainReply>behavior(hosts.size(), QUERY_TIMEOUT,
                to -> hosts.forEach(p -> p.host().tell(new Protocol.QueryExplain(id, q.lastDecisions(), to))),
                replies -> {
                    List<Protocol.BalancerExplain> all = new ArrayList<>();
                    replies.forEach(r -> all.addAll(r.balancers()));
                    all.sort(Comparator.comparingInt(Protocol.BalancerExplain::balancer));
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("experiment", id);
                    body.put("status", st);
                    body.put("policy", policy);
                    body.put("guardrails", g);
                    body.put("balancers", all);
                    q.replyTo().tell(GatewayReply.ok(body));
                }));
        return this;
    }

    // ------------------------------------------------------------------ status

    private String stateName() {
        return state.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static Map<String, Object> percentiles(Histogram h, double scale) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        if (h.getTotalCount() > 0) {
            m.put("p50", h.getValueAtPercentile(50) / scale);
            m.put("p90", h.getValueAtPercentile(90) / scale);
            m.put("p99", h.getValueAtPercentile(99) / scale);
            m.put("max", h.getMaxValue() / scale);
            m.put("mean", h.getMean() / scale);
        }
        return m;
    }

    /** Requests per second through the cluster: completions over the wall time of the run. */
    private double throughputWall() {
        double wall = Double.isNaN(wallSeconds) ? (startedNanos == 0 ? 0 : (System.nanoTime() - startedNanos) / 1e9) : wallSeconds;
        return wall > 0 ? merger.ledger().completed() / wall : 0.0;
    }

    private Map<String, Object> routing() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("decisionLatencyMicros", percentiles(merger.decisionNanos(), 1e3));
        r.put("addedLatencyMicros", percentiles(merger.addedNanos(), 1e3));
        return r;
    }

    private Map<String, Object> status() {
        Map<String, Object> o = new LinkedHashMap<>();
        Scenario s = def.scenario();
        o.put("id", def.id());
        o.put("status", stateName());
        if (warmingUp && state == State.STARTING) {
            o.put("phase", "jit-warm-up: the members run this scenario for " + settings.jitWarmup().toMillis() / 1000.0
                    + " s first (loadlab.cluster.jit-warmup)");
        }
        o.put("scenario", s.name());
        o.put("policy", currentPolicy);
        o.put("initialPolicy", def.policy());
        o.put("seed", def.seed());
        o.put("timeScale", def.timeScale());
        o.put("createdAt", createdAt.toString());
        o.put("startedAt", startedAt == null ? null : startedAt.toString());
        o.put("finishedAt", finishedAt == null ? null : finishedAt.toString());
        if (stopReason != null) {
            o.put("endReason", stopReason);
        }
        if (error != null) {
            o.put("error", error);
        }
        Map<String, Object> p = new LinkedHashMap<>();
        o.put("progress", p);
        double now = clock.now();
        p.put("scenarioSeconds", Double.isNaN(endAt) ? now : endAt);
        p.put("durationSeconds", s.duration());
        p.put("measuredFromSeconds", warmup); // the scenario's warm-up window ends here (warmup, warmup-requests)
        p.put("fraction", s.duration() > 0 ? Math.min(1.0, (Double.isNaN(endAt) ? now : endAt) / s.duration())
                : driver.finished() ? 1.0 : Double.NaN);
        p.put("generated", driver.generated());
        p.put("arrived", merger.ledger().arrived());
        p.put("completed", merger.ledger().completed());
        p.put("rejected", merger.ledger().rejected());
        p.put("lost", merger.ledger().lost());
        p.put("inSystem", merger.ledger().arrived() - merger.ledger().resolved());
        p.put("unresolved", driver.generated() - merger.ledger().resolved());
        Map<String, Object> m = new LinkedHashMap<>();
        o.put("metricsSoFar", m);
        m.put("requestsPerSecondWall", throughputWall());
        ResponseTimeHistogram h = merger.recorder().responseHistogram();
        m.put("responseCount", h.count());
        // null, not absent, before the first response (docs/http-api.md: a percentile of no samples is null)
        m.put("responseP50Seconds", h.count() > 0 ? h.valueAtPercentile(50) : null);
        m.put("responseP99Seconds", h.count() > 0 ? h.valueAtPercentile(99) : null);
        m.put("decisions", merger.decisions());
        m.put("messages", merger.messages());
        m.put("observationsClamped", merger.clamped());
        o.put("routing", routing());
        Map<String, Object> a = new LinkedHashMap<>();
        o.put("assignment", a);
        for (Placement pl : def.placements().values()) {
            Map<String, Object> x = new LinkedHashMap<>();
            a.put(pl.member(), x);
            x.put("nodes", pl.nodes());
            x.put("balancers", pl.balancers());
            x.put("removed", removedMembers.contains(pl.member()));
        }
        if (accounting != null) {
            o.put("accounting", accounting);
        }
        o.put("observations", observationStats());
        o.put("events", events);
        o.put("policyChanges", policyChanges);
        if (finalMetrics != null) {
            Map<String, Object> r = new LinkedHashMap<>();
        o.put("results", r);
            r.put("dir", resultsDir == null ? null : resultsDir.toString());
            r.put("metrics", finalMetrics);
        }
        return o;
    }

    /** How the members' observations came in: batches, records, the largest flush, what was dropped. */
    private Map<String, Object> observationStats() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("batches", merger.batches());
        m.put("records", merger.records());
        m.put("largestFlushRecords", merger.largestFlush());
        m.put("maxRecordsPerBatch", Protocol.ObservationBatch.MAX_RECORDS);
        m.put("clamped", merger.clamped());
        m.put("refusedByRecorder", merger.refused());
        m.put("droppedByMembers", merger.droppedByMember());
        m.put("undeliveredMessages", merger.undelivered());
        return m;
    }

    private Map<String, Object> runInfo() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("mode", "cluster");
        info.put("experiment", def.id());
        info.put("wall_seconds", wallSeconds);
        info.put("requests_per_second_wall", throughputWall());
        info.put("end_reason", stopReason);
        info.put("time_scale", def.timeScale());
        info.put("observations_clamped", merger.clamped());
        info.put("observations_dropped", merger.dropped());
        info.put("timers", lag.timers());
        info.put("timer_lag_mean_ms", lag.meanNanos() / 1e6);
        info.put("timer_lag_max_ms", lag.maxNanos() / 1e6);
        info.put("timer_lag_members_left_out", new java.util.TreeSet<>(faultedMembers));
        info.put("observations", observationStats());
        info.put("accounting", accounting);
        info.put("routing", routing());
        info.put("assignment", status().get("assignment"));
        info.put("events", events);
        info.put("policy_changes", policyChanges);
        info.put("java", System.getProperty("java.version"));
        return info;
    }
}

package org.loadlab.shell.cluster;

import org.loadlab.shell.metrics.SinkFactory;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.core.DecisionRecord;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.kernel.observe.ObservationColumns;
import org.loadlab.kernel.observe.ObservationLog;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.node.sharing.PeerNode;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.shell.actor.Directory;
import org.loadlab.shell.actor.LogicActor;
import org.loadlab.shell.actor.TimerLag;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.ServiceId;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.experiment.run.RunAssembly;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;

/**
 * One experiment on one member: builds the run's cores from the scenario (the same
 * {@link RunAssembly} as the simulation, so every scenario key means what it means there),
 * spawns a LogicActor for each node and balancer assigned here, registers them with the
 * Receptionist, keeps the {@link Directory} of logical addresses current from the
 * Receptionist's listings, turns Pekko membership into the cores' membership messages
 * ({@code NodeUnreachable}, {@code NodeReachable}, {@code NodeRemoved}), ships the cores'
 * observations to the gateway in bounded chunks, and carries out the gateway's commands
 * (begin, chaos, policy switch, queries, stop). It decides nothing itself.
 */
final class HostedExperiment extends AbstractBehavior<HostedExperiment.Command> {
    /** Messages of this actor. */
    interface Command {
    }

    /** A command from the gateway, forwarded by the {@link Host}. */
    record Cmd(Protocol.HostCommand command) implements Command {
    }

    private record NodeListing(Receptionist.Listing listing) implements Command {
    }

    private record BalancerListing(Receptionist.Listing listing) implements Command {
    }

    private record ServiceListing(Receptionist.Listing listing) implements Command {
    }

    private record Removed(ClusterEvent.MemberRemoved event) implements Command {
    }

    private record Flush() implements Command {
    }

    private record ChildStopped(String name) implements Command {
    }

    private record StopDeadline() implements Command {
    }

    /** A balancer's census, taken as its last act before stopping. */
    private record Held(Protocol.BalancerHeld held) implements Command {
    }

    /** A peer node's census (load-sharing run), taken as its last act before stopping. */
    private record PeerCensus(Protocol.PeerHeld held) implements Command {
    }

    /** The chaos stream kind (beside StreamSeeds' kinds). */
    static final int CHAOS_STREAM = 99;

    private final Protocol.PrepareExperiment prepare;
    private final String member;
    private final ClusterSettings settings;
    private final ExperimentClock clock;
    private final ObservationLog log = new ObservationLog();
    /** How late this member's actors handle their timers; reported with each flush (the gateway judges). */
    private final TimerLag timerLag = new TimerLag();
    private final org.loadlab.kernel.MetricsSink sink;
    private final Directory directory = new Directory();
    private final Map<Integer, ActorRef<Message>> nodes = new TreeMap<>();
    private final Map<Integer, ActorRef<Message>> balancers = new TreeMap<>();
    private final Map<Integer, ActorRef<Message>> services = new TreeMap<>();
    private final Set<Integer> boundServices = new HashSet<>();
    private final Map<Integer, Address> nodeAddress = new HashMap<>();
    private final Set<Integer> boundNodes = new HashSet<>();
    private final Set<Integer> boundBalancers = new HashSet<>();
    private final Set<Integer> removedNodes = new HashSet<>();
    private Set<Integer> lastUnreachable = Set.of();
    private final Set<String> running = new HashSet<>();
    private final List<Protocol.BalancerHeld> held = new ArrayList<>();
    private final List<Protocol.PeerHeld> peersHeld = new ArrayList<>();
    private long flushes;
    private final Scenario scenario;
    private final RunAssembly assembly;
    private int nodeCount;
    private int balancerCount;
    private boolean ready;
    private boolean stopping;
    private boolean sentStopped;

    /** The run's cores, built on the build dispatcher. */
    private record Built(Scenario scenario, RunAssembly assembly, Throwable failure) implements Command {
    }

    /**
     * Parses the scenario and builds the run's cores on the build dispatcher (never on the
     * member's actor threads: a large scenario takes a while), holding the gateway's commands
     * until they are built, then spawns this member's share.
     */
    static Behavior<Command> create(Protocol.PrepareExperiment prepare, String member, ClusterSettings settings, SinkFactory tees) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> Behaviors.<Command>withStash(100_000, stash -> {
            java.util.concurrent.Executor builders = ctx.getSystem().dispatchers()
                    .lookup(org.apache.pekko.actor.typed.DispatcherSelector.fromConfig(Gateway.BUILD_DISPATCHER));
            ctx.pipeToSelf(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                Scenario s = parseScenario(prepare.scenarioJson(), prepare.experiment(), prepare.baseDir());
                return new Built(s, RunAssembly.build(new RunSpec(s, prepare.policy(), prepare.seed())), null);
            }, builders), (built, failure) -> built != null ? built : new Built(null, null, failure));
            return Behaviors.receive(Command.class)
                    .onMessage(Built.class, b -> {
                        if (b.failure() != null) {
                            Throwable cause = b.failure().getCause() != null ? b.failure().getCause() : b.failure();
                            prepare.runner().tell(new Protocol.HostFailed(prepare.experiment(), member,
                                    String.valueOf(cause.getMessage())));
                            return Behaviors.stopped();
                        }
                        return stash.unstashAll(new HostedExperiment(ctx, timers, prepare, member, settings, tees, b.scenario(),
                                b.assembly()));
                    })
                    .onAnyMessage(m -> {
                        stash.stash(m);
                        return Behaviors.same();
                    })
                    .build();
        })));
    }

    private HostedExperiment(ActorContext<Command> ctx, TimerScheduler<Command> timers, Protocol.PrepareExperiment prepare,
                             String member, ClusterSettings settings, SinkFactory tees, Scenario scenario, RunAssembly assembly) {
        super(ctx);
        this.prepare = prepare;
        this.member = member;
        this.settings = settings;
        this.clock = new ExperimentClock(prepare.timeScale());
        this.sink = tees.wrap(prepare.experiment(), prepare.timeScale(), log);
        this.scenario = scenario;
        this.assembly = assembly;
        timers.startTimerWithFixedDelay(new Flush(), settings.flushInterval());
        try {
            spawnAll();
        } catch (RuntimeException e) {
            prepare.runner().tell(new Protocol.HostFailed(prepare.experiment(), member, String.valueOf(e.getMessage())));
            throw e;
        }
        // One adapter per message class: the listing's key tells nodes from balancers.
        ServiceKey<Message> nodesKey = Protocol.nodesKey(prepare.experiment());
        ServiceKey<Message> servicesKey = Protocol.servicesKey(prepare.experiment());
        ActorRef<Receptionist.Listing> adapter = ctx.messageAdapter(Receptionist.Listing.class,
                l -> l.isForKey(nodesKey) ? new NodeListing(l) : l.isForKey(servicesKey) ? new ServiceListing(l)
                        : new BalancerListing(l));
        ctx.getSystem().receptionist().tell(Receptionist.subscribe(nodesKey, adapter));
        ctx.getSystem().receptionist().tell(Receptionist.subscribe(Protocol.balancersKey(prepare.experiment()), adapter));
        if (!assembly.services().isEmpty()) {
            ctx.getSystem().receptionist().tell(Receptionist.subscribe(servicesKey, adapter));
        }
        if (!balancers.isEmpty()) {
            ActorRef<ClusterEvent.MemberRemoved> removed = ctx.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new);
            Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(removed, ClusterEvent.MemberRemoved.class));
        }
        checkReady();
    }

    /** Parses the scenario the gateway validated (the resolved JSON) with the catalog's policy names. */
    static Scenario parseScenario(String json, String source, String baseDir) {
        ScenarioLoader loader = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
        return loader.parse(ConfigFactory.parseString(json), source, Path.of(baseDir));
    }

    private void spawnAll() {
        nodeCount = assembly.nodeCount();
        balancerCount = assembly.balancers().length;
        for (int j : prepare.nodes()) {
            ActorRef<Message> ref = spawn(NodeId.of(j), assembly.nodeLogic(j), StreamSeeds.NODE, "node-" + j);
            nodes.put(j, ref);
            getContext().getSystem().receptionist().tell(Receptionist.register(Protocol.nodesKey(prepare.experiment()), ref));
        }
        for (int i : prepare.balancers()) {
            BalancerLogic logic = assembly.balancers()[i].keepDecisions(settings.decisionsKept());
            ActorRef<Message> ref = spawn(new BalancerId(i), logic, StreamSeeds.BALANCER, "balancer-" + i,
                    org.apache.pekko.actor.typed.MailboxSelector.fromConfig(org.loadlab.shell.actor.ArrivalsLastMailbox.CONFIG));
            balancers.put(i, ref);
            getContext().getSystem().receptionist().tell(Receptionist.register(Protocol.balancersKey(prepare.experiment()), ref));
        }
        if (prepare.balancers().contains(0)) {
            // One control plane (and autoscaler) for every balancer of the cluster: on balancer 0's member,
            // found by the others through the Receptionist; it pushes its weights to each balancer.
            for (int v = 0; v < assembly.services().size(); v++) {
                ActorRef<Message> ref = spawn(new ServiceId(v), assembly.services().get(v), StreamSeeds.SERVICE, "service-" + v);
                services.put(v, ref);
                getContext().getSystem().receptionist().tell(Receptionist.register(Protocol.servicesKey(prepare.experiment()),
                        ref));
            }
        }
    }

    private ActorRef<Message> spawn(org.loadlab.kernel.Address address, org.loadlab.kernel.Logic<? extends Message> logic,
                                    int streamKind, String name) {
        return spawn(address, logic, streamKind, name, org.apache.pekko.actor.typed.Props.empty());
    }

    private ActorRef<Message> spawn(org.loadlab.kernel.Address address, org.loadlab.kernel.Logic<? extends Message> logic,
                                    int streamKind, String name, org.apache.pekko.actor.typed.Props props) {
        LogicActor.Wiring wiring = new LogicActor.Wiring(address, directory, clock,
                StreamSeeds.stream(prepare.seed(), streamKind, address.index()), sink, null, timerLag);
        ActorRef<Message> ref = getContext().spawn(LogicActor.create(logic, wiring), name, props);
        getContext().watchWith(ref, new ChildStopped(name));
        running.add(name);
        directory.bind(address, ref);
        return ref;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Cmd.class, c -> onCommand(c.command()))
                .onMessage(NodeListing.class, l -> onNodeListing(l.listing()))
                .onMessage(BalancerListing.class, l -> onBalancerListing(l.listing()))
                .onMessage(ServiceListing.class, l -> onServiceListing(l.listing()))
                .onMessage(Removed.class, r -> onRemoved(r.event().member().address()))
                .onMessage(Flush.class, f -> {
                    flush();
                    return this;
                })
                .onMessage(ChildStopped.class, c -> {
                    running.remove(c.name());
                    return maybeStopped();
                })
                .onMessage(Held.class, h -> {
                    held.add(h.held());
                    return maybeStopped();
                })
                .onMessage(PeerCensus.class, h -> {
                    peersHeld.add(h.held());
                    return maybeStopped();
                })
                .onMessage(StopDeadline.class, d -> {
                    running.clear();
                    return maybeStopped(true);
                })
                .build();
    }

    /** Index from an actor name such as {@code node-7}, or −1. */
    static int indexOf(ActorRef<?> ref, String prefix) {
        String name = ref.path().name();
        if (!name.startsWith(prefix)) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private Address addressOf(ActorRef<?> ref) {
        Address a = ref.path().address();
        return a.hasGlobalScope() ? a : Cluster.get(getContext().getSystem()).selfMember().address();
    }

    private Behavior<Command> onNodeListing(Receptionist.Listing listing) {
        ServiceKey<Message> key = Protocol.nodesKey(prepare.experiment());
        Set<Integer> reachable = new HashSet<>();
        for (ActorRef<Message> ref : listing.getServiceInstances(key)) {
            int j = indexOf(ref, "node-");
            if (j >= 0 && j < nodeCount) {
                reachable.add(j);
            }
        }
        Set<Integer> all = new HashSet<>();
        for (ActorRef<Message> ref : listing.getAllServiceInstances(key)) {
            int j = indexOf(ref, "node-");
            if (j >= 0 && j < nodeCount && !removedNodes.contains(j)) {
                all.add(j);
                directory.bind(NodeId.of(j), ref);
                nodeAddress.put(j, addressOf(ref));
                boundNodes.add(j);
            }
        }
        for (int j : new ArrayList<>(boundNodes)) {
            if (!all.contains(j) && !nodes.containsKey(j)) {
                directory.unbind(NodeId.of(j));
                boundNodes.remove(j);
            }
        }
        if (ready && !balancers.isEmpty()) {
            Set<Integer> unreachable = new HashSet<>();
            for (int j = 0; j < nodeCount; j++) {
                if (!reachable.contains(j) && !removedNodes.contains(j)) {
                    unreachable.add(j);
                }
            }
            for (int j = 0; j < nodeCount; j++) {
                boolean was = lastUnreachable.contains(j);
                boolean is = unreachable.contains(j);
                if (was != is) {
                    tellBalancers(is ? new BalancerMessage.NodeUnreachable(j) : new BalancerMessage.NodeReachable(j));
                }
            }
            lastUnreachable = unreachable;
        }
        checkReady();
        return this;
    }

    private Behavior<Command> onBalancerListing(Receptionist.Listing listing) {
        ServiceKey<Message> key = Protocol.balancersKey(prepare.experiment());
        for (ActorRef<Message> ref : listing.getAllServiceInstances(key)) {
            int i = indexOf(ref, "balancer-");
            if (i >= 0 && i < balancerCount) {
                directory.bind(new BalancerId(i), ref);
                boundBalancers.add(i);
            }
        }
        checkReady();
        return this;
    }

    private Behavior<Command> onServiceListing(Receptionist.Listing listing) {
        ServiceKey<Message> key = Protocol.servicesKey(prepare.experiment());
        for (ActorRef<Message> ref : listing.getAllServiceInstances(key)) {
            int v = indexOf(ref, "service-");
            if (v >= 0 && v < assembly.services().size()) {
                directory.bind(new ServiceId(v), ref);
                boundServices.add(v);
            }
        }
        checkReady();
        return this;
    }

    private Behavior<Command> onRemoved(Address address) {
        List<Integer> gone = new ArrayList<>();
        for (Map.Entry<Integer, Address> e : nodeAddress.entrySet()) {
            if (e.getValue().equals(address) && removedNodes.add(e.getKey())) {
                gone.add(e.getKey());
            }
        }
        for (int j : gone) {
            directory.unbind(NodeId.of(j));
            tellBalancers(new BalancerMessage.NodeRemoved(j));
        }
        return this;
    }

    private void tellBalancers(BalancerMessage m) {
        balancers.values().forEach(b -> b.tell(m));
    }

    private void checkReady() {
        if (ready) {
            return;
        }
        // Balancers route to every node; peers of a load-sharing run poll and transfer to every node;
        // control services hear from every balancer and (the autoscaler) act on nodes.
        boolean needNodes = !balancers.isEmpty() || !services.isEmpty() || assembly.loadSharing() && !nodes.isEmpty();
        boolean needBalancers = !nodes.isEmpty() || !services.isEmpty();
        boolean needServices = !balancers.isEmpty() && !assembly.services().isEmpty();
        if ((!needNodes || boundNodes.size() >= nodeCount) && (!needBalancers || boundBalancers.size() >= balancerCount)
                && (!needServices || boundServices.size() >= assembly.services().size())) {
            ready = true;
            prepare.runner().tell(new Protocol.HostReady(prepare.experiment(), member));
        }
    }

    private Behavior<Command> onCommand(Protocol.HostCommand command) {
        if (command instanceof Protocol.BeginRun b) {
            clock.begin(b.originEpochMicros());
            LogicActor.Start start = new LogicActor.Start();
            nodes.values().forEach(r -> r.tell(start));
            balancers.values().forEach(r -> r.tell(start));
            services.values().forEach(r -> r.tell(start));
        } else if (command instanceof Protocol.StopExperiment) {
            if (!stopping) {
                stopping = true;
                flush();
                // Balancers stop after the messages already in their mailbox, answering what they still
                // hold as their last act; nodes stop at once (their requests are in the balancers' census).
                ActorRef<Protocol.BalancerHeld> to = getContext().messageAdapter(Protocol.BalancerHeld.class, Held::new);
                balancers.values().forEach(b -> b.tell(new LogicActor.InspectAndStop<>((logic, env) -> {
                    BalancerLogic core = (BalancerLogic) logic;
                    BalancerLogic.HeldRequests h = core.held();
                    return new Protocol.BalancerHeld(core.id().index(), h.deciding(), h.delayed(), h.inBackoff(), h.inFlight());
                }, to)));
                if (assembly.loadSharing()) {
                    // Peers hold the tasks of a load-sharing run: each answers what it holds as its last act.
                    ActorRef<Protocol.PeerHeld> peersTo = getContext().messageAdapter(Protocol.PeerHeld.class, PeerCensus::new);
                    nodes.values().forEach(n -> n.tell(new LogicActor.InspectAndStop<>((logic, env) -> {
                        PeerNode peer = (PeerNode) logic;
                        return new Protocol.PeerHeld(peer.id().index(), peer.queueLength(), peer.transfersOut(),
                                peer.transfersIn());
                    }, peersTo)));
                } else {
                    nodes.values().forEach(n -> getContext().stop(n));
                }
                getContext().scheduleOnce(settings.stopTimeout().dividedBy(2), getContext().getSelf(), new StopDeadline());
                return maybeStopped();
            }
        } else if (command instanceof Protocol.Chaos c && assembly.loadSharing()) {
            c.replyTo().tell(new Protocol.Ack(false, member, "chaos faults act on backend nodes; the peer nodes of a"
                    + " load-sharing run take the scenario's fail, recover and degrade events"));
        } else if (command instanceof Protocol.Chaos c && c.node() < 0) {
            nodes.values().forEach(r -> r.tell(new NodeMessage.ClearFaults()));
            c.replyTo().tell(new Protocol.Ack(true, member, "clear on nodes " + nodes.keySet()));
        } else if (command instanceof Protocol.Chaos c) {
            ActorRef<Message> ref = nodes.get(c.node());
            if (ref == null) {
                c.replyTo().tell(new Protocol.Ack(false, member, "node " + c.node() + " is not hosted on " + member));
            } else {
                ref.tell(c.fault().equals("clear") ? new NodeMessage.ClearFaults() : new NodeMessage.InjectFault(c.fault(), c.value()));
                c.replyTo().tell(new Protocol.Ack(true, member, c.fault() + " on node " + c.node()));
            }
        } else if (command instanceof Protocol.SwitchPolicy p) {
            switchPolicy(p);
        } else if (command instanceof Protocol.QueryNodes q) {
            List<ActorRef<Message>> refs = new ArrayList<>(nodes.values());
            double[] mu = assembly.topology().serviceRates();
            getContext().spawnAnonymous(Collect.<Protocol.NodeStatus>behavior(refs.size(), java.time.Duration.ofSeconds(2),
                    self -> refs.forEach(r -> r.tell(new LogicActor.Inspect<>((logic, env) -> logic instanceof PeerNode peer
                            ? peerStatus(peer, env.now(), mu) : nodeStatus((org.loadlab.node.backend.ServingNode) logic, env.now(), mu), self))),
                    list -> q.replyTo().tell(new Protocol.NodesReply(member, list))));
        } else if (command instanceof Protocol.QueryExplain q) {
            List<ActorRef<Message>> refs = new ArrayList<>(balancers.values());
            double scale = prepare.timeScale();
            getContext().spawnAnonymous(Collect.<Protocol.BalancerExplain>behavior(refs.size(), java.time.Duration.ofSeconds(2),
                    self -> refs.forEach(r -> r.tell(new LogicActor.Inspect<>((logic, env) -> explain((BalancerLogic) logic,
                            env.now(), q.lastDecisions(), scale), self))),
                    list -> q.replyTo().tell(new Protocol.ExplainReply(member, list))));
        }
        return this;
    }

    private Protocol.NodeStatus nodeStatus(org.loadlab.node.backend.ServingNode node, double now, double[] nominal) {
        String status = node.crashed() ? "crashed" : node.failed() ? "failed" : "up";
        return new Protocol.NodeStatus(node.id().index(), member, status, node.snapshot(now), nominal[node.id().index()],
                node.faults());
    }

    /** A peer node of a load-sharing run as GET /nodes shows it: its queue, no resource model. */
    private Protocol.NodeStatus peerStatus(PeerNode peer, double now, double[] nominal) {
        int j = peer.id().index();
        int q = peer.queueLength();
        org.loadlab.node.protocol.LoadSnapshot load = new org.loadlab.node.protocol.LoadSnapshot(j, q, q - peer.waitingCount(),
                nominal[j], 0, 0, 0, 0, 1.0, now, !peer.failed());
        return new Protocol.NodeStatus(j, member, peer.failed() ? "failed" : "up", load, nominal[j], List.of());
    }

    /** A balancer's explanation, from what its core kept (it decides; this only restates). */
    private Protocol.BalancerExplain explain(BalancerLogic b, double now, int last, double timeScale) {
        RoutingPolicy policy = b.routingPolicy();
        List<Protocol.NodeView> views = new ArrayList<>();
        for (int j : b.allowed()) {
            DecisionRecord.NodeView v = b.view(j, now);
            views.add(new Protocol.NodeView(j, v.latest(), v.ageSeconds(), v.score(), v.mask() != null, v.mask(), v.inFlight(),
                    b.routed(j)));
        }
        List<Protocol.Decision> decisions = new ArrayList<>();
        for (DecisionRecord d : b.decisions()) {
            if (decisions.size() >= last) {
                break;
            }
            List<Protocol.Candidate> candidates = new ArrayList<>();
            for (DecisionRecord.Candidate c : d.candidates()) {
                candidates.add(new Protocol.Candidate(c.node(), c.load() == null ? -1 : c.load().queueLength(),
                        c.load() == null ? Double.NaN : c.load().cpu(), c.score(), c.mask() != null, c.mask()));
            }
            decisions.add(new Protocol.Decision(d.request(), d.at(), candidates, d.chosen(), d.outcome(), d.reason(),
                    (d.at() - d.startedAt()) / timeScale * 1e6));
        }
        double[] age = b.weightsAge();
        return new Protocol.BalancerExplain(b.id().index(), member, policy.name(), b.information().name(), policy.rule(), now,
                views, decisions, new Protocol.WeightsAge((long) age[0], age[1], age[2]));
    }

    private void switchPolicy(Protocol.SwitchPolicy p) {
        if (balancers.isEmpty()) {
            p.replyTo().tell(new Protocol.Ack(true, member, "no balancer here"));
            return;
        }
        try {
            double[] mu = assembly.topology().serviceRates();
            org.loadlab.balancer.policy.PolicyParameters params = RunAssembly.policyParameters(scenario);
            PolicyCatalog.instantiate(p.policy(), params, mu); // validates the name and parameters before any switch
            for (ActorRef<Message> ref : balancers.values()) {
                RoutingPolicy next = PolicyCatalog.instantiate(p.policy(), params, mu);
                ref.tell(new LogicActor.Apply((logic, env) -> ((BalancerLogic) logic).switchPolicy(next, env.now(), env)));
            }
            p.replyTo().tell(new Protocol.Ack(true, member, "balancers " + balancers.keySet() + " now use " + p.policy()));
        } catch (RuntimeException e) {
            p.replyTo().tell(new Protocol.Ack(false, member, String.valueOf(e.getMessage())));
        }
    }

    /** Sends what the cores observed since the last flush, in chunks no remote message outgrows. */
    private void flush() {
        flush(false);
    }

    /** Sends the log in bounded chunks; the last flush sends one batch even if empty (its count of refused records is final). */
    private void flush(boolean last) {
        flushes++;
        TimerLag.Window lag = timerLag.window();
        if (lag.count() > 0) {
            prepare.runner().tell(new Protocol.TimerLagReport(prepare.experiment(), member, lag.count(), lag.meanNanos(),
                    lag.maxNanos()));
        }
        boolean sent = false;
        // Every record made before now is in the log by the time it is drained, give or take a handler
        // that read the clock just before and writes just after: the flush interval is the margin.
        double watermark = last ? Double.MAX_VALUE
                : clock.now() - settings.flushInterval().toNanos() / 1e9 * prepare.timeScale();
        while (true) {
            ObservationColumns chunk = log.drain(Protocol.ObservationBatch.MAX_RECORDS);
            if (chunk.size() == 0 && (sent || !last)) {
                return;
            }
            sent = true;
            prepare.runner().tell(new Protocol.ObservationBatch(prepare.experiment(), member, flushes, watermark, chunk,
                    log.droppedAfterClose()));
        }
    }

    private Behavior<Command> maybeStopped() {
        return maybeStopped(false);
    }

    /** Once every actor stopped and every balancer's census is in (or the deadline passed), sends the rest and stops. */
    private Behavior<Command> maybeStopped(boolean deadline) {
        boolean censusIn = held.size() >= balancers.size() && (!assembly.loadSharing() || peersHeld.size() >= nodes.size());
        if (stopping && running.isEmpty() && (deadline || censusIn) && !sentStopped) {
            sentStopped = true;
            log.close();
            flush(true);
            prepare.runner().tell(new Protocol.HostStopped(prepare.experiment(), member, held, peersHeld));
            return Behaviors.stopped();
        }
        return this;
    }
}

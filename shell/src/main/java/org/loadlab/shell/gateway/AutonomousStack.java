package org.loadlab.shell.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.Cancellable;
import org.loadlab.balancer.autoscale.Autoscaler;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.core.DecisionLog;
import org.loadlab.balancer.lints.LinTsControlPlane;
import org.loadlab.balancer.policy.LinTsPolicy;
import org.loadlab.experiment.run.RunAssembly;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.ServiceId;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.node.profile.ProfileNode;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;
import org.loadlab.shell.actor.Directory;
import org.loadlab.shell.actor.LiveClock;
import org.loadlab.shell.actor.LogicActor;
import org.loadlab.shell.lints.PosteriorEntity;
import org.loadlab.shell.lints.PosteriorKeeper;
import org.loadlab.shell.metrics.GatewayMetrics;

/**
 * Seed 003's system as a live data plane behind an HTTP gateway, in one JVM: the scenario's
 * nodes, one balancer per gateway strategy ({@link Strategies}), the LinTS control plane and
 * the autoscaler, each the very core the simulation runs, in its own {@link LogicActor} on
 * real time. A gateway request becomes an {@code Arrival} at the chosen strategy's balancer; the
 * balancer's decision log (its routing decision, its retry and how the request ended) answers it.
 * The shell only delivers messages and reads the cores; the cores decide. The stack's actors
 * live as long as the actor system that hosts them, and so do its Kamon metrics ({@link GatewayMetrics}: the cores'
 * counters through each actor's sink, the requests through {@link #metrics()}, and the nodes', breaker's and
 * autoscaler's gauges sampled from the cores every Kamon tick).
 *
 * <p>Source: seed 003 ({@code gateway.py}), SPEC.md §6.
 */
public final class AutonomousStack {
    private static final Duration ASK = Duration.ofSeconds(5);
    private static final AtomicLong STACKS = new AtomicLong();

    /**
     * How one gateway request ended.
     *
     * @param status the HTTP status: 200, 500 (the node failed it), 429 (shed), 503 (no node, or the failover failed)
     * @param node the node that answered (the failover's when there was one), −1 when none was chosen
     * @param mode the routing mode of its decision (e.g. {@code lin_ts}, {@code fallback_circuit_breaker_least_conn},
     *     {@code qos_shed}), with {@code _failover} appended after a retry
     * @param strategy the seed's name of the strategy that routed it
     * @param coreStatus the balancer's own status name (OK, ERROR, OVERLOADED, UNAVAILABLE, TIMEOUT, RESET)
     * @param backendMs from the routing decision to the end, ms (the node's latency plus the hops to it and back;
     *     NaN when no node was chosen): what the gateway adds is the rest of its time
     */
    public record Outcome(int status, int node, String mode, String strategy, String coreStatus, double backendMs) {
    }

    /**
     * One node in GET /explain-routing.
     *
     * @param node index
     * @param profile its profile's name
     * @param weight its LinTS weight now (0 when masked or not a member)
     * @param cpuPercent newest CPU the lin-ts balancer has, percent (NaN unknown)
     * @param queue newest queue depth (−1 unknown)
     * @param recentP99Ms the control plane's recent p99 of the node, ms
     * @param status MASKED_HIGH_CPU, OFFLINE (another mask), TOP_CHOICE or ACTIVE
     * @param member whether it is in the cluster now (autoscaled slots are not until started)
     * @param mask why a guardrail masks it (the balancer's explanation, e.g. {@code cpu 0.97 > 0.85}), null when it is not
     */
    public record NodeExplain(int node, String profile, double weight, double cpuPercent, int queue, double recentP99Ms,
                              String status, boolean member, String mask) {
    }

    /**
     * GET /explain-routing.
     *
     * @param activeStrategy the seed's name of the default strategy
     * @param breakerTripped whether lin-ts's staleness circuit breaker is open now
     * @param weightsAgeSeconds age of the weights the lin-ts balancer uses, s (NaN before the first)
     * @param registered member nodes
     * @param nodes every node slot
     */
    public record Explain(String activeStrategy, boolean breakerTripped, double weightsAgeSeconds, int registered,
                          List<NodeExplain> nodes) {
    }

    private final ActorSystem<?> system;
    private final Scenario scenario;
    private final RunAssembly assembly;
    private final LiveClock clock;
    private final GatewayMetrics metrics;
    private final List<ActorRef<Message>> nodes = new ArrayList<>();
    private final List<ActorRef<Message>> balancers = new ArrayList<>();
    private final List<ActorRef<Message>> services = new ArrayList<>();
    private final ConcurrentHashMap<Long, GatewayAnswers.Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile String strategy;
    private ActorRef<Message> autoscaler;
    private final Cancellable sampler;


    /**
     * Builds and starts the stack.
     *
     * @param system where its actors live
     * @param scenario the cluster (nodes, guardrails, shedding, control plane, autoscaler): its
     *     {@code balancers.count} must be the number of strategies
     * @param defaultStrategy the LoadLab policy of requests without {@code ?strategy=}
     * @param seed the master seed of the cores' random streams
     * @param store where the control plane's posterior is kept across restarts, or null
     * @throws IllegalArgumentException if the scenario does not fit (balancer count, unknown strategy)
     */
    public static AutonomousStack start(ActorSystem<?> system, Scenario scenario, String defaultStrategy, long seed,
                                        ActorRef<PosteriorEntity.Command> store) {
        return new AutonomousStack(system, scenario, defaultStrategy, seed, store);
    }

    private AutonomousStack(ActorSystem<?> system, Scenario scenario, String defaultStrategy, long seed,
                            ActorRef<PosteriorEntity.Command> store) {
        if (!Strategies.POLICIES.contains(defaultStrategy)) {
            throw new IllegalArgumentException("strategy = '" + defaultStrategy + "': allowed " + Strategies.allowed());
        }
        if (scenario.balancers().count() != Strategies.POLICIES.size()) {
            throw new IllegalArgumentException("balancers.count = " + scenario.balancers().count() + ": the gateway runs one"
                    + " balancer per strategy, set " + Strategies.POLICIES.size());
        }
        this.system = system;
        this.scenario = scenario;
        this.strategy = defaultStrategy;
        this.assembly = RunAssembly.build(new RunSpec(scenario, defaultStrategy, seed), null, Strategies.POLICIES);
        this.clock = LiveClock.startingNow(1.0);
        this.metrics = GatewayMetrics.start(system.settings().config());
        String prefix = "gateway-" + STACKS.incrementAndGet() + "-";
        Directory directory = new Directory();
        GatewayAnswers[] answers = new GatewayAnswers[assembly.balancers().length];
        for (int i = 0; i < answers.length; i++) {
            answers[i] = new GatewayAnswers(Strategies.SEED_NAMES.get(i), pending);
        }
        for (int j = 0; j < assembly.nodes().length; j++) {
            // A failed node's lost requests are news to no balancer: the node itself ends each
            // one at its balancer's answers (503 at once, not the gateway's 504 after 10 s).
            assembly.nodes()[j].lostRequests((request, now) -> answers[request.replyTo().index()].lost(request.id(), now));
            nodes.add(spawn(directory, NodeId.of(j), assembly.nodes()[j], StreamSeeds.NODE, seed, prefix + "node-" + j,
                    metrics.sink("node", "Node-" + (j + 1))));
        }
        for (int i = 0; i < assembly.balancers().length; i++) {
            BalancerLogic b = assembly.balancers()[i].decisionLog(answers[i]);
            balancers.add(spawn(directory, new BalancerId(i), b, StreamSeeds.BALANCER, seed, prefix + "balancer-" + i,
                    metrics.sink("strategy", Strategies.SEED_NAMES.get(i))));
        }
        for (int v = 0; v < assembly.services().size(); v++) {
            Logic<? extends Message> service = assembly.services().get(v);
            if (store != null && service instanceof LinTsControlPlane cp) {
                PosteriorKeeper.restore(system, store, cp, ASK);
            }
            String role = service instanceof LinTsControlPlane ? "control_plane" : service instanceof Autoscaler ? "autoscaler"
                    : service.getClass().getSimpleName();
            ActorRef<Message> ref = spawn(directory, new ServiceId(v), service, StreamSeeds.SERVICE, seed, prefix + "service-" + v,
                    metrics.sink("service", role));
            services.add(ref);
            if (service instanceof Autoscaler) {
                autoscaler = ref;
            }
            if (store != null && service instanceof LinTsControlPlane) {
                system.systemActorOf(PosteriorKeeper.keeper(ref, store, Duration.ofSeconds(1)), prefix + "keeper", Props.empty());
            }
        }
        for (RunAssembly.ScheduledEvent e : assembly.events()) {
            ActorRef<Message> ref = directory.lookup(e.to());
            system.scheduler().scheduleOnce(clock.realDuration(e.at()), () -> ref.tell(e.message()), system.executionContext());
        }
        LogicActor.Start start = new LogicActor.Start();
        nodes.forEach(r -> r.tell(start));
        balancers.forEach(r -> r.tell(start));
        services.forEach(r -> r.tell(start));
        Duration tick = metrics.tickInterval();
        this.sampler = system.scheduler().scheduleWithFixedDelay(tick, tick, this::sample, system.executionContext());
        system.getWhenTerminated().thenRun(this::closeMetrics);
    }

    /**
     * Stops sampling the gauges and removes the stack's instruments and reporter from Kamon (stopping Kamon if the
     * gateway started it); idempotent, and done anyway when the actor system terminates. GET /metrics is empty after it.
     */
    public void closeMetrics() {
        sampler.cancel();
        metrics.close();
    }

    /** Sets the gauges from what the lin-ts balancer, the control plane and the autoscaler know now. */
    private void sample() {
        explain().thenAccept(e -> {
            for (NodeExplain n : e.nodes()) {
                metrics.node(n.node(), n.profile(), n.weight(), n.mask(), n.cpuPercent(), n.queue(), n.recentP99Ms(), n.member());
            }
            metrics.linTs(e.breakerTripped(), e.weightsAgeSeconds());
        });
        if (autoscaler != null) {
            AskPattern.<Message, Integer>ask(autoscaler,
                    replyTo -> new LogicActor.Inspect<>((logic, env) -> ((Autoscaler) logic).active(), replyTo), ASK,
                    system.scheduler()).thenAccept(metrics::activeNodes);
        }
    }

    private ActorRef<Message> spawn(Directory directory, Address address, Logic<? extends Message> logic, int kind, long seed,
                                    String name, org.loadlab.kernel.MetricsSink sink) {
        LogicActor.Wiring wiring = new LogicActor.Wiring(address, directory, clock, StreamSeeds.stream(seed, kind, address.index()),
                sink, null);
        ActorRef<Message> ref = system.systemActorOf(LogicActor.create(logic, wiring), name, Props.empty());
        directory.bind(address, ref);
        return ref;
    }

    /**
     * Routes one request.
     *
     * @param policy the LoadLab policy of the strategy (see {@link Strategies#policyOf}), or null for the default
     * @param endpoint the endpoint's index in {@code Endpoints.NAMES}
     * @param timeout how long to wait for the outcome before answering 504
     * @return its outcome
     */
    public CompletionStage<Outcome> route(String policy, int endpoint, Duration timeout) {
        String p = policy == null ? strategy : policy;
        int balancer = Strategies.POLICIES.indexOf(p);
        if (balancer < 0) {
            throw new IllegalArgumentException("strategy = '" + p + "': allowed " + Strategies.allowed());
        }
        long id = ids.getAndIncrement();
        GatewayAnswers.Pending waiting = new GatewayAnswers.Pending(Strategies.SEED_NAMES.get(balancer));
        pending.put(id, waiting);
        balancers.get(balancer).tell(new BalancerMessage.Arrival(id, 1.0, clock.now(), BalancerMessage.Arrival.NO_KEY, endpoint));
        return waiting.future.completeOnTimeout(new Outcome(504, -1, "gateway_timeout", waiting.strategy, "TIMEOUT", Double.NaN),
                timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((o, e) -> pending.remove(id));
    }

    /** What the lin-ts balancer and the control plane know now, in the seed's explain-routing shape. */
    public CompletionStage<Explain> explain() {
        ActorRef<Message> lints = balancers.get(Strategies.POLICIES.indexOf("lin-ts"));
        CompletionStage<Explain> fromBalancer = AskPattern.<Message, Explain>ask(lints,
                replyTo -> new LogicActor.Inspect<>((logic, env) -> explainOf((BalancerLogic) logic, env.now()), replyTo), ASK,
                system.scheduler());
        if (services.isEmpty()) {
            return fromBalancer;
        }
        CompletionStage<double[]> p99 = AskPattern.<Message, double[]>ask(services.get(0),
                replyTo -> new LogicActor.Inspect<>((logic, env) -> recentP99((LinTsControlPlane) logic), replyTo), ASK,
                system.scheduler());
        return fromBalancer.thenCombine(p99, (e, p) -> {
            List<NodeExplain> out = new ArrayList<>();
            for (NodeExplain n : e.nodes()) {
                out.add(new NodeExplain(n.node(), n.profile(), n.weight(), n.cpuPercent(), n.queue(), p[n.node()], n.status(),
                        n.member(), n.mask()));
            }
            return new Explain(e.activeStrategy(), e.breakerTripped(), e.weightsAgeSeconds(), e.registered(), out);
        });
    }

    private double[] recentP99(LinTsControlPlane cp) {
        double[] p = new double[assembly.nodes().length];
        for (int j = 0; j < p.length; j++) {
            p[j] = cp.window().recentP99(j);
        }
        return p;
    }

    private Explain explainOf(BalancerLogic b, double now) {
        LinTsPolicy policy = (LinTsPolicy) b.routingPolicy();
        int n = b.nodeCount();
        double best = -1;
        int top = -1;
        boolean[] member = new boolean[n];
        int registered = 0;
        for (int j = 0; j < n; j++) {
            member[j] = b.view(j, now).mask() == null || b.ejected(j) != null;
            registered += member[j] ? 1 : 0;
            if (member[j] && b.ejected(j) == null && policy.weight(j) > best) {
                best = policy.weight(j);
                top = j;
            }
        }
        List<NodeExplain> nodesOut = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            LoadSnapshot s = b.newest(j);
            String mask = b.ejected(j);
            String status = mask != null ? (mask.startsWith("cpu") ? "MASKED_HIGH_CPU" : "OFFLINE")
                    : !member[j] ? "NOT_REGISTERED" : j == top ? "TOP_CHOICE" : "ACTIVE";
            String profile = assembly.nodes()[j] instanceof ProfileNode pn ? pn.profile().name() : "queue";
            nodesOut.add(new NodeExplain(j, profile, mask != null || !member[j] ? 0 : policy.weight(j),
                    s == null ? Double.NaN : s.cpu() * 100, s == null ? -1 : s.queueLength(), Double.NaN, status, member[j], mask));
        }
        double age = Double.isNaN(policy.publishedAt()) ? Double.NaN : now - policy.publishedAt();
        return new Explain(Strategies.seedName(strategy), policy.tripped(now), age, registered, nodesOut);
    }

    /**
     * Injects a seed 003 fault into node {@code node}: {@code cpu_spike} pins its CPU at 99 %,
     * {@code error_spike} fails 90 % of its requests, {@code latency} only delays; every fault adds
     * {@code extraLatencyMs}.
     *
     * @throws IllegalArgumentException naming the field, the value and what is allowed
     */
    public void inject(int node, String fault, double extraLatencyMs) {
        if (node < 0 || node >= nodes.size()) {
            throw new IllegalArgumentException("node_idx = " + node + ": allowed 0.." + (nodes.size() - 1));
        }
        if (!FAULTS.contains(fault)) {
            throw new IllegalArgumentException("fault_type = '" + fault + "': allowed " + String.join(", ", FAULTS));
        }
        if (!(extraLatencyMs >= 0 && extraLatencyMs <= 60_000)) {
            throw new IllegalArgumentException("extra_latency_ms = " + extraLatencyMs + ": allowed 0..60000 ms");
        }
        ActorRef<Message> ref = nodes.get(node);
        switch (fault) {
            case "cpu_spike" -> ref.tell(new NodeMessage.InjectFault("cpu-spike", 0.99));
            case "error_spike" -> ref.tell(new NodeMessage.InjectFault("error-rate", 0.9));
            default -> { }
        }
        ref.tell(new NodeMessage.InjectFault("latency", extraLatencyMs / 1000.0));
    }

    /** The seed's fault types. */
    public static final List<String> FAULTS = List.of("cpu_spike", "error_spike", "latency");

    /** Clears every node's faults. */
    public void clear() {
        nodes.forEach(r -> r.tell(new NodeMessage.ClearFaults()));
    }

    /** The default strategy's LoadLab policy. */
    public String strategy() {
        return strategy;
    }

    /**
     * Sets the default strategy.
     *
     * @throws IllegalArgumentException if {@code policy} is not one of {@link Strategies#POLICIES}
     */
    public void strategy(String policy) {
        if (!Strategies.POLICIES.contains(policy)) {
            throw new IllegalArgumentException("strategy = '" + policy + "': allowed " + Strategies.allowed());
        }
        this.strategy = policy;
    }

    /** The stack's Kamon instruments (GET /metrics renders them; the gateway records its requests there). */
    public GatewayMetrics metrics() {
        return metrics;
    }

    /** Node slots (members and autoscaled slots). */
    public int nodeCount() {
        return nodes.size();
    }

    /** The scenario the stack runs. */
    public Scenario scenario() {
        return scenario;
    }
}

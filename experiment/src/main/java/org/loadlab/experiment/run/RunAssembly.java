package org.loadlab.experiment.run;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.core.BalancerSettings;
import org.loadlab.node.backend.ErrorModel;
import org.loadlab.workload.keys.KeySequence;
import org.loadlab.workload.keys.ZipfKeys;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.information.OracleModel;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.AsmfSettings;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.node.backend.ServingNode;
import org.loadlab.node.profile.ProfileNode;
import org.loadlab.balancer.autoscale.Autoscaler;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.lints.LinTsControlPlane;
import org.loadlab.balancer.policy.LinTsPolicy;
import org.loadlab.kernel.ServiceId;
import org.loadlab.workload.keys.EndpointMix;
import org.loadlab.experiment.scenario.Autonomy;
import org.loadlab.node.backend.FeedbackSettings;
import org.loadlab.node.backend.NodeSettings;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.sharing.PeerNode;
import org.loadlab.node.sharing.SharingProtocol;
import org.loadlab.node.sharing.TaskConservation;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.workload.split.BalancerSplit;
import org.loadlab.workload.driver.WorkloadDriver;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.WorkloadBuilder;

/**
 * The logic cores of one run (scenario × policy × seed), built the same way for the
 * simulation shell and the live Pekko shell: nodes, balancers, the workload driver and
 * the scripted events. Both shells then only differ in how they deliver messages.
 *
 * @param spec what is run
 * @param topology μ_j and allowed sets
 * @param nodes one backend node per index
 * @param balancers one balancer per index
 * @param driver the workload driver (client 0)
 * @param events scripted node events in time order
 * @param workload the workload (arrival rate, offered utilisation)
 * @param peers in a load-sharing run (the policy is a protocol such as {@code receiver}): one
 *     {@link PeerNode} per index, and {@code nodes} and {@code balancers} are empty; otherwise empty
 * @param partitions the network partitions a shell must cut
 * @param services the control services by {@link ServiceId} index (seed 003's LinTS control
 *     plane when the policy is {@code lin-ts}, then the autoscaler when it is on); empty otherwise
 */
public record RunAssembly(RunSpec spec, Topology topology, ServingNode[] nodes, BalancerLogic[] balancers,
                          WorkloadDriver driver, List<ScheduledEvent> events, WorkloadBuilder.Workload workload,
                          PeerNode[] peers, List<Partition> partitions, List<Logic<? extends Message>> services) {

    /**
     * A message an event script delivers at a fixed time.
     *
     * @param at time, seconds
     * @param to receiver
     * @param message what it receives
     */
    public record ScheduledEvent(double at, Address to, Message message) {
    }

    /**
     * A network partition a shell must cut: {@code nodes} lose their links to every balancer
     * during [{@code from}, {@code until}).
     *
     * @param from start, seconds
     * @param until end, seconds
     * @param nodes the node indices cut off
     */
    public record Partition(double from, double until, List<Integer> nodes) {
    }

    /**
     * Builds the cores of {@code spec} for a single-threaded shell: the oracle information
     * model reads the node objects directly (the simulation).
     */
    public static RunAssembly build(RunSpec spec) {
        return build(spec, null);
    }

    /**
     * Builds the cores of {@code spec}.
     *
     * @param oracleView what the oracle information model reads, or null to read the node
     *     objects directly (only safe when one thread runs every core, as the simulation does)
     */
    public static RunAssembly build(RunSpec spec, ClusterView oracleView) {
        return build(spec, oracleView, null);
    }

    /**
     * Builds the cores of {@code spec} with balancer i running {@code balancerPolicies.get(i)}
     * (seed 003's gateway serves every strategy at once, one balancer each, and picks one per
     * request); a control plane runs when any of them needs one.
     *
     * @param oracleView as {@link #build(RunSpec, ClusterView)}
     * @param balancerPolicies one policy name per balancer, or null for {@code spec.policy()} everywhere
     * @throws IllegalArgumentException if the list's size is not the scenario's balancer count
     */
    public static RunAssembly build(RunSpec spec, ClusterView oracleView, List<String> balancerPolicies) {
        Scenario s = spec.scenario();
        if (balancerPolicies != null && balancerPolicies.size() != s.balancers().count()) {
            throw new IllegalArgumentException(balancerPolicies.size() + " balancer policies for balancers.count = "
                    + s.balancers().count());
        }
        Topology topology = Topology.of(s, spec.seed());
        if (Scenario.isLoadSharing(spec.policy())) {
            return buildPeers(spec, s, topology);
        }
        Autonomy auto = s.autonomy();
        if (auto.profileNodes()) {
            // A profile node's nominal rate is its capacity: the weights of weighted policies (seed 003: 150/80/60/50/20).
            double[] capacities = new double[s.nodes().count()];
            for (int j = 0; j < capacities.length; j++) {
                capacities[j] = auto.profileOf(j).capacity();
            }
            topology = new Topology(capacities, topology.allowed());
        }
        int n = s.nodes().count();
        int b = s.balancers().count();
        List<BalancerId> balancerIds = new ArrayList<>();
        for (int i = 0; i < b; i++) {
            balancerIds.add(new BalancerId(i));
        }
        Scenario.Information info = s.information();
        boolean cached = info.model().equals("cached");
        Scenario.Asmf a = s.policy().asmf();
        FeedbackSettings feedback = PolicyCatalog.usesFeedback(spec.policy())
                ? new FeedbackSettings(a.eta(), a.cMin(), a.cMax(), a.window())
                : FeedbackSettings.OFF;
        NodeSettings nodeSettings = new NodeSettings(s.nodes().servers(), s.nodes().queueCapacity(),
                s.nodes().resourcePeriod(), cached ? info.reportPeriod() : 0, info.reportDelay(), balancerIds, feedback,
                s.nodes().heartbeatPeriod());
        ServingNode[] nodes = new ServingNode[n];
        Scenario.NodeErrors errors = s.nodes().errors();
        boolean bins = s.isBallsIntoBins();
        for (int j = 0; j < n; j++) {
            double rate = errors.rateOf(j);
            // A bin never serves: every ball stays where it lands (no departures).
            nodes[j] = auto.profileNodes()
                    ? new ProfileNode(NodeId.of(j), auto.profileOf(j), nodeSettings)
                    : new BackendNode(NodeId.of(j), bins ? 0 : topology.serviceRates()[j], nodeSettings,
                            rate > 0 ? new ErrorModel(rate, errors.fast()) : ErrorModel.NONE);
        }
        List<Logic<? extends Message>> services = services(
                balancerPolicies == null ? List.of(spec.policy()) : balancerPolicies, s, n, balancerIds);
        ServiceId[] serviceIds = new ServiceId[services.size()];
        for (int v = 0; v < serviceIds.length; v++) {
            serviceIds[v] = new ServiceId(v);
        }

        PolicyParameters params = policyParameters(s);
        ClusterView view = oracleView != null ? oracleView : directView(nodes);
        BalancerLogic[] balancers = new BalancerLogic[b];
        BalancerSettings settings = balancerSettings(s);
        int[] absent = absentAtStart(s);
        for (int i = 0; i < b; i++) {
            String name = balancerPolicies == null ? spec.policy() : balancerPolicies.get(i);
            RoutingPolicy routing = PolicyCatalog.needsControlPlane(name)
                    ? new LinTsPolicy(auto.weightsStaleAfter())
                    : PolicyCatalog.instantiate(name, params, topology.serviceRates());
            balancers[i] = new BalancerLogic(balancerIds.get(i), topology.allowed()[i], n,
                    routing, informationModel(info, n, view), settings).absent(absent)
                    .failOpen(auto.failOpen()).shedding(auto.shedding())
                    .limitDecisionsInFlight(s.balancers().maxDecisionsInFlight())
                    .requestTimeout(s.balancers().requestTimeout());
            if (serviceIds.length > 0) {
                balancers[i].reportTo(auto.linTs().feedbackPeriod(), serviceIds);
            }
            if (s.retry().ownPolicy()) {
                balancers[i].retryPolicy(PolicyCatalog.instantiate(s.retry().policy(), params, topology.serviceRates()));
            }
        }

        WorkloadBuilder.Workload workload = WorkloadBuilder.build(s, topology.capacity(s.nodes().servers()), spec.seed());
        WorkloadDriver driver = new WorkloadDriver(workload.arrivals(), workload.demand(), workload.split(), b,
                keys(s, spec.seed()));
        if (auto.endpoints()) {
            driver.endpoints(new EndpointMix(auto.endpointMix(), StreamSeeds.stream(spec.seed(), StreamSeeds.ARRIVALS,
                    ENDPOINT_STREAM)));
        }

        return new RunAssembly(spec, topology, nodes, balancers, driver, scriptedEvents(s, b), workload, new PeerNode[0],
                partitions(s), services);
    }

    /** Index of the endpoints' stream among the arrival streams (after the keys' stream). */
    static final int ENDPOINT_STREAM = 6;

    /**
     * The control services of a run, by {@link ServiceId} index: the LinTS control plane when
     * the policy routes by published weights, then the autoscaler when it is on.
     */
    private static List<Logic<? extends Message>> services(List<String> policies, Scenario s, int n, List<BalancerId> balancers) {
        List<Logic<? extends Message>> out = new ArrayList<>();
        boolean controlPlane = false;
        for (String policy : policies) { // a loop, not a stream: once per run (see absentAtStart)
            if (PolicyCatalog.needsControlPlane(policy)) {
                controlPlane = true;
                break;
            }
        }
        if (controlPlane) {
            out.add(new LinTsControlPlane(s.autonomy().linTs(), n, balancers));
        }
        if (s.autonomy().autoscaler().enabled()) {
            out.add(new Autoscaler(s.autonomy().autoscaler(), balancers));
        }
        return List.copyOf(out);
    }

    /**
     * A load-sharing run: peer nodes running the protocol {@code spec.policy()}, no balancer,
     * and a driver that sends each task to a node picked with probability ∝ μ_j (so every node
     * is offered the same utilisation ρ; with identical nodes, Poisson arrivals at rate λ per
     * node as in SPEC §7). The arrival and demand streams are those of a balancer run with the
     * same seed, so protocols and balancer policies see the same workload.
     */
    private static RunAssembly buildPeers(RunSpec spec, Scenario s, Topology topology) {
        int n = s.nodes().count();
        SharingProtocol protocol = SharingProtocol.of(spec.policy());
        double[] mu = topology.serviceRates();
        PeerNode[] peers = new PeerNode[n];
        boolean identical = true;
        for (int j = 0; j < n; j++) {
            peers[j] = new PeerNode(NodeId.of(j), n, mu[j], s.nodes().servers(), protocol, s.loadSharing());
            identical &= mu[j] == mu[0];
        }
        WorkloadBuilder.Workload workload = WorkloadBuilder.build(s, topology.capacity(s.nodes().servers()), spec.seed());
        java.util.random.RandomGenerator splitRng = StreamSeeds.stream(spec.seed(), StreamSeeds.ARRIVALS, 2);
        BalancerSplit split = identical ? BalancerSplit.uniform(n, splitRng) : BalancerSplit.weighted(mu, splitRng);
        WorkloadDriver driver = WorkloadDriver.toNodes(workload.arrivals(), workload.demand(), split, n);
        return new RunAssembly(spec, topology, new ServingNode[0], new BalancerLogic[0], driver, scriptedEvents(s, 0), workload,
                peers, List.of(), List.of());
    }

    /**
     * Where this run's measurement window starts, seconds: {@code warmup}, or the arrival of
     * request {@code warmup-requests + 1} if later ({@link WorkloadBuilder#warmupEnd}); 0 in
     * the balls-into-bins model, which reports the final loads.
     *
     * @throws IllegalArgumentException if the run has fewer arrivals than the warm-up needs
     */
    public double warmupSeconds() {
        Scenario s = spec.scenario();
        if (s.isBallsIntoBins()) {
            return 0;
        }
        return WorkloadBuilder.warmupEnd(s, topology.capacity(s.nodes().servers()), spec.seed());
    }

    /** The balancers' settings of scenario {@code s}: refusals, guardrails, slow start, outlier ejection, retries. */
    public static BalancerSettings balancerSettings(Scenario s) {
        return new BalancerSettings(rejection(s), s.guardrails(), s.slowStart(), s.outlierDetection(), s.retry());
    }

    /**
     * The requests' affinity keys for run seed {@code seed}, from their own stream (so keys
     * never change the other streams of a run).
     */
    static KeySequence keys(Scenario s, long seed) {
        Scenario.Keys k = s.keys();
        if (!k.present()) {
            return KeySequence.NONE;
        }
        return new ZipfKeys(k.count(), k.distribution().equals("uniform") ? 0 : k.zipfExponent(),
                StreamSeeds.stream(seed, StreamSeeds.ARRIVALS, KEY_STREAM));
    }

    /** Index of the keys' stream among the arrival streams (0: instants, 1: split, 2: load-sharing split). */
    static final int KEY_STREAM = 5;

    /**
     * Nodes that are not members when the run starts: the targets of {@code join} events and
     * the autoscaler's reserved slots, ascending, each once. A bit set and plain loops rather than an
     * {@code IntStream} pipeline: it runs once per run, too rarely for the JIT to compile a
     * stream pipeline, and interpreted it was a third of a short run's assembly.
     */
    static int[] absentAtStart(Scenario s) {
        java.util.BitSet absent = new java.util.BitSet();
        for (int node : reservedForAutoscaler(s)) {
            absent.set(node);
        }
        for (Scenario.Event e : s.events()) {
            if (e.type().equals("join")) {
                for (int node : e.nodes()) {
                    absent.set(node);
                }
            }
        }
        int[] nodes = new int[absent.cardinality()];
        for (int k = 0, node = absent.nextSetBit(0); node >= 0; node = absent.nextSetBit(node + 1)) {
            nodes[k++] = node;
        }
        return nodes;
    }

    /** Node slots the autoscaler may start later: min-nodes .. max-nodes − 1 (none when it is off). */
    static int[] reservedForAutoscaler(Scenario s) {
        org.loadlab.balancer.autoscale.AutoscalerSettings a = s.autonomy().autoscaler();
        if (!a.enabled()) {
            return new int[0];
        }
        int from = a.minNodes();
        int to = Math.min(a.maxNodes(), s.nodes().count());
        int[] slots = new int[Math.max(0, to - from)];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = from + i;
        }
        return slots;
    }

    /** True if this is a load-sharing run (peer nodes, no balancer). */
    public boolean loadSharing() {
        return peers.length > 0;
    }

    /** Number of nodes n, backend or peer. */
    public int nodeCount() {
        return loadSharing() ? peers.length : nodes.length;
    }

    /** The logic of node {@code j}: its {@link BackendNode}, or its {@link PeerNode} in a load-sharing run. */
    public Logic<? extends Message> nodeLogic(int j) {
        return loadSharing() ? peers[j] : nodes[j];
    }

    /**
     * The end-of-run task conservation check (both shells call it): in a load-sharing run
     * arrived = completed + rejected + lost + queued at the nodes + in transit, with every
     * count taken independently; in a balancer run the nodes cannot hold more requests than
     * arrived and were not resolved.
     *
     * @param m the run's metrics
     * @throws IllegalStateException naming the run and every count when the books do not balance
     */
    public void checkConservation(RunMetrics m) {
        String run = spec.scenario().name() + " / " + spec.policy() + " / seed " + spec.seed();
        if (loadSharing()) {
            TaskConservation.checkPeers(run, m.requestsArrived(), m.requestsCompleted(), m.requestsRejected(), m.requestsLost(),
                    peers);
        } else {
            long queued = 0;
            for (ServingNode node : nodes) {
                queued += node.queueLength();
            }
            // Copies of attempts the balancers gave up on (per-try timeouts) may still sit in the queues.
            long orphans = 0;
            for (BalancerLogic b : balancers) {
                for (int j = 0; j < nodes.length; j++) {
                    orphans += b.orphans(j);
                }
            }
            TaskConservation.checkBalanced(run, m.requestsArrived(), m.requestsCompleted(), m.requestsRejected(),
                    m.requestsLost(), Math.max(0, queued - orphans));
        }
    }

    /**
     * The scenario's events as messages at fixed times: node events go to the nodes;
     * crashes, partitions and rejoins also reach every balancer as membership news after
     * the scenario's {@code membership} delays, as a cluster's failure detector and
     * split-brain resolver would deliver them.
     */
    private static List<ScheduledEvent> scriptedEvents(Scenario s, int balancers) {
        List<ScheduledEvent> events = new ArrayList<>();
        for (int node : reservedForAutoscaler(s)) {
            // Held stopped and silent until the autoscaler starts it (Recover, NodeJoined).
            events.add(new ScheduledEvent(0, NodeId.of(node), new NodeMessage.Crash()));
        }
        Scenario.Membership m = s.membership();
        for (Scenario.Event e : s.events()) {
            for (int node : e.nodes()) {
                NodeId to = NodeId.of(node);
                switch (e.type()) {
                    case "fail" -> events.add(new ScheduledEvent(e.at(), to, new NodeMessage.Fail()));
                    case "recover" -> events.add(new ScheduledEvent(e.at(), to, new NodeMessage.Recover()));
                    case "degrade" -> events.add(new ScheduledEvent(e.at(), to, new NodeMessage.Degrade(e.factor())));
                    case "crash" -> {
                        events.add(new ScheduledEvent(e.at(), to, new NodeMessage.Crash()));
                        toBalancers(events, e.at() + m.unreachableAfter(), balancers, new BalancerMessage.NodeUnreachable(node));
                        toBalancers(events, e.at() + m.removedAfter(), balancers, new BalancerMessage.NodeRemoved(node));
                    }
                    case "partition" -> {
                        double length = e.until() - e.at();
                        if (length > m.unreachableAfter()) {
                            toBalancers(events, e.at() + m.unreachableAfter(), balancers, new BalancerMessage.NodeUnreachable(node));
                        }
                        if (length >= m.removedAfter()) {
                            // The majority downs the cut-off member: its node stops and never comes back.
                            double down = e.at() + m.removedAfter();
                            events.add(new ScheduledEvent(down, to, new NodeMessage.Crash()));
                            toBalancers(events, down, balancers, new BalancerMessage.NodeRemoved(node));
                        } else if (length > m.unreachableAfter()) {
                            toBalancers(events, e.until(), balancers, new BalancerMessage.NodeReachable(node));
                        }
                    }
                    case "heartbeat-loss" -> {
                        events.add(new ScheduledEvent(e.at(), to, new NodeMessage.SignsOfLife(false)));
                        events.add(new ScheduledEvent(e.until(), to, new NodeMessage.SignsOfLife(true)));
                    }
                    case "chaos" -> events.add(new ScheduledEvent(e.at(), to, e.fault().equals("clear")
                            ? new NodeMessage.ClearFaults() : new NodeMessage.InjectFault(e.fault(), e.value())));
                    case "rejoin" -> {
                        events.add(new ScheduledEvent(e.at(), to, new NodeMessage.Recover()));
                        toBalancers(events, e.at(), balancers, new BalancerMessage.NodeJoined(node));
                    }
                    case "join" -> {
                        // Not a member until `at`: stopped and silent, out of every balancer's pool (absent), then it joins.
                        events.add(new ScheduledEvent(0, to, new NodeMessage.Crash()));
                        events.add(new ScheduledEvent(e.at(), to, new NodeMessage.Recover()));
                        toBalancers(events, e.at(), balancers, new BalancerMessage.NodeJoined(node));
                    }
                    case "leave" -> toBalancers(events, e.at(), balancers, new BalancerMessage.NodeLeaving(node));
                    default -> { } // spikes act on the arrival process
                }
            }
        }
        return List.copyOf(events);
    }

    private static void toBalancers(List<ScheduledEvent> events, double at, int balancers, Message message) {
        for (int i = 0; i < balancers; i++) {
            events.add(new ScheduledEvent(at, new BalancerId(i), message));
        }
    }

    /** The scenario's partitions: each cuts its nodes off from every balancer during [at, until). */
    private static List<Partition> partitions(Scenario s) {
        List<Partition> out = new ArrayList<>();
        for (Scenario.Event e : s.events()) {
            if (e.type().equals("partition")) {
                out.add(new Partition(e.at(), e.until(), e.nodes()));
            }
        }
        return List.copyOf(out);
    }

    /** The scenario's policy parameters as the policy catalog takes them. */
    public static PolicyParameters policyParameters(Scenario s) {
        Scenario.Asmf a = s.policy().asmf();
        return new PolicyParameters(s.policy().k(),
                new AsmfSettings(a.k(), a.alpha(), a.beta(), a.gamma(), a.delta(), a.tau(), true, true, true),
                s.policy().stickyLazy().threshold(), s.policy().kWithReplacement(),
                org.loadlab.balancer.policy.StickyCache.Credit.of(s.policy().stickyLazy().credit()),
                s.policy().production());
    }

    /**
     * A fresh information model for one balancer, the one place that maps the scenario's
     * {@code information.model} to its implementation.
     *
     * @param info the scenario's information block
     * @param nodeCount n
     * @param oracleView what the oracle model reads (unused by the others)
     */
    public static InformationModel informationModel(Scenario.Information info, int nodeCount, ClusterView oracleView) {
        return switch (info.model()) {
            case "cached" -> new CachedModel(nodeCount);
            case "oracle" -> new OracleModel(oracleView);
            default -> new ProbeModel(info.probeTimeout());
        };
    }

    private static org.loadlab.balancer.core.RejectionSettings rejection(Scenario s) {
        Scenario.Rejection r = s.policy().rejection();
        return r.mode().equals("delay")
                ? new org.loadlab.balancer.core.RejectionSettings(true, r.buffer(), r.backoff(), r.multiplier(), r.attempts())
                : org.loadlab.balancer.core.RejectionSettings.REJECT;
    }

    /** The oracle view that reads the node objects themselves, at the reader's time. */
    private static ClusterView directView(ServingNode[] nodes) {
        return new ClusterView() {
            @Override
            public int nodeCount() {
                return nodes.length;
            }

            @Override
            public LoadSnapshot load(int index, double now) {
                return nodes[index].snapshot(now);
            }
        };
    }
}

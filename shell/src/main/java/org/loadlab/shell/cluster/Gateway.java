package org.loadlab.shell.cluster;

import org.loadlab.shell.metrics.SinkFactory;

import org.loadlab.node.protocol.ChaosFaults;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.scenario.BuiltIns;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;
import org.loadlab.experiment.scenario.ScenarioLoader;

/**
 * The gateway role's registry of experiments, behind the HTTP control API: validates new
 * experiments, places their nodes and balancers on the members that are Up (node j on the
 * (j mod m)-th node member by address, balancer i likewise on the balancer members),
 * starts an {@link ExperimentRunner} per experiment and routes the API's questions to it.
 */
public final class Gateway extends AbstractBehavior<Gateway.Command> {
    /** Messages of the gateway (all local: the HTTP server runs in the same JVM). */
    public interface Command {
    }

    /**
     * A new experiment as POST /experiments describes it.
     *
     * @param scenarioName built-in scenario name, or null when {@code scenarioBody} is given
     * @param scenarioBody a scenario tree (JSON or HOCON text), or null
     * @param overrides {@code key=value} scenario overrides
     * @param policy policy name, null for the scenario's first
     * @param seed master seed, null for the scenario's first
     * @param timeScale scenario seconds per real second
     */
    public record ExperimentRequest(String scenarioName, String scenarioBody, List<String> overrides, String policy, Long seed,
                                    double timeScale) {
    }

    /** POST /experiments. */
    public record Create(ExperimentRequest request, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** GET /experiments/{id}. */
    public record Get(String id, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** GET /experiments. */
    public record ListAll(ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** DELETE /experiments/{id}. */
    public record Delete(String id, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** PUT /policy. */
    public record SwitchPolicy(String experiment, String policy, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** POST /chaos/inject and /chaos/clear ({@code fault} = clear). */
    public record Chaos(String experiment, int node, String fault, Double value, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** GET /nodes. */
    public record Nodes(String experiment, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** GET /explain-routing. */
    public record Explain(String experiment, int lastDecisions, ActorRef<GatewayReply> replyTo) implements Command {
    }

    private record HostListing(Receptionist.Listing listing) implements Command {
    }

    private record Ended(String id) implements Command {
    }

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final ClusterSettings settings;
    private final SinkFactory tees;
    private final ScenarioLoader loader = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
    private final Map<String, ActorRef<Protocol.RunnerCommand>> runners = new LinkedHashMap<>();
    private final Set<String> active = new LinkedHashSet<>();
    private final Map<String, ActorRef<Protocol.HostCommand>> hosts = new HashMap<>();
    private int counter;

    /**
     * @param settings the member's settings
     * @param tees give the drivers' observations (Kamon), or {@link SinkFactory#NONE}
     */
    public static Behavior<Command> create(ClusterSettings settings, SinkFactory tees) {
        return Behaviors.setup(ctx -> new Gateway(ctx, settings, tees));
    }

    private Gateway(ActorContext<Command> ctx, ClusterSettings settings, SinkFactory tees) {
        super(ctx);
        this.settings = settings;
        this.tees = tees;
        ctx.getSystem().receptionist().tell(Receptionist.subscribe(Protocol.HOST_KEY,
                ctx.messageAdapter(Receptionist.Listing.class, HostListing::new)));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(HostListing.class, l -> {
                    hosts.clear();
                    for (ActorRef<Protocol.HostCommand> ref : l.listing().getServiceInstances(Protocol.HOST_KEY)) {
                        hosts.put(memberOf(ref), ref);
                    }
                    return this;
                })
                .onMessage(Ended.class, e -> {
                    active.remove(e.id());
                    return this;
                })
                .onMessage(Create.class, c -> {
                    c.replyTo().tell(create(c.request()));
                    return this;
                })
                .onMessage(Get.class, g -> {
                    ActorRef<Protocol.RunnerCommand> r = runners.get(g.id());
                    if (r == null) {
                        g.replyTo().tell(GatewayReply.noExperiment(g.id(), runners.keySet()));
                    } else {
                        r.tell(new ExperimentRunner.GetStatus(g.replyTo()));
                    }
                    return this;
                })
                .onMessage(Delete.class, d -> {
                    ActorRef<Protocol.RunnerCommand> r = runners.get(d.id());
                    if (r == null) {
                        d.replyTo().tell(GatewayReply.noExperiment(d.id(), runners.keySet()));
                    } else {
                        r.tell(new ExperimentRunner.Stop(d.replyTo()));
                    }
                    return this;
                })
                .onMessage(ListAll.class, this::onList)
                .onMessage(SwitchPolicy.class, p -> {
                    List<String> switchable = switchablePolicies();
                    if (!switchable.contains(p.policy())) {
                        p.replyTo().tell(GatewayReply.badRequest("policy", p.policy(), switchable,
                                PolicyCatalog.find(p.policy()).isEmpty() ? "unknown policy '" + p.policy() + "'"
                                        : "'" + p.policy() + "' decides in several probe rounds; a live switch works between"
                                        + " single-round policies only (start an experiment with it instead)"));
                        return this;
                    }
                    return route(p.experiment(), p.replyTo(), true, r -> new ExperimentRunner.Policy(p.policy(), p.replyTo()));
                })
                .onMessage(Chaos.class, this::onChaos)
                .onMessage(Nodes.class, n -> {
                    if (n.experiment() == null && active.isEmpty()) {
                        n.replyTo().tell(GatewayReply.ok(noExperimentNodes()));
                        return this;
                    }
                    return route(n.experiment(), n.replyTo(), false, r -> new ExperimentRunner.Nodes(n.replyTo()));
                })
                .onMessage(Explain.class, e -> route(e.experiment(), e.replyTo(), true,
                        r -> new ExperimentRunner.Explain(e.lastDecisions(), e.replyTo())))
                .build();
    }

    /** The catalog policies a live switch accepts: every one (all run on the balancer's one decision engine). */
    private static List<String> switchablePolicies() {
        return PolicyCatalog.entries().stream().map(PolicyCatalog.Entry::name).toList();
    }

    private String memberOf(ActorRef<?> ref) {
        org.apache.pekko.actor.Address a = ref.path().address();
        return (a.hasGlobalScope() ? a : Cluster.get(getContext().getSystem()).selfMember().address()).toString();
    }

    /**
     * Sends the runner of {@code experiment} (or of the only running experiment) the
     * message {@code make} builds; answers a problem if there is no such experiment.
     */
    private Behavior<Command> route(String experiment, ActorRef<GatewayReply> replyTo, boolean needRunning,
                                   Function<ActorRef<Protocol.RunnerCommand>, Protocol.RunnerCommand> make) {
        String id = experiment;
        if (id == null) {
            if (active.isEmpty()) {
                replyTo.tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "no experiment is running; start one with POST /experiments"
                        + (runners.isEmpty() ? "" : " or name a finished one with ?experiment="), "experiment", null,
                        runners.keySet()));
                return this;
            }
            if (active.size() > 1) {
                replyTo.tell(GatewayReply.badRequest("experiment", null, active, "several experiments are running; name one"));
                return this;
            }
            id = active.iterator().next();
        }
        ActorRef<Protocol.RunnerCommand> r = runners.get(id);
        if (r == null) {
            replyTo.tell(GatewayReply.noExperiment(id, runners.keySet()));
            return this;
        }
        r.tell(make.apply(r));
        return this;
    }

    private Behavior<Command> onChaos(Chaos c) {
        if (!c.fault().equals("clear") && !ChaosFaults.NAMES.contains(c.fault())) {
            c.replyTo().tell(GatewayReply.badRequest("fault", c.fault(), ChaosFaults.NAMES, "unknown fault '" + c.fault() + "'"));
            return this;
        }
        double value = c.value() != null ? c.value() : ChaosFaults.defaultValue(c.fault());
        String bad = ChaosFaults.checkValue(c.fault(), value);
        if (bad != null) {
            c.replyTo().tell(GatewayReply.badRequest("value", value, bad, "value " + value + " does not fit fault " + c.fault()));
            return this;
        }
        return route(c.experiment(), c.replyTo(), true, r -> new ExperimentRunner.ChaosRequest(c.node(), c.fault(), value, c.replyTo()));
    }

    private Behavior<Command> onList(ListAll l) {
        List<ActorRef<Protocol.RunnerCommand>> all = new ArrayList<>(runners.values());
        getContext().spawnAnonymous(Collect.<GatewayReply>behavior(all.size(), Duration.ofSeconds(3),
                to -> all.forEach(r -> r.tell(new ExperimentRunner.GetStatus(to))),
                replies -> {
                    List<Map<String, Object>> list = new ArrayList<>();
                    for (GatewayReply r : replies) {
                        if (r instanceof GatewayReply.Ok ok && ok.data() instanceof Map<?, ?> status) {
                            Map<String, Object> o = new LinkedHashMap<>();
                            for (String f : List.of("id", "status", "scenario", "policy", "createdAt", "finishedAt")) {
                                o.put(f, status.get(f));
                            }
                            list.add(o);
                        }
                    }
                    list.sort(Comparator.comparing(o -> String.valueOf(o.get("createdAt"))));
                    l.replyTo().tell(GatewayReply.ok(Map.of("experiments", list)));
                }));
        return this;
    }

    private Map<String, Object> noExperimentNodes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", null);
        m.put("detail", "no experiment is running: node actors exist only during an experiment");
        m.put("nodeMembers", members("node"));
        m.put("nodes", List.of());
        return m;
    }

    /** Up members with {@code role}, by address. */
    private List<String> members(String role) {
        List<String> list = new ArrayList<>();
        for (Member m : Cluster.get(getContext().getSystem()).state().getMembers()) {
            if (m.status() == MemberStatus.up() && m.getRoles().contains(role)) {
                list.add(m.address().toString());
            }
        }
        list.sort(null);
        return list;
    }

    /** Scenario events that only the simulation produces (the cluster has real membership). */
    static final List<String> SIMULATED_ONLY_EVENTS = List.of("crash", "partition", "heartbeat-loss", "rejoin", "join", "leave");
    /** Scenario events a cluster experiment runs. */
    static final List<String> CLUSTER_EVENTS = List.of("fail", "recover", "degrade", "spike", "chaos");

    // ------------------------------------------------------------------ POST /experiments

    private GatewayReply create(ExperimentRequest req) {
        Scenario s;
        List<String> overrides = req.overrides() == null ? List.of() : req.overrides();
        try {
            if (req.scenarioBody() != null) {
                Config raw;
                try {
                    raw = ConfigFactory.parseString(req.scenarioBody());
                } catch (ConfigException e) {
                    return GatewayReply.badRequest("scenario", null, "a scenario object (see docs/scenarios.md)",
                            "the scenario body does not parse: " + e.getMessage());
                }
                s = loader.parse(ScenarioLoader.applyOverrides(raw, overrides, "request"), "request body", Path.of("."));
            } else {
                if (req.scenarioName() == null || !BuiltIns.SCENARIOS.containsKey(req.scenarioName())) {
                    return GatewayReply.badRequest("scenario", req.scenarioName(), BuiltIns.SCENARIOS.keySet(),
                            "give a built-in scenario name or a scenario object");
                }
                s = loader.load(req.scenarioName(), overrides);
            }
        } catch (ScenarioException e) {
            return GatewayReply.badScenario(req.scenarioName() != null ? req.scenarioName() : "request body", e.problems());
        }
        if (s.isReferenceModel() || s.isBallsIntoBins()) {
            return GatewayReply.badRequest("model", s.model(), List.of("message"),
                    "the " + (s.isReferenceModel() ? "time-stepped reference model" : "balls-into-bins model")
                            + " only simulates; use loadlab simulate");
        }
        if (s.information().model().equals("oracle")) {
            return GatewayReply.badRequest("information.model", "oracle", List.of("probe", "cached"),
                    "cluster mode has no oracle view of remote nodes");
        }
        for (int i = 0; i < s.events().size(); i++) {
            String type = s.events().get(i).type();
            if (SIMULATED_ONLY_EVENTS.contains(type)) {
                return GatewayReply.badRequest("events[" + i + "].type", type, CLUSTER_EVENTS, "'" + type + "' is a simulated"
                        + " membership event; on a cluster, make it for real (start or stop a member, SIGKILL or SIGSTOP"
                        + " one, cut the network: docs/cluster.md) and the cluster's own membership reaches the balancers");
            }
        }
        if (s.nodes().count() > settings.maxNodes()) {
            return GatewayReply.badRequest("nodes.count", s.nodes().count(), "1.." + settings.maxNodes(),
                    "too many nodes for one cluster experiment (loadlab.cluster.max-nodes)");
        }
        String policy = req.policy() != null ? req.policy() : s.policies().get(0);
        if (org.loadlab.experiment.scenario.Scenario.isLoadSharing(policy)) {
            return GatewayReply.badRequest("policy", policy, PolicyCatalog.names().split(", "),
                    "'" + policy + "' is a peer load-sharing protocol; cluster mode runs balancer policies only (simulate and"
                            + " --mode live run load sharing)");
        }
        if (PolicyCatalog.find(policy).isEmpty()) {
            return GatewayReply.badRequest("policy", policy, PolicyCatalog.names().split(", "), "unknown policy '" + policy + "'");
        }
        long seed = req.seed() != null ? req.seed() : s.seeds().get(0);
        if (!(req.timeScale() > 0 && req.timeScale() <= 1000)) {
            return GatewayReply.badRequest("timeScale", req.timeScale(), "(0, 1000]", "scenario seconds per real second");
        }
        if (active.size() >= settings.maxRunning()) {
            return GatewayReply.problem(GatewayReply.Kind.TOO_MANY, active.size() + " experiment(s) running, the limit is "
                    + settings.maxRunning() + " (loadlab.cluster.max-running-experiments)", "experiment", null, active);
        }
        List<String> waiting = new ArrayList<>();
        for (String role : List.of("node", "balancer")) {
            members(role).stream().filter(m -> !hosts.containsKey(m) && !waiting.contains(m)).forEach(waiting::add);
        }
        if (!waiting.isEmpty()) {
            return GatewayReply.problem(GatewayReply.Kind.NOT_READY, "member(s) " + waiting + " are Up but their hosts are not"
                    + " registered with the Receptionist yet; retry in a second", "members", waiting, null);
        }
        List<String> nodeMembers = members("node").stream().filter(hosts::containsKey).toList();
        List<String> balancerMembers = members("balancer").stream().filter(hosts::containsKey).toList();
        if (nodeMembers.isEmpty() || balancerMembers.isEmpty()) {
            return GatewayReply.problem(GatewayReply.Kind.NOT_READY, "the cluster has no Up member with role "
                    + (nodeMembers.isEmpty() ? "node" : "balancer") + " yet", "roles", null, List.of("node", "balancer"));
        }
        Map<String, List<Integer>> nodeShare = new TreeMap<>();
        Map<String, List<Integer>> balancerShare = new TreeMap<>();
        for (int j = 0; j < s.nodes().count(); j++) {
            nodeShare.computeIfAbsent(nodeMembers.get(j % nodeMembers.size()), k -> new ArrayList<>()).add(j);
        }
        for (int i = 0; i < s.balancers().count(); i++) {
            balancerShare.computeIfAbsent(balancerMembers.get(i % balancerMembers.size()), k -> new ArrayList<>()).add(i);
        }
        Map<String, ExperimentRunner.Placement> placements = new TreeMap<>();
        Set<String> involved = new LinkedHashSet<>(nodeShare.keySet());
        involved.addAll(balancerShare.keySet());
        for (String m : involved) {
            placements.put(m, new ExperimentRunner.Placement(m, hosts.get(m), nodeShare.getOrDefault(m, List.of()),
                    balancerShare.getOrDefault(m, List.of())));
        }
        String id = "exp-" + LocalDateTime.now().format(ID_TIME) + "-" + (++counter);
        ExperimentRunner.Definition def = new ExperimentRunner.Definition(id, s, policy, seed, req.timeScale(),
                Path.of(".").toAbsolutePath().normalize().toString(), placements);
        ActorRef<Command> self = getContext().getSelf();
        ActorRef<Protocol.RunnerCommand> runner = getContext().spawn(ExperimentRunner.create(def, settings, tees,
                () -> self.tell(new Ended(id))), "runner-" + id);
        runners.put(id, runner);
        active.add(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("status", "starting");
        body.put("scenario", s.name());
        body.put("policy", policy);
        body.put("seed", seed);
        body.put("timeScale", req.timeScale());
        Map<String, Object> where = new LinkedHashMap<>();
        placements.values().forEach(p -> where.put(p.member(), Map.of("nodes", p.nodes(), "balancers", p.balancers())));
        body.put("assignment", where);
        body.put("links", Map.of("self", "/experiments/" + id));
        return new GatewayReply.Created(body, "/experiments/" + id);
    }
}

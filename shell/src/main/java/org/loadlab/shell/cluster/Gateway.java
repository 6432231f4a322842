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
import org.loadlab.experiment.run.RunAssembly;
import org.loadlab.experiment.run.RunSpec;

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

    /**
     * The states DELETE stops an experiment in (a stopping one answers 202 again); an ended
     * one (finished, stopped, failed, interrupted) gets 409 naming its state, and keeps
     * everything stored.
     */
    public static final List<String> STOPPABLE = List.of("starting", "running", "draining", "stopping");

    /** DELETE /experiments/{id}: stops a running experiment (202), or 409 naming the state of an ended one. */
    public record Delete(String id, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** PUT /policy. */
    public record SwitchPolicy(String experiment, String policy, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** POST /chaos/inject and /chaos/clear ({@code fault} = clear). */
    public record Chaos(String experiment, int node, String fault, Double value, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** POST /experiments/{id}/rerun: a new experiment with the definition of {@code id} (running, ended or interrupted). */
    public record Rerun(String id, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** GET /nodes. */
    public record Nodes(String experiment, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /** GET /explain-routing. */
    public record Explain(String experiment, int lastDecisions, ActorRef<GatewayReply> replyTo) implements Command {
    }

    /**
     * The gateway member shuts down (CoordinatedShutdown: SIGTERM, Ctrl-C, standard input closed,
     * max-lifetime, a downing): every experiment under way is stopped as DELETE stops it (its
     * observations merged, its result files written, its end journaled as stopped); the
     * gateway takes no new experiment from then on (503) and answers once every one is
     * journaled, or when {@code within} has passed, with what it could not do.
     *
     * @param why why the member stops, in words (it becomes part of each experiment's end reason)
     * @param within how long the stop may take (loadlab.cluster.shutdown-timeout)
     * @param replyTo told the outcome, one line per experiment that was under way
     */
    public record StopAll(String why, Duration within, ActorRef<StopAllReport> replyTo) implements Command {
    }

    /**
     * What {@link StopAll} did.
     *
     * @param lines one line per experiment that was under way: stopped with its files and journal entry, or what is
     *     left undone (interrupted, no files)
     * @param complete true if every one was stopped and its end journaled (or the journal is off) in time
     */
    public record StopAllReport(List<String> lines, boolean complete) {
        /** Copies the lines. */
        public StopAllReport {
            lines = List.copyOf(lines);
        }
    }

    /** The journal's state of {@code id} after its runner ended during a {@link StopAll}, or the failure to read it. */
    private record StopJournaled(String id, ExperimentEntity.State state, Throwable failure) implements Command {
    }

    /** {@link StopAll}'s time is up. */
    private record StopAllDeadline() implements Command {
    }

    private record HostListing(Receptionist.Listing listing) implements Command {
    }

    private record Ended(String id) implements Command {
    }

    private record JournalOpened(Throwable failure) implements Command {
    }

    private record JournaledIds(ExperimentEntity.Registry.Ids ids) implements Command {
    }

    /** The state of journaled experiment {@code id}, or null and the {@code failure} if its entity did not answer. */
    private record Recovered(String id, ExperimentEntity.State state, Throwable failure) implements Command {
    }

    /** The JIT warm-up run of experiment {@code id} ended. */
    private record WarmedUp(String id) implements Command {
    }

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    /** How long a journaled experiment's entity may take to recover its state (from the journal) and answer. */
    private static final java.time.Duration RECOVERY_TIMEOUT = java.time.Duration.ofSeconds(30);

    private final ClusterSettings settings;
    private final SinkFactory tees;
    private final ScenarioLoader loader = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
    private final Map<String, ActorRef<Protocol.RunnerCommand>> runners = new LinkedHashMap<>();
    private final Set<String> active = new LinkedHashSet<>();
    private final Map<String, ActorRef<Protocol.HostCommand>> hosts = new HashMap<>();
    /** Members that have run an experiment or a warm-up since their host registered (their JIT is warm). */
    private final Set<String> warmMembers = new java.util.HashSet<>();
    private final Map<String, Set<String>> involvedOf = new HashMap<>();
    private final Map<String, ActorRef<Protocol.RunnerCommand>> warmups = new HashMap<>();
    /** Every experiment's definition (this gateway's and the journal's), for reruns. */
    private final Map<String, ExperimentEntity.Definition> definitions = new HashMap<>();
    /** Experiments of earlier gateways, as the journal has them (their last status). */
    private final Map<String, com.fasterxml.jackson.databind.JsonNode> recorded = new LinkedHashMap<>();
    private final Map<String, ActorRef<ExperimentEntity.Command>> entities = new HashMap<>();
    private ActorRef<ExperimentEntity.Registry.Command> registry;
    /** null while the journal opens; then "ready", "off" or why it failed. */
    private String journalState;
    private int recovering;
    private int counter;
    /** The member's shutdown under way, or null. */
    private StopAll stopping;
    /** When {@link #stopping} must answer (System.nanoTime). */
    private long stopDeadline;
    /** Experiments {@link #stopping} waits for: "stopping" until their runner ended, then "journaling". */
    private final Map<String, String> pendingStops = new LinkedHashMap<>();
    /** {@link #stopping}'s lines so far. */
    private final List<String> stopLines = new ArrayList<>();
    /** Experiments {@link #stopping} reported as not stopped in time, whose runners have not ended yet. */
    private final Set<String> lateStops = new LinkedHashSet<>();
    /** False once one experiment of {@link #stopping} was not stopped and journaled. */
    private boolean stopAllComplete = true;

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
        if (settings.journal()) {
            java.util.concurrent.CompletionStage<org.apache.pekko.Done> opened;
            try {
                opened = org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils.createIfNotExists(ctx.getSystem());
            } catch (RuntimeException e) {
                opened = java.util.concurrent.CompletableFuture.failedFuture(e);
            }
            ctx.pipeToSelf(opened, (done, failure) -> new JournalOpened(failure));
        } else {
            journalState = "off";
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(HostListing.class, l -> {
                    Map<String, ActorRef<Protocol.HostCommand>> before = new HashMap<>(hosts);
                    hosts.clear();
                    for (ActorRef<Protocol.HostCommand> ref : l.listing().getServiceInstances(Protocol.HOST_KEY)) {
                        hosts.put(memberOf(ref), ref);
                    }
                    // A member that left, or restarted on the same address (a new host actor), is cold again.
                    warmMembers.removeIf(m -> !hosts.containsKey(m) || !hosts.get(m).equals(before.get(m)));
                    return this;
                })
                .onMessage(JournalOpened.class, this::onJournalOpened)
                .onMessage(JournaledIds.class, this::onJournaledIds)
                .onMessage(Recovered.class, this::onRecovered)
                .onMessage(Rerun.class, this::onRerun)
                .onMessage(StopAll.class, this::onStopAll)
                .onMessage(StopJournaled.class, this::onStopJournaled)
                .onMessage(StopAllDeadline.class, d -> onStopAllDeadline())
                .onMessage(Ended.class, e -> {
                    if (stopping != null && pendingStops.containsKey(e.id())) {
                        onStoppedForShutdown(e.id());
                    } else if (lateStops.remove(e.id())) {
                        // The member is still leaving: the line said it might end yet, so say that it did.
                        System.err.println("loadlab: gateway shutdown: " + ShutdownLines.stoppedLate(e.id(), resultsOf(e.id())));
                    }
                    active.remove(e.id());
                    warmMembers.addAll(involvedOf.getOrDefault(e.id(), Set.of()));
                    ActorRef<Protocol.RunnerCommand> w = warmups.remove(e.id());
                    if (w != null) { // stopped or failed during its warm-up: the warm-up goes too
                        w.tell(new ExperimentRunner.Stop(getContext().getSystem().ignoreRef()));
                    }
                    return this;
                })
                .onMessage(WarmedUp.class, w -> {
                    warmMembers.addAll(involvedOf.getOrDefault(w.id(), Set.of()));
                    warmups.remove(w.id());
                    ActorRef<Protocol.RunnerCommand> r = runners.get(w.id());
                    if (r != null) {
                        r.tell(new ExperimentRunner.Proceed());
                    }
                    return this;
                })
                .onMessage(Create.class, c -> startCreate(c.request(), null, c.replyTo()))
                .onMessage(Built.class, b -> {
                    b.replyTo().tell(create(b));
                    return this;
                })
                .onMessage(Get.class, g -> {
                    ActorRef<Protocol.RunnerCommand> r = runners.get(g.id());
                    if (r != null) {
                        r.tell(new ExperimentRunner.GetStatus(g.replyTo()));
                    } else if (recorded.containsKey(g.id())) {
                        g.replyTo().tell(GatewayReply.ok(recorded.get(g.id())));
                    } else {
                        g.replyTo().tell(GatewayReply.noExperiment(g.id(), known()));
                    }
                    return this;
                })
                .onMessage(Delete.class, d -> {
                    ActorRef<Protocol.RunnerCommand> r = runners.get(d.id());
                    if (r == null && recorded.containsKey(d.id())) {
                        d.replyTo().tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "experiment " + d.id() + " is "
                                + recorded.get(d.id()).path("status").asText() + " (journaled by an earlier gateway): nothing"
                                + " to stop; POST /experiments/" + d.id() + "/rerun runs it again", "status",
                                recorded.get(d.id()).path("status").asText(), STOPPABLE));
                    } else if (r == null) {
                        d.replyTo().tell(GatewayReply.noExperiment(d.id(), known()));
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
                .onMessage(Explain.class, e -> route(e.experiment(), e.replyTo(), false,
                        r -> new ExperimentRunner.Explain(e.lastDecisions(), e.replyTo())))
                .build();
    }

    // ------------------------------------------------------------------ the member's shutdown

    /** The 503 of a POST /experiments (or rerun) while the member shuts down. */
    private GatewayReply shuttingDown() {
        return GatewayReply.problem(GatewayReply.Kind.NOT_READY, "the gateway is shutting down (" + stopping.why()
                + "): it takes no new experiment", "experiment", null, null);
    }

    private Behavior<Command> onStopAll(StopAll s) {
        if (stopping != null) {
            s.replyTo().tell(new StopAllReport(List.of("the gateway was already stopping its experiments"), false));
            return this;
        }
        stopping = s;
        stopDeadline = System.nanoTime() + s.within().toNanos();
        for (String id : active) {
            pendingStops.put(id, "stopping");
            // What DELETE does: the run stops, its observations are merged, its files written, its end journaled.
            runners.get(id).tell(new ExperimentRunner.Stop(getContext().getSystem().ignoreRef(),
                    "stopped by the gateway's shutdown (" + s.why() + ")"));
        }
        if (pendingStops.isEmpty()) {
            answerStopAll(true);
        } else {
            getContext().scheduleOnce(s.within(), getContext().getSelf(), new StopAllDeadline());
        }
        return this;
    }

    /**
     * {@link StopAll}'s time is up: every experiment still pending gets its line (not stopped, or
     * stopped but its end not journaled) and the shutdown is answered as incomplete. Runners that
     * have not ended yet are remembered, so a late end is still reported on stderr.
     */
    private Behavior<Command> onStopAllDeadline() {
        if (stopping == null || pendingStops.isEmpty()) {
            return this; // everything was answered in time
        }
        pendingStops.forEach((id, step) -> {
            if (step.equals("stopping")) {
                stopLines.add(ShutdownLines.notStopped(id, stopping.within(), settings.checkpointInterval()));
                lateStops.add(id);
            } else {
                stopLines.add(ShutdownLines.notJournaled(id, resultsOf(id), stopping.within()));
            }
        });
        pendingStops.clear();
        answerStopAll(false);
        return this;
    }

    /**
     * Experiment {@code id}'s runner ended during the shutdown (files written): confirm that its
     * end is in the journal. The entity handles commands in order and holds them while it
     * persists, so its answer to this Get comes after the End the runner told it before it ended.
     */
    private void onStoppedForShutdown(String id) {
        ActorRef<ExperimentEntity.Command> entity = entities.get(id);
        if (entity == null) { // journal off or unavailable: nothing to confirm
            pendingStops.remove(id);
            stopLines.add(ShutdownLines.stopped(id, null, null, resultsOf(id), journalState));
            answerIfDone(true);
            return;
        }
        pendingStops.put(id, "journaling");
        Duration left = Duration.ofNanos(Math.max(1_000_000L, stopDeadline - System.nanoTime()));
        getContext().ask(ExperimentEntity.State.class, entity, left, ExperimentEntity.Get::new,
                (st, failure) -> new StopJournaled(id, st, failure));
    }

    private Behavior<Command> onStopJournaled(StopJournaled j) {
        if (stopping == null || pendingStops.remove(j.id()) == null) {
            return this; // answered at the deadline already
        }
        if (j.state() == null || !j.state().ended()) {
            stopLines.add(ShutdownLines.notJournaled(j.id(), resultsOf(j.id()), stopping.within()));
            answerIfDone(false);
            return this;
        }
        String error = j.state().statusJson() == null ? null : StatusJson.read(j.state().statusJson()).path("error").asText(null);
        stopLines.add(ShutdownLines.stopped(j.id(), j.state().status(), error, resultsOf(j.id()), journalState));
        answerIfDone(true);
        return this;
    }

    /** Notes whether one experiment was stopped and journaled, and answers {@link #stopping} once none is pending. */
    private void answerIfDone(boolean ok) {
        stopAllComplete &= ok;
        if (pendingStops.isEmpty()) {
            answerStopAll(stopAllComplete);
        }
    }

    private void answerStopAll(boolean complete) {
        stopping.replyTo().tell(new StopAllReport(stopLines, complete && stopAllComplete));
    }

    /** Experiment {@code id}'s result directory if its runner wrote its files there (results.json), else null. */
    private Path resultsOf(String id) {
        Path dir = settings.resultsDir().resolve(id);
        return java.nio.file.Files.isRegularFile(dir.resolve("results.json")) ? dir : null;
    }

    /** Every experiment id this gateway knows (its own and the journal's). */
    private List<String> known() {
        List<String> ids = new ArrayList<>(recorded.keySet());
        ids.addAll(runners.keySet());
        return ids;
    }

    // ------------------------------------------------------------------ the journal

    private Behavior<Command> onJournalOpened(JournalOpened o) {
        if (o.failure() != null) {
            journalState = "unavailable: " + o.failure().getMessage();
            getContext().getLog().error("the experiment journal ({}) could not be opened, experiments are not journaled: {}",
                    ExperimentStore.describe(settings.resultsDir(), System.getenv()), o.failure().toString());
            return this;
        }
        registry = getContext().spawn(ExperimentEntity.Registry.create(), "journal-registry");
        registry.tell(new ExperimentEntity.Registry.GetIds(getContext().messageAdapter(ExperimentEntity.Registry.Ids.class,
                JournaledIds::new)));
        return this;
    }

    private Behavior<Command> onJournaledIds(JournaledIds j) {
        recovering = j.ids().ids().size();
        for (String id : j.ids().ids()) {
            // An ask per entity, not a message adapter: an actor has one adapter per message
            // class, so adapters made in this loop would all answer for the last id, and every
            // experiment's state would be listed (and interrupted) under that one id.
            getContext().ask(ExperimentEntity.State.class, entity(id), RECOVERY_TIMEOUT, ExperimentEntity.Get::new,
                    (state, failure) -> new Recovered(id, state, failure));
        }
        if (recovering == 0) {
            journalState = "ready";
        }
        return this;
    }

    private ActorRef<ExperimentEntity.Command> entity(String id) {
        return entities.computeIfAbsent(id, k -> getContext().spawn(ExperimentEntity.create(k), "journal-" + k));
    }

    /** An experiment of an earlier gateway: listed with its last status; one without an end was interrupted. */
    private Behavior<Command> onRecovered(Recovered r) {
        ExperimentEntity.State st = r.state();
        if (st == null) {
            getContext().getLog().warn("journaled experiment {} could not be recovered and is not listed: {}", r.id(),
                    String.valueOf(r.failure()));
        } else if (st.definition() != null) {
            definitions.put(r.id(), st.definition());
            com.fasterxml.jackson.databind.node.ObjectNode status;
            if (st.statusJson() != null) {
                status = (com.fasterxml.jackson.databind.node.ObjectNode) StatusJson.read(st.statusJson());
            } else {
                status = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
                status.put("id", r.id());
                status.put("scenario", st.definition().scenario());
                status.put("policy", st.definition().policy());
                status.put("seed", st.definition().seed());
                status.put("createdAt", st.definition().createdAt());
            }
            String interruptedAt = st.interruptedAt();
            if (!st.ended()) {
                interruptedAt = java.time.Instant.now().toString();
                entity(r.id()).tell(new ExperimentEntity.Interrupt(interruptedAt));
            }
            if (st.ended() && !st.status().equals("interrupted")) {
                status.put("status", st.status());
            } else {
                status.put("status", "interrupted");
                status.put("interruptedAt", interruptedAt);
                status.put("detail", "the gateway stopped while this experiment ran; progress, metricsSoFar and accounting"
                        + " are its last checkpoint (" + st.checkpoints() + " taken); POST /experiments/" + r.id()
                        + "/rerun runs it again");
            }
            status.put("journaled", true);
            recorded.put(r.id(), status);
        }
        if (--recovering <= 0) {
            journalState = "ready";
            getContext().getLog().info("experiment journal ready ({}): {} experiment(s) of earlier gateways",
                    ExperimentStore.describe(settings.resultsDir(), System.getenv()), recorded.size());
        }
        return this;
    }

    private Behavior<Command> onRerun(Rerun r) {
        ExperimentEntity.Definition d = definitions.get(r.id());
        if (d == null) {
            r.replyTo().tell(GatewayReply.noExperiment(r.id(), known()));
            return this;
        }
        return startCreate(new ExperimentRequest(null, d.scenarioJson(), List.of(), d.policy(), d.seed(), d.timeScale()), r.id(),
                r.replyTo());
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
     *
     * @param needRunning true for requests that change a running experiment (policy, chaos): when
     *     none runs, the 409 does not suggest naming an ended one, which would only get another 409
     */
    private Behavior<Command> route(String experiment, ActorRef<GatewayReply> replyTo, boolean needRunning,
                                   Function<ActorRef<Protocol.RunnerCommand>, Protocol.RunnerCommand> make) {
        String id = experiment;
        if (id == null) {
            if (active.isEmpty()) {
                replyTo.tell(GatewayReply.problem(GatewayReply.Kind.CONFLICT, "no experiment is running; start one with POST /experiments"
                        + (runners.isEmpty() || needRunning ? "" : " or name an ended one with ?experiment="), "experiment", null,
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
                    for (var e : recorded.entrySet()) {
                        if (!runners.containsKey(e.getKey())) {
                            Map<String, Object> o = new LinkedHashMap<>();
                            for (String f : List.of("id", "status", "scenario", "policy", "createdAt", "finishedAt")) {
                                com.fasterxml.jackson.databind.JsonNode v = e.getValue().get(f);
                                o.put(f, v == null || v.isNull() ? null : v.asText());
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

    /** True if a JIT warm-up is configured and one of {@code involved} has not run anything yet. */
    private boolean needsWarmup(Set<String> involved) {
        return !settings.jitWarmup().isZero() && !settings.jitWarmup().isNegative() && !warmMembers.containsAll(involved);
    }

    /**
     * The experiment's own scenario, cut to the warm-up's length, with no warm-up window and
     * no scripted events; null if it cannot be cut (then the experiment starts cold).
     */
    private Scenario warmupScenario(Scenario s, double timeScale, String baseDir) {
        double seconds = settings.jitWarmup().toMillis() / 1000.0 * timeScale;
        try {
            Config cut = ScenarioLoader.applyOverrides(ConfigFactory.parseString(s.resolvedJson()),
                    List.of("duration = " + seconds, "warmup = 0", "events = []"), "jit warm-up");
            return loader.parse(cut, "jit warm-up of " + s.name(), Path.of(baseDir));
        } catch (ScenarioException | ConfigException e) {
            org.slf4j.LoggerFactory.getLogger(Gateway.class).warn("no JIT warm-up for scenario {}: {}", s.name(), e.getMessage());
            return null;
        }
    }

    /**
     * What the building of a new experiment produced off the gateway's thread: the validated
     * scenario, policy, seed, the run's cores and those of its JIT warm-up run — or the problem.
     */
    private record Built(ExperimentRequest request, String rerunOf, ActorRef<GatewayReply> replyTo, Scenario scenario,
                         String policy, long seed, RunAssembly assembly, Scenario warmup, RunAssembly warmupAssembly,
                         GatewayReply problem) implements Command {
    }

    /** Runners (their merge, their driver) run on their own dispatcher, away from the API's. */
    static final org.apache.pekko.actor.typed.Props RUNNER_DISPATCHER =
            org.apache.pekko.actor.typed.DispatcherSelector.fromConfig("loadlab.runner-dispatcher");

    /** Most {@code set} overrides of one POST /experiments. */
    public static final int MAX_OVERRIDES = 1000;
    /** Most scripted events of one cluster experiment (each is a timer on the gateway). */
    public static final int MAX_EVENTS = 10_000;

    /**
     * Starts building experiment {@code req} on the build dispatcher (parsing and validating
     * a scenario and building its cores can take long for a large one: never on the gateway's
     * thread, which answers every other API call); {@link Built} comes back.
     */
    private Behavior<Command> startCreate(ExperimentRequest req, String rerunOf, ActorRef<GatewayReply> replyTo) {
        if (stopping != null) {
            replyTo.tell(shuttingDown());
            return this;
        }
        if (journalState == null) {
            replyTo.tell(GatewayReply.problem(GatewayReply.Kind.NOT_READY, "the experiment journal is opening ("
                    + ExperimentStore.describe(settings.resultsDir(), System.getenv()) + "); retry in a second", "journal", null, null));
            return this;
        }
        int overrides = req.overrides() == null ? 0 : req.overrides().size();
        if (overrides > MAX_OVERRIDES) {
            replyTo.tell(GatewayReply.badRequest("set", overrides + " keys", "at most " + MAX_OVERRIDES + " keys",
                    "too many scenario overrides; put them in a scenario object instead"));
            return this;
        }
        if (!(req.timeScale() > 0 && req.timeScale() <= 1000)) {
            replyTo.tell(GatewayReply.badRequest("timeScale", req.timeScale(), "(0, 1000]", "timeScale " + req.timeScale()
                    + " is out of range: it is scenario seconds per real second, above 0 and at most 1000"));
            return this;
        }
        boolean warmup = !settings.jitWarmup().isZero() && !settings.jitWarmup().isNegative();
        String baseDir = Path.of(".").toAbsolutePath().normalize().toString();
        java.util.concurrent.Executor builders = getContext().getSystem().dispatchers()
                .lookup(org.apache.pekko.actor.typed.DispatcherSelector.fromConfig(BUILD_DISPATCHER));
        getContext().pipeToSelf(java.util.concurrent.CompletableFuture.supplyAsync(() -> build(req, rerunOf, replyTo, warmup,
                baseDir), builders), (built, failure) -> built != null ? built : new Built(req, rerunOf, replyTo, null, null, 0,
                null, null, null, GatewayReply.problem(GatewayReply.Kind.BAD_REQUEST, "the experiment could not be built: "
                + failure, "scenario", null, null)));
        return this;
    }

    /** The dispatcher that parses scenarios and builds cores (loadlab.build-dispatcher, shell reference.conf). */
    static final String BUILD_DISPATCHER = "loadlab.build-dispatcher";

    /**
     * The problem with a scenario tree whose {@code events} is a list of more than
     * {@link #MAX_EVENTS} entries, or null. Checked before the scenario is validated, so an
     * over-long list of malformed events is refused as a whole, not answered with one problem
     * per event (10,001 malformed ones made a body of several MB).
     */
    private static GatewayReply tooManyEvents(Config tree) {
        try {
            if (tree.hasPath("events") && tree.getValue("events") instanceof com.typesafe.config.ConfigList events
                    && events.size() > MAX_EVENTS) {
                return tooManyEvents(events.size());
            }
        } catch (ConfigException e) {
            // e.g. an unresolved substitution: the scenario's validation names it
        }
        return null;
    }

    /** The problem with {@code count} scripted events, more than {@link #MAX_EVENTS}. */
    private static GatewayReply tooManyEvents(int count) {
        return GatewayReply.badRequest("events", count + " events", "at most " + MAX_EVENTS,
                "too many scripted events for one cluster experiment");
    }

    /** Parses, validates and builds (pure: runs on the build dispatcher). */
    private Built build(ExperimentRequest req, String rerunOf, ActorRef<GatewayReply> replyTo, boolean withWarmup, String baseDir) {
        java.util.function.Function<GatewayReply, Built> no = p -> new Built(req, rerunOf, replyTo, null, null, 0, null, null,
                null, p);
        Scenario s;
        List<String> overrides = new ArrayList<>(req.overrides() == null ? List.of() : req.overrides());
        if (req.policy() != null) {
            if (!Scenario.isLoadSharing(req.policy()) && PolicyCatalog.find(req.policy()).isEmpty()) {
                return no.apply(GatewayReply.badRequest("policy", req.policy(), PolicyCatalog.names().split(", "),
                        "unknown policy '" + req.policy() + "'"));
            }
            // The scenario is validated with the policy that runs as its only policy, so the checks
            // across keys (policy.k within the allowed set, p2c needing 2 nodes, ...) apply to it
            // exactly as `simulate --policies` applies them, whatever the scenario's own list says.
            overrides.add("policies = [\"" + req.policy() + "\"]");
        }
        try {
            if (req.scenarioBody() != null) {
                Config raw;
                try {
                    raw = ConfigFactory.parseString(req.scenarioBody());
                } catch (ConfigException e) {
                    return no.apply(GatewayReply.badRequest("scenario", null, "a scenario object (see docs/scenarios.md)",
                            "the scenario body does not parse: " + e.getMessage()));
                }
                Config tree = ScenarioLoader.applyOverrides(raw, overrides, "request");
                GatewayReply tooMany = tooManyEvents(tree);
                if (tooMany != null) {
                    return no.apply(tooMany);
                }
                s = loader.parse(tree, "request body", Path.of("."));
            } else {
                if (req.scenarioName() == null || !BuiltIns.SCENARIOS.containsKey(req.scenarioName())) {
                    return no.apply(GatewayReply.badRequest("scenario", req.scenarioName(), BuiltIns.SCENARIOS.keySet(),
                            "unknown scenario '" + req.scenarioName() + "': give a built-in scenario name (loadlab scenarios lists"
                                    + " them) or a scenario object"));
                }
                // A built-in scenario's own events are few; a longer list can only come from the overrides.
                GatewayReply tooMany = tooManyEvents(ScenarioLoader.applyOverrides(ConfigFactory.empty(), overrides, "request"));
                if (tooMany != null) {
                    return no.apply(tooMany);
                }
                s = loader.load(req.scenarioName(), overrides);
            }
        } catch (ScenarioException e) {
            return no.apply(GatewayReply.badScenario(req.scenarioName() != null ? req.scenarioName() : "request body",
                    e.problems()));
        }
        String policy = req.policy() != null ? req.policy() : s.policies().get(0);
        GatewayReply refused = clusterRefusal(s, policy, settings.maxNodes());
        if (refused != null) {
            return no.apply(refused);
        }
        long seed = req.seed() != null ? req.seed() : s.seeds().get(0);
        RunAssembly assembly = RunAssembly.build(new RunSpec(s, policy, seed));
        Scenario w = withWarmup ? warmupScenario(s, req.timeScale(), baseDir) : null;
        RunAssembly wa = w == null ? null : RunAssembly.build(new RunSpec(w, policy, seed));
        return new Built(req, rerunOf, replyTo, s, policy, seed, assembly, w, wa, null);
    }

    /**
     * What a cluster experiment refuses in a valid scenario, before anything is placed
     * (docs/cluster.md, "What cluster mode refuses"): a model that only simulates, the oracle
     * information model, more than {@value #MAX_EVENTS} events, simulated membership events,
     * more nodes than {@code loadlab.cluster.max-nodes}, chaos events with a load-sharing
     * protocol. {@code local-cluster --experiment} asks the same before it starts a member.
     *
     * @param s the resolved scenario
     * @param policy the policy that runs
     * @param maxNodes {@code loadlab.cluster.max-nodes}
     * @return a 400 naming the key, the value and what is allowed, or null when the cluster can run it
     */
    public static GatewayReply clusterRefusal(Scenario s, String policy, int maxNodes) {
        if (s.isReferenceModel() || s.isBallsIntoBins()) {
            return GatewayReply.badRequest("model", s.model(), List.of("message"),
                    "the " + (s.isReferenceModel() ? "time-stepped reference model" : "balls-into-bins model")
                            + " only simulates; use loadlab simulate");
        }
        if (s.information().model().equals("oracle")) {
            return GatewayReply.badRequest("information.model", "oracle", List.of("probe", "cached"),
                    "cluster mode has no oracle view of remote nodes");
        }
        if (s.events().size() > MAX_EVENTS) {
            return tooManyEvents(s.events().size());
        }
        for (int i = 0; i < s.events().size(); i++) {
            String type = s.events().get(i).type();
            if (SIMULATED_ONLY_EVENTS.contains(type)) {
                return GatewayReply.badRequest("events[" + i + "].type", type, CLUSTER_EVENTS, "'" + type + "' is a"
                        + " simulated membership event; on a cluster, make it for real (start or stop a member, SIGKILL or"
                        + " SIGSTOP one, cut the network: docs/cluster.md) and the cluster's own membership reaches the balancers");
            }
        }
        if (s.nodes().count() > maxNodes) {
            return GatewayReply.badRequest("nodes.count", s.nodes().count(), "1.." + maxNodes,
                    "too many nodes for one cluster experiment (loadlab.cluster.max-nodes)");
        }
        boolean peers = Scenario.isLoadSharing(policy);
        if (peers && s.events().stream().anyMatch(e -> e.type().equals("chaos"))) {
            return GatewayReply.badRequest("events", "chaos", List.of("fail", "recover", "degrade", "spike"),
                    "chaos faults act on backend nodes; the peer nodes of load-sharing protocol '" + policy + "' take fail,"
                            + " recover and degrade events");
        }
        return null;
    }

    /** Places a built experiment on the members and starts it (on the gateway's thread: quick). */
    private GatewayReply create(Built b) {
        if (b.problem() != null) {
            return b.problem();
        }
        if (stopping != null) { // built while the member began to shut down
            return shuttingDown();
        }
        ExperimentRequest req = b.request();
        String rerunOf = b.rerunOf();
        Scenario s = b.scenario();
        String policy = b.policy();
        long seed = b.seed();
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
        boolean peers = b.assembly().loadSharing(); // peers need node members only: no balancer
        if (nodeMembers.isEmpty() || balancerMembers.isEmpty() && !peers) {
            return GatewayReply.problem(GatewayReply.Kind.NOT_READY, "the cluster has no Up member with role "
                    + (nodeMembers.isEmpty() ? "node" : "balancer") + " yet", "roles", null, List.of("node", "balancer"));
        }
        Map<String, List<Integer>> nodeShare = new TreeMap<>();
        Map<String, List<Integer>> balancerShare = new TreeMap<>();
        for (int j = 0; j < s.nodes().count(); j++) {
            nodeShare.computeIfAbsent(nodeMembers.get(j % nodeMembers.size()), k -> new ArrayList<>()).add(j);
        }
        for (int i = 0; i < b.assembly().balancers().length; i++) {
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
        while (runners.containsKey(id) || recorded.containsKey(id)) {
            id = "exp-" + LocalDateTime.now().format(ID_TIME) + "-" + (++counter);
        }
        String baseDir = Path.of(".").toAbsolutePath().normalize().toString();
        Scenario warmup = needsWarmup(involved) ? b.warmup() : null;
        ExperimentRunner.Definition def = new ExperimentRunner.Definition(id, s, policy, seed, req.timeScale(), baseDir,
                placements, null, warmup != null);
        ActorRef<Command> self = getContext().getSelf();
        ActorRef<ExperimentEntity.Command> journal = null;
        if ("ready".equals(journalState)) {
            journal = entity(id);
            journal.tell(new ExperimentEntity.Define(new ExperimentEntity.Definition(id, s.name(), s.resolvedJson(), policy, seed,
                    req.timeScale(), java.time.Instant.now().toString(), rerunOf)));
            registry.tell(new ExperimentEntity.Registry.Register(id));
        }
        definitions.put(id, new ExperimentEntity.Definition(id, s.name(), s.resolvedJson(), policy, seed, req.timeScale(),
                java.time.Instant.now().toString(), rerunOf));
        String experimentId = id;
        ActorRef<Protocol.RunnerCommand> runner = getContext().spawn(ExperimentRunner.create(def, settings, tees, journal,
                b.assembly(), () -> self.tell(new Ended(experimentId))), "runner-" + id, RUNNER_DISPATCHER);
        runners.put(id, runner);
        active.add(id);
        involvedOf.put(id, Set.copyOf(involved));
        if (warmup != null) {
            ExperimentRunner.Definition w = new ExperimentRunner.Definition(id + "-jit-warmup", warmup, policy, seed,
                    req.timeScale(), baseDir, placements, id, false);
            warmups.put(id, getContext().spawn(ExperimentRunner.create(w, settings, SinkFactory.NONE, null, b.warmupAssembly(),
                    () -> self.tell(new WarmedUp(experimentId))), "runner-" + w.id(), RUNNER_DISPATCHER));
        }
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

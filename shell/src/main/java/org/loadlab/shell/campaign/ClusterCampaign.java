package org.loadlab.shell.campaign;

import com.typesafe.config.Config;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.campaign.CampaignResults;
import org.loadlab.shell.cluster.CampaignSharding;
import org.loadlab.shell.cluster.ClusterMember;
import org.loadlab.shell.cluster.MemberOptions;

/**
 * A campaign spread over a running LoadLab cluster ({@code campaign run --cluster}): this
 * process joins the cluster as a member with the role {@value #ROLE} (it hosts nothing the
 * cluster places), keeps the campaign's journal ({@link CampaignEntity}: H2 in the
 * campaign directory, or PostgreSQL with {@code LOADLAB_JDBC_URL}) and sends the runs to
 * the {@link CampaignSharding} entities on the members with the
 * {@value CampaignSharding#ROLE} role, which simulate them with the code a one-machine
 * campaign uses. The results come back here and are stored and written exactly as a
 * one-machine campaign's, in plan order, so the files do not depend on which member ran
 * which run, or when.
 */
public final class ClusterCampaign implements AutoCloseable {
    /** The cluster role of the coordinating process. */
    public static final String ROLE = "campaign";

    /**
     * The campaign could not go on on the cluster: a run failed on a member, no member with
     * the node role is left, or none accepted a run. Every run finished before is stored.
     */
    public static final class Failed extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message);
        }
    }

    /** How long the coordinator waits for some member to accept a run before it gives up. */
    static final Duration ACCEPT_TIMEOUT = Duration.ofSeconds(60);

    private final ActorSystem<Void> system;
    private final ActorRef<CampaignSharding.ExecuteRun> region;
    private final List<String> seeds;

    private ClusterCampaign(ActorSystem<Void> system, ActorRef<CampaignSharding.ExecuteRun> region, List<String> seeds) {
        this.system = system;
        this.region = region;
        this.seeds = seeds;
    }

    /**
     * Joins the cluster whose seeds are {@code seeds} and waits until at least one member
     * with the {@value CampaignSharding#ROLE} role is up. Nothing is written meanwhile (the
     * journal is opened by {@link #run}).
     *
     * @param seeds seed nodes, {@code host:port} or {@code pekko://loadlab@host:port}
     * @param dir the campaign's directory (where its H2 journal goes)
     * @param env the process environment (PostgreSQL journal settings, PEKKO_HOST)
     * @param timeout how long to wait for the cluster
     * @param settings further HOCON settings of this member (key = value)
     * @throws IllegalArgumentException if no cluster answered within {@code timeout} or it has no member to run runs
     */
    public static ClusterCampaign connect(List<String> seeds, Path dir, Map<String, String> env, Duration timeout,
                                          List<String> settings) {
        List<String> extra = new ArrayList<>(List.of("loadlab.cluster.roles = [" + ROLE + "]", "loadlab.metrics.kamon = off"));
        extra.addAll(settings);
        // Port 0: any free port; the host is 127.0.0.1 unless PEKKO_HOST names an address the members can reach.
        Config member = ClusterMember.withoutKamonRemoteInstrument(
                new MemberOptions(null, null, 0, seeds, null, null, null, extra).config());
        Config config = CampaignStore.config(dir, env).withFallback(member).resolve();
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), MemberOptions.SYSTEM, config);
        try {
            Cluster cluster = Cluster.get(system);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline && (cluster.selfMember().status() != MemberStatus.up() || runMembers(cluster).isEmpty())) {
                Thread.sleep(100);
            }
            if (cluster.selfMember().status() != MemberStatus.up()) {
                throw new IllegalArgumentException("no LoadLab cluster answered at " + String.join(",", seeds) + " within "
                        + timeout.toSeconds() + " s; start one (./loadlab local-cluster --nodes 2) or name its seed with --seed-nodes");
            }
            if (runMembers(cluster).isEmpty()) {
                throw new IllegalArgumentException("the cluster at " + String.join(",", seeds) + " has no member with the "
                        + CampaignSharding.ROLE + " role to run campaign runs (start one with ./loadlab cluster --role node)");
            }
            ActorRef<CampaignSharding.ExecuteRun> region = CampaignSharding.init(system, CampaignResults::execute);
            return new ClusterCampaign(system, region, seeds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdown(system);
            throw new IllegalStateException("interrupted while joining the cluster", e);
        } catch (RuntimeException e) {
            shutdown(system);
            throw e;
        }
    }

    private static List<String> runMembers(Cluster cluster) {
        List<String> l = new ArrayList<>();
        for (Member m : cluster.state().getMembers()) {
            if (m.hasRole(CampaignSharding.ROLE) && m.status() == MemberStatus.up()) {
                l.add(m.address().host().get() + ":" + m.address().port().get());
            }
        }
        return l;
    }

    /** The members that run campaign runs now (host:port), for the start line. */
    public List<String> runMembers() {
        return runMembers(Cluster.get(system));
    }

    /**
     * Runs (or resumes) {@code plan} on the cluster: what {@link CampaignRunner#run} does on
     * one machine, with the runs simulated on the members.
     *
     * @param plan the validated plan
     * @param dir its output directory
     * @param out where progress goes
     * @param terminal whether {@code out} is a terminal (progress bar) or not (log lines)
     * @throws IllegalStateException if a run fails, the journal cannot be used or no member is left to run runs
     */
    public CampaignRunner.Outcome run(CampaignPlan plan, Path dir, PrintStream out, boolean terminal) {
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        CampaignRunner.await(SchemaUtils.createIfNotExists(system), "create the journal tables");
        ActorRef<CampaignEntity.Command> entity = system.systemActorOf(CampaignEntity.create(plan.id()), "campaign", Props.empty());
        CampaignEntity.State state = CampaignRunner.await(AskPattern.ask(entity,
                (ActorRef<CampaignEntity.State> r) -> new CampaignEntity.Start(plan.definitionJson(), plan.runs().size(), r),
                CampaignRunner.ASK_TIMEOUT, system.scheduler()), "start the campaign entity");
        List<CampaignPlan.PlannedRun> pending = new ArrayList<>();
        for (CampaignPlan.PlannedRun r : plan.executionOrder()) {
            if (!state.completed().containsKey(r.index())) {
                pending.add(r);
            }
        }
        int resumedFrom = plan.runs().size() - pending.size();
        CompletableFuture<Done> done = new CompletableFuture<>();
        ClusterCampaignCoordinator.Placement placement = new ClusterCampaignCoordinator.Placement();
        String baseDir = Path.of(".").toAbsolutePath().normalize().toString();
        try (CampaignProgress progress = new CampaignProgress(plan.id(), plan.runs().size(), resumedFrom, t0, out, terminal)) {
            system.systemActorOf(ClusterCampaignCoordinator.create(region, entity, plan.id(), pending, baseDir, ACCEPT_TIMEOUT,
                    i -> progress.step(), placement, done), "cluster-campaign", Props.empty());
            try {
                done.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running the campaign on the cluster", e);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof Failed f) {
                    throw f;
                }
                throw new IllegalStateException("could not run the campaign on the cluster: " + e.getCause().getMessage(), e.getCause());
            }
        }
        CampaignRunner.await(AskPattern.ask(entity, CampaignEntity.Finish::new, CampaignRunner.ASK_TIMEOUT, system.scheduler()),
                "finish the campaign");
        CampaignEntity.State last = CampaignRunner.await(AskPattern.ask(entity, CampaignEntity.GetState::new,
                CampaignRunner.ASK_TIMEOUT, system.scheduler()), "read the results");
        if (!placement.runsByMember().isEmpty()) {
            StringBuilder line = new StringBuilder("  runs per member:");
            placement.runsByMember().forEach((m, n) -> line.append(' ').append(m.replace("pekko://" + MemberOptions.SYSTEM + "@", ""))
                    .append(' ').append(n).append(','));
            line.setLength(line.length() - 1);
            if (placement.redoneRuns() > 0) {
                line.append(String.format(Locale.ROOT, "; %d run(s) sent again after their member was lost", placement.redoneRuns()));
            }
            out.println(line);
        }
        return new CampaignRunner.Outcome(plan.runs().size(), resumedFrom, (System.nanoTime() - t0) / 1e9,
                List.copyOf(last.completed().values()));
    }

    /** The seeds this campaign joined through. */
    public List<String> seeds() {
        return seeds;
    }

    /** Leaves the cluster gracefully and terminates this process's actor system. */
    @Override
    public void close() {
        shutdown(system);
    }

    private static void shutdown(ActorSystem<Void> system) {
        // Leaving closes the connections to every member; their aborted outbound streams are no news here.
        system.classicSystem().eventStream().setLogLevel(org.apache.pekko.event.Logging.ErrorLevel());
        try {
            CoordinatedShutdown.get(Adapter.toClassic(system)).runAll(CoordinatedShutdown.unknownReason())
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            system.terminate();
        }
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // best effort: the results are written or the failure is already reported
        }
    }
}

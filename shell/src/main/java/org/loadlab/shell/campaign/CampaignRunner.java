package org.loadlab.shell.campaign;

import org.loadlab.experiment.campaign.CampaignPlan;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;

/**
 * Runs (or resumes) a campaign: opens its journal, asks the {@link CampaignEntity} which
 * runs are already stored, lets a {@link CampaignCoordinator} execute the rest on
 * {@code workers} worker actors, marks the campaign finished and returns every run's
 * result in plan order. Re-running a finished campaign only re-reads its journal. The
 * simulations themselves run on a {@link RunPrefetch} pool of {@code workers} threads,
 * which for a fresh campaign starts before the actor system does.
 */
public final class CampaignRunner {
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(60);
    /** Runs the table creation of a fresh journal beside the actor system's start (a daemon thread per call). */
    private static final java.util.concurrent.Executor JOURNAL_SETUP = task -> {
        Thread t = new Thread(task, "loadlab-journal-setup");
        t.setDaemon(true);
        t.start();
    };
    /** Phase timings at DEBUG (docs/performance.md, "Campaigns", shows how to switch them on). */
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CampaignRunner.class);

    private CampaignRunner() {
    }

    /**
     * What a campaign run produced.
     *
     * @param total runs in the plan
     * @param resumedFrom runs already stored when this process started
     * @param wallSeconds time this process spent, seconds
     * @param runJsons every run's result JSON, in plan order
     */
    public record Outcome(int total, int resumedFrom, double wallSeconds, List<String> runJsons) {
    }

    /**
     * @param plan the validated plan
     * @param dir output directory (holds the H2 journal unless PostgreSQL is configured)
     * @param workers worker actors, ≥ 1
     * @param execute runs one planned run, returns its result JSON
     * @param out where progress goes
     * @param terminal whether {@code out} is a terminal (progress bar) or not (log lines)
     * @throws IllegalStateException if a run fails or the journal cannot be used
     */
    public static Outcome run(CampaignPlan plan, Path dir, int workers, Function<CampaignPlan.PlannedRun, String> execute,
                              PrintStream out, boolean terminal) {
        long t0 = System.nanoTime();
        phase("campaign started", t0);
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        // A fresh campaign has nothing stored yet: simulate while the actor system and journal start,
        // and create the journal's H2 file and tables while the actor system starts.
        boolean fresh = CampaignStore.isFresh(dir, env());
        List<CampaignPlan.PlannedRun> order = plan.executionOrder();
        RunPrefetch prefetch = fresh ? new RunPrefetch(order, workers, execute) : null;
        if (prefetch != null && LOG.isDebugEnabled()) {
            prefetch.whenAllDone(() -> phase("every run simulated", t0));
        }
        CompletableFuture<Void> tables = fresh ? CompletableFuture.runAsync(() -> CampaignStore.createTables(dir), JOURNAL_SETUP)
                : null;
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "loadlab-campaign", config(dir, workers));
        try {
            phase("actor system up", t0);
            if (tables != null) {
                await(tables, "create the journal tables");
            } else {
                await(SchemaUtils.createIfNotExists(system), "create the journal tables");
            }
            phase("journal tables ready", t0);
            ActorRef<CampaignEntity.Command> entity = system.systemActorOf(CampaignEntity.create(plan.id()), "campaign",
                    org.apache.pekko.actor.typed.Props.empty());
            CampaignEntity.State state = await(AskPattern.ask(entity,
                    (ActorRef<CampaignEntity.State> r) -> new CampaignEntity.Start(plan.definitionJson(), plan.runs().size(), r),
                    ASK_TIMEOUT, system.scheduler()), "start the campaign entity");
            phase("campaign entity started", t0);
            List<CampaignPlan.PlannedRun> pending = new ArrayList<>();
            for (CampaignPlan.PlannedRun r : order) {
                if (!state.completed().containsKey(r.index())) {
                    pending.add(r);
                }
            }
            int resumedFrom = plan.runs().size() - pending.size();
            if (prefetch == null) {
                prefetch = new RunPrefetch(pending, workers, execute);
            }
            RunPrefetch ahead = prefetch;
            CompletableFuture<Done> done = new CompletableFuture<>();
            try (CampaignProgress progress = new CampaignProgress(plan.id(), plan.runs().size(), resumedFrom, t0, out, terminal)) {
                system.systemActorOf(CampaignCoordinator.create(entity, pending, workers, ahead::result, i -> {
                    if (progress.step() == resumedFrom + 1) {
                        phase("first run stored", t0);
                    }
                }, done),
                        "coordinator", org.apache.pekko.actor.typed.Props.empty());
                await(done, "run the campaign");
            }
            phase("every run stored", t0);
            await(AskPattern.ask(entity, CampaignEntity.Finish::new, ASK_TIMEOUT, system.scheduler()), "finish the campaign");
            CampaignEntity.State last = await(AskPattern.ask(entity, CampaignEntity.GetState::new, ASK_TIMEOUT,
                    system.scheduler()), "read the results");
            return new Outcome(plan.runs().size(), resumedFrom, (System.nanoTime() - t0) / 1e9,
                    List.copyOf(last.completed().values()));
        } finally {
            if (prefetch != null) {
                prefetch.close();
            }
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                // The results are returned or the failure is already thrown; shutdown is best effort.
            }
        }
    }

    /**
     * Reads a campaign's state from its journal without running anything.
     *
     * @param campaignId the id
     * @param dir its output directory
     */
    public static CampaignEntity.State status(String campaignId, Path dir) {
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "loadlab-status", config(dir, 1));
        try {
            await(SchemaUtils.createIfNotExists(system), "open the journal");
            ActorRef<CampaignEntity.Command> entity = system.systemActorOf(CampaignEntity.create(campaignId), "campaign",
                    org.apache.pekko.actor.typed.Props.empty());
            return await(AskPattern.ask(entity, CampaignEntity.GetState::new, ASK_TIMEOUT, system.scheduler()), "read the journal");
        } finally {
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                // best effort
            }
        }
    }

    private static Config config(Path dir, int workers) {
        Config dispatcher = ConfigFactory.parseString(CampaignCoordinator.WORKER_DISPATCHER + " {\n"
                + "  type = Dispatcher\n  executor = thread-pool-executor\n"
                + "  thread-pool-executor.fixed-pool-size = " + workers + "\n  throughput = 1\n}");
        Config quiet = ConfigFactory.parseString("""
                pekko.loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
                pekko.logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
                pekko.loglevel = WARNING
                pekko.stdout-loglevel = WARNING
                pekko.log-dead-letters = off
                pekko.log-dead-letters-during-shutdown = off
                """);
        // Local actor system: only the serializers the journal uses are created (LocalSerializers).
        return LocalSerializers.trim(ConfigFactory.defaultOverrides()
                .withFallback(ConfigFactory.defaultApplication())
                .withFallback(CampaignStore.config(dir, System.getenv()))
                .withFallback(dispatcher)
                .withFallback(quiet)
                .withFallback(ConfigFactory.defaultReference())
                .resolve());
    }

    private static void phase(String what, long t0) {
        if (LOG.isDebugEnabled()) {
            long cpu = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
            LOG.debug("{} after {} ms (process CPU time so far {} ms)", what, (System.nanoTime() - t0) / 1_000_000, cpu / 1_000_000);
        }
    }

    static <T> T await(java.util.concurrent.CompletionStage<T> stage, String what) {
        try {
            return stage.toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new IllegalStateException("could not " + what + ": " + cause.getMessage(), cause);
        }
    }

    /** Environment used for the store (visible for the CLI's messages). */
    static Map<String, String> env() {
        return System.getenv();
    }
}

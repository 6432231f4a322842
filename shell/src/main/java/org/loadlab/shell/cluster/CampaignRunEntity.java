package org.loadlab.shell.cluster;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityContext;
import org.apache.pekko.cluster.typed.Cluster;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;
import org.loadlab.shell.cluster.CampaignSharding.ExecuteRun;
import org.loadlab.shell.cluster.CampaignSharding.RunCommand;
import org.loadlab.shell.cluster.CampaignSharding.RunReply;

/**
 * One campaign run on a cluster member, as a sharded entity: it rebuilds the run's
 * scenario from the resolved JSON the coordinator sent, simulates it with the same code a
 * one-machine campaign uses (on {@value CampaignSharding#RUN_DISPATCHER}, one thread per
 * core), sends the result JSON back in chunks and passivates. A second {@link ExecuteRun}
 * for the same run while it is queued or running adds its sender to those answered, so a
 * resend never runs a run twice at once. Stopped before it finished (its shard handed to
 * another member), it tells the coordinator {@link CampaignSharding.RunAbandoned} and drops
 * the run if it had not started.
 */
final class CampaignRunEntity extends AbstractBehavior<RunCommand> {

    /** Messages the entity sends itself or gets from its shard; never cross a JVM. */
    sealed interface Internal extends RunCommand {
    }

    /** The shard's stop message (passivation, hand-off). */
    enum Stop implements Internal {
        INSTANCE
    }

    private record Finished(String json) implements Internal {
    }

    private record Failed(String error) implements Internal {
    }

    private final Function<CampaignPlan.PlannedRun, String> execute;
    private final EntityContext<RunCommand> entity;
    private final String member;
    private final Set<ActorRef<RunReply>> replyTo = new LinkedHashSet<>();
    private CompletableFuture<String> running;
    private int index = -1;
    private boolean answered;
    private String resultJson;
    private String resultError;

    static Behavior<RunCommand> create(EntityContext<RunCommand> entity, Function<CampaignPlan.PlannedRun, String> execute) {
        return Behaviors.setup(ctx -> new CampaignRunEntity(ctx, entity, execute));
    }

    private CampaignRunEntity(ActorContext<RunCommand> context, EntityContext<RunCommand> entity,
                              Function<CampaignPlan.PlannedRun, String> execute) {
        super(context);
        this.entity = entity;
        this.execute = execute;
        this.member = Cluster.get(context.getSystem()).selfMember().address().toString();
    }

    @Override
    public Receive<RunCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(ExecuteRun.class, this::onExecute)
                .onMessage(Finished.class, f -> answer(f.json(), null))
                .onMessage(Failed.class, f -> answer(null, f.error()))
                .onMessageEquals(Stop.INSTANCE, this::onStop)
                .onSignal(PostStop.class, s -> onPostStop())
                .build();
    }

    private Behavior<RunCommand> onExecute(ExecuteRun e) {
        e.replyTo().tell(new CampaignSharding.RunAccepted(e.index(), member));
        if (answered) {
            // Finished and passivating: answer from the result kept until the stop.
            send(e.replyTo(), resultJson, resultError);
            return this;
        }
        replyTo.add(e.replyTo());
        if (running == null) {
            index = e.index();
            CampaignPlan.PlannedRun run;
            try {
                run = plannedRun(e);
            } catch (RuntimeException ex) {
                getContext().getSelf().tell(new Failed("the scenario of run " + e.index() + " cannot be rebuilt here: " + ex.getMessage()));
                return this;
            }
            Executor pool = getContext().getSystem().dispatchers().lookup(DispatcherSelector.fromConfig(CampaignSharding.RUN_DISPATCHER));
            running = CompletableFuture.supplyAsync(() -> execute.apply(run), pool);
            getContext().pipeToSelf(running, (json, error) -> json != null ? new Finished(json) : new Failed(describe(error)));
        }
        return this;
    }

    /** The planned run the coordinator described: the scenario parsed from its resolved JSON as the gateway's members do. */
    static CampaignPlan.PlannedRun plannedRun(ExecuteRun e) {
        ScenarioLoader loader = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
        Scenario s = loader.parse(com.typesafe.config.ConfigFactory.parseString(e.scenarioJson()), "run " + e.index() + " of "
                + e.campaign(), Path.of(e.baseDir()));
        return new CampaignPlan.PlannedRun(e.index(), e.scenario(), new TreeMap<>(e.parameters()), e.variant(),
                new RunSpec(s, e.policy(), e.seed()));
    }

    private static String describe(Throwable error) {
        Throwable t = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private Behavior<RunCommand> answer(String json, String error) {
        answered = true;
        running = null;
        resultJson = json;
        resultError = error;
        for (ActorRef<RunReply> to : replyTo) {
            send(to, json, error);
        }
        replyTo.clear();
        // Done: passivate (the shard stops us with Stop, buffering anything sent meanwhile).
        entity.getShard().tell(new ClusterSharding.Passivate<>(getContext().getSelf()));
        return this;
    }

    /** The result in chunks of at most {@link CampaignSharding#CHUNK_CHARS} characters, or the failure. */
    private void send(ActorRef<RunReply> to, String json, String error) {
        if (error != null) {
            to.tell(new CampaignSharding.RunFailed(index, member, error));
            return;
        }
        String executor = getContext().getSelf().toString();
        int parts = Math.max(1, (json.length() + CampaignSharding.CHUNK_CHARS - 1) / CampaignSharding.CHUNK_CHARS);
        for (int p = 0; p < parts; p++) {
            String text = json.substring(p * CampaignSharding.CHUNK_CHARS, Math.min(json.length(), (p + 1) * CampaignSharding.CHUNK_CHARS));
            to.tell(new CampaignSharding.RunChunk(index, member, executor, p, parts, text));
        }
    }

    private Behavior<RunCommand> onStop() {
        return Behaviors.stopped();
    }

    private Behavior<RunCommand> onPostStop() {
        if (running != null) {
            // Handed off or shut down before the run finished: do not start it if still queued, and have it sent again.
            running.cancel(false);
            for (ActorRef<RunReply> to : replyTo) {
                to.tell(new CampaignSharding.RunAbandoned(index, member));
            }
        }
        return this;
    }
}

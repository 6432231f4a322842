package org.loadlab.shell.cluster;

import java.util.Map;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.ShardingMessageExtractor;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.kernel.CborSerializable;

/**
 * Campaigns across a cluster with Pekko Cluster Sharding: the entity type whose entities
 * are single campaign runs ({@link CampaignRunEntity}, one entity per campaign and run
 * index, hosted by the members with the {@value #ROLE} role), and the messages between
 * them and the coordinator that spreads a campaign ({@code shell.campaign.ClusterCampaign}).
 *
 * <p>Placement: run {@code i} lives in shard {@code i mod } {@value #SHARDS}; Pekko's
 * least-shard allocation hands each new shard to the member that has the fewest, so
 * consecutive runs alternate between the members. When a member is removed its shards are
 * allocated anew on the next message for them, which is how the coordinator's resend of a
 * lost run lands on a surviving member.
 *
 * <p>Source: docs/cluster.md, "Campaigns across the cluster"; the Pekko Cluster Sharding docs.
 */
public final class CampaignSharding {
    private CampaignSharding() {
    }

    /** The sharded entity type of campaign runs. */
    public static final EntityTypeKey<RunCommand> KEY = EntityTypeKey.create(RunCommand.class, "loadlab-campaign-run");

    /** Members with this role host campaign runs (the members that host node actors). */
    public static final String ROLE = "node";

    /** Shards of the entity type; more runs than this share shards, run i in shard i mod SHARDS. */
    public static final int SHARDS = 1000;

    /** The dispatcher campaign runs simulate on: one thread per core of the member (reference.conf). */
    public static final String RUN_DISPATCHER = "loadlab.campaign.run-dispatcher";

    /** Longest text of one result chunk, in characters: at most 3 bytes each in CBOR, well below Artery's 256 KiB frame. */
    static final int CHUNK_CHARS = 40_000;

    /** What a campaign-run entity accepts. */
    public sealed interface RunCommand extends CborSerializable permits ExecuteRun, CampaignRunEntity.Internal {
    }

    /**
     * Simulate one run of a campaign and send the result to {@code replyTo}. Sent again for
     * the same run (a resend after a member was lost), it only adds {@code replyTo} to those
     * the running entity answers.
     *
     * @param campaign campaign id
     * @param index run index in the plan
     * @param scenario scenario name (as in runs.csv)
     * @param parameters swept keys and their values at this run's point
     * @param variant policy variant name
     * @param scenarioJson the run's resolved scenario (every override applied), parsed again on the member
     * @param baseDir directory relative trace paths are resolved against (the coordinator's working directory)
     * @param policy catalog policy or load-sharing protocol the run uses
     * @param seed master seed of the run
     * @param replyTo the coordinator
     */
    public record ExecuteRun(String campaign, int index, String scenario, Map<String, String> parameters, String variant,
                             String scenarioJson, String baseDir, String policy, long seed, ActorRef<RunReply> replyTo)
            implements RunCommand {
        /** Copies the parameters. */
        public ExecuteRun {
            parameters = Map.copyOf(parameters);
        }

        /** The entity id of this run. */
        String entityId() {
            return campaign + "#" + index;
        }
    }

    /** What a campaign's coordinator accepts: the run entities' replies, and messages of its own. */
    public interface CoordinatorMessage {
    }

    /** What a campaign-run entity sends its coordinator. */
    public sealed interface RunReply extends CborSerializable, CoordinatorMessage {
    }

    /**
     * The run arrived at an entity on {@code member} and is queued or running there.
     *
     * @param index run index
     * @param member the member's address (pekko://loadlab@host:port)
     */
    public record RunAccepted(int index, String member) implements RunReply {
    }

    /**
     * Part {@code part} (0-based) of {@code parts} of run {@code index}'s result JSON.
     *
     * @param executor identifies the entity incarnation that ran it (chunks of two incarnations are never mixed)
     */
    public record RunChunk(int index, String member, String executor, int part, int parts, String text) implements RunReply {
    }

    /**
     * The run's simulation threw.
     *
     * @param error the exception in words
     */
    public record RunFailed(int index, String member, String error) implements RunReply {
    }

    /** The entity was stopped before its run finished (its shard moved to another member): the run must be sent again. */
    public record RunAbandoned(int index, String member) implements RunReply {
    }

    /** The shard of a run's entity id ({@code campaign#index}): the index modulo {@link #SHARDS}. */
    public static String shardOf(String entityId) {
        int index = Integer.parseInt(entityId.substring(entityId.lastIndexOf('#') + 1));
        return String.valueOf(index % SHARDS);
    }

    private static final class Extractor extends ShardingMessageExtractor<ExecuteRun, RunCommand> {
        @Override
        public String entityId(ExecuteRun message) {
            return message.entityId();
        }

        @Override
        public String shardId(String entityId) {
            return shardOf(entityId);
        }

        @Override
        public RunCommand unwrapMessage(ExecuteRun message) {
            return message;
        }
    }

    /**
     * Starts the shard region of campaign runs on a member with the {@value #ROLE} role
     * (or, on any other member, a proxy to the regions of those members).
     *
     * @param system the member's actor system
     * @param execute simulates one planned run and returns its result JSON (CampaignResults::execute)
     * @return where to send {@link ExecuteRun}s
     */
    public static ActorRef<ExecuteRun> init(ActorSystem<?> system, Function<CampaignPlan.PlannedRun, String> execute) {
        return ClusterSharding.get(system).init(Entity.of(KEY, ctx -> CampaignRunEntity.create(ctx, execute))
                .withRole(ROLE)
                .withStopMessage(CampaignRunEntity.Stop.INSTANCE)
                .withMessageExtractor(new Extractor()));
    }
}

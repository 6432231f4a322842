package org.loadlab.shell.campaign;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.shell.cluster.CampaignSharding;
import org.loadlab.shell.cluster.CampaignSharding.ExecuteRun;

/**
 * Spreads a campaign's pending runs over the cluster and stores each result in the
 * {@link CampaignEntity}, like {@link CampaignCoordinator} does with local workers. The
 * pending runs are sent to the shard region of campaign runs as fast as members accept
 * them (at most {@link #WINDOW} unaccepted at a time); the members queue them on their run
 * dispatchers. A run counts as done only once its
 * {@code RunCompleted} event is in the journal.
 *
 * <p>Runs are sent again — and, their shard being allocated anew, land on a surviving
 * member — when the member that accepted them is removed from the cluster (killed and
 * downed, or left), when their entity was stopped before it finished (shard hand-off),
 * and every {@link #RESEND} while no member has accepted them. A resend of a run that is
 * still queued or running only adds a listener to its entity; a result that arrives twice
 * (a resend that crossed the first answer) is stored once. Since runs are seeded, a run
 * redone elsewhere gives the same bytes.
 */
final class ClusterCampaignCoordinator extends AbstractBehavior<CampaignSharding.CoordinatorMessage> {

    /** Messages of the coordinator (the run entities' replies among them). */
    interface Message extends CampaignSharding.CoordinatorMessage {
    }

    private record Stored(int index) implements Message {
    }

    private record StoreFailed(int index, Throwable error) implements Message {
    }

    private enum Tick implements Message {
        INSTANCE
    }

    private record Removed(ClusterEvent.MemberRemoved event) implements Message {
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClusterCampaignCoordinator.class);

    /** How often runs no member has accepted yet are sent again. */
    static final Duration RESEND = Duration.ofSeconds(5);

    /**
     * Most runs sent and not yet accepted at once: a member accepts a run as soon as it
     * arrives, so this only paces a campaign of many thousand runs to what Artery's send
     * queue to a member holds (3,072 messages).
     */
    static final int WINDOW = 1000;

    /**
     * Where the runs ran, for the summary line (read once the campaign is done).
     *
     * @param runsByMember results received from each member's address
     */
    record Placement(TreeMap<String, Integer> runsByMember, int[] redone) {
        Placement() {
            this(new TreeMap<>(), new int[1]);
        }

        /** Runs sent again because the member that had them was lost. */
        int redoneRuns() {
            return redone[0];
        }
    }

    private final ActorRef<ExecuteRun> region;
    private final ActorRef<CampaignEntity.Command> entity;
    private final String campaignId;
    private final String baseDir;
    private final Map<Integer, CampaignPlan.PlannedRun> outstanding = new TreeMap<>();
    private final Map<Integer, String> acceptedBy = new HashMap<>();
    private final Map<Integer, Long> lastSent = new HashMap<>();
    private final java.util.ArrayDeque<CampaignPlan.PlannedRun> unsent = new java.util.ArrayDeque<>();
    private final Map<String, String[]> partial = new HashMap<>();
    private final IntConsumer onStored;
    private final Placement placement;
    private final CompletableFuture<Done> done;
    private final Duration acceptTimeout;
    private final long startNanos = System.nanoTime();
    private boolean anyAccepted;
    private int storing;

    /**
     * @param region the shard region (or proxy) of campaign runs
     * @param entity the campaign entity (journal)
     * @param campaignId the campaign id
     * @param pending runs still to do
     * @param baseDir directory relative trace paths resolve against on the members
     * @param acceptTimeout fail when no member has accepted any run this long after the start
     * @param onStored called with the run index after each stored result
     * @param placement filled with where runs ran
     * @param done completed when every run is stored (exceptionally on a failed run or a cluster without run members)
     */
    static Behavior<CampaignSharding.CoordinatorMessage> create(ActorRef<ExecuteRun> region, ActorRef<CampaignEntity.Command> entity, String campaignId,
                                    List<CampaignPlan.PlannedRun> pending, String baseDir, Duration acceptTimeout,
                                    IntConsumer onStored, Placement placement, CompletableFuture<Done> done) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            timers.startTimerWithFixedDelay(Tick.INSTANCE, RESEND);
            return new ClusterCampaignCoordinator(ctx, region, entity, campaignId, pending, baseDir, acceptTimeout, onStored,
                    placement, done);
        }));
    }

    private ClusterCampaignCoordinator(ActorContext<CampaignSharding.CoordinatorMessage> context, ActorRef<ExecuteRun> region,
                                       ActorRef<CampaignEntity.Command> entity, String campaignId,
                                       List<CampaignPlan.PlannedRun> pending, String baseDir, Duration acceptTimeout,
                                       IntConsumer onStored, Placement placement, CompletableFuture<Done> done) {
        super(context);
        this.region = region;
        this.entity = entity;
        this.campaignId = campaignId;
        this.baseDir = baseDir;
        this.acceptTimeout = acceptTimeout;
        this.onStored = onStored;
        this.placement = placement;
        this.done = done;
        ActorRef<ClusterEvent.MemberRemoved> removed = context.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new);
        Cluster.get(context.getSystem()).subscriptions().tell(Subscribe.create(removed, ClusterEvent.MemberRemoved.class));
        for (CampaignPlan.PlannedRun r : pending) {
            outstanding.put(r.index(), r);
        }
        if (outstanding.isEmpty()) {
            done.complete(Done.getInstance());
        }
        unsent.addAll(pending);
        sendMore();
    }

    /** Sends runs not sent yet while fewer than {@link #WINDOW} sent runs wait to be accepted. */
    private void sendMore() {
        while (!unsent.isEmpty() && lastSent.size() - acceptedBy.size() < WINDOW) {
            send(unsent.poll());
        }
    }

    @Override
    public Receive<CampaignSharding.CoordinatorMessage> createReceive() {
        return newReceiveBuilder()
                .onMessage(CampaignSharding.RunAccepted.class, this::onAccepted)
                .onMessage(CampaignSharding.RunChunk.class, this::onChunk)
                .onMessage(CampaignSharding.RunFailed.class, this::onFailed)
                .onMessage(CampaignSharding.RunAbandoned.class, this::onAbandoned)
                .onMessage(Stored.class, this::onStoredRun)
                .onMessage(StoreFailed.class, f -> fail("the journal did not store run " + f.index() + ": " + f.error()))
                .onMessage(Removed.class, this::onRemoved)
                .onMessageEquals(Tick.INSTANCE, this::onTick)
                .build();
    }

    private void send(CampaignPlan.PlannedRun r) {
        lastSent.put(r.index(), System.nanoTime());
        region.tell(new ExecuteRun(campaignId, r.index(), r.scenario(), r.parameters(), r.variant(),
                r.spec().scenario().resolvedJson(), baseDir, r.spec().policy(), r.spec().seed(), getContext().getSelf().narrow()));
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onAccepted(CampaignSharding.RunAccepted a) {
        if (outstanding.containsKey(a.index()) && lastSent.containsKey(a.index())) {
            acceptedBy.put(a.index(), a.member());
            anyAccepted = true;
            sendMore();
        }
        return this;
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onChunk(CampaignSharding.RunChunk c) {
        if (!outstanding.containsKey(c.index())) {
            return this; // stored already: a resend crossed the first answer
        }
        String[] parts = partial.computeIfAbsent(c.index() + " " + c.executor(), k -> new String[c.parts()]);
        parts[c.part()] = c.text();
        for (String p : parts) {
            if (p == null) {
                return this;
            }
        }
        String prefix = c.index() + " ";
        partial.keySet().removeIf(k -> k.startsWith(prefix));
        outstanding.remove(c.index());
        acceptedBy.remove(c.index());
        lastSent.remove(c.index());
        placement.runsByMember().merge(c.member(), 1, Integer::sum);
        sendMore();
        storing++;
        // An ask per write, not a message adapter: an actor has one adapter per message class,
        // so with several writes in flight every acknowledgement would name the last run.
        java.util.Map<Integer, String> result = java.util.Map.of(c.index(), String.join("", parts));
        getContext().ask(Done.class, entity, CampaignRunner.ASK_TIMEOUT, replyTo -> new CampaignEntity.RecordRuns(result, replyTo),
                (ok, error) -> ok != null ? new Stored(c.index()) : new StoreFailed(c.index(), error));
        return this;
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onStoredRun(Stored s) {
        storing--;
        onStored.accept(s.index());
        if (storing == 0 && outstanding.isEmpty()) {
            done.complete(Done.getInstance());
        }
        return this;
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onFailed(CampaignSharding.RunFailed f) {
        CampaignPlan.PlannedRun r = outstanding.get(f.index());
        if (r == null) {
            return this;
        }
        return fail("run " + r.index() + " (" + r.scenario() + " " + r.parameters() + ", " + r.variant() + ", seed "
                + r.spec().seed() + ") failed on " + f.member() + ": " + f.error());
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onAbandoned(CampaignSharding.RunAbandoned a) {
        CampaignPlan.PlannedRun r = outstanding.get(a.index());
        if (r != null && a.member().equals(acceptedBy.get(a.index()))) {
            acceptedBy.remove(a.index());
            placement.redone()[0]++;
            send(r);
        }
        return this;
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onRemoved(Removed m) {
        String address = m.event().member().address().toString();
        List<CampaignPlan.PlannedRun> lost = new ArrayList<>();
        for (Map.Entry<Integer, String> e : acceptedBy.entrySet()) {
            if (e.getValue().equals(address)) {
                lost.add(outstanding.get(e.getKey()));
            }
        }
        for (CampaignPlan.PlannedRun r : lost) {
            acceptedBy.remove(r.index());
            placement.redone()[0]++;
            send(r);
        }
        if (!lost.isEmpty()) {
            LOG.warn("member {} was removed with {} run(s) of campaign {}; they are sent again", address,
                    lost.size(), campaignId);
        }
        boolean runMemberLeft = false;
        for (org.apache.pekko.cluster.Member mem : Cluster.get(getContext().getSystem()).state().getMembers()) {
            if (mem.hasRole(CampaignSharding.ROLE) && !mem.address().equals(m.event().member().address())
                    && (mem.status() == MemberStatus.up() || mem.status() == MemberStatus.weaklyUp()
                    || mem.status() == MemberStatus.joining())) {
                runMemberLeft = true;
            }
        }
        if (!runMemberLeft && !outstanding.isEmpty()) {
            return fail("no cluster member with the " + CampaignSharding.ROLE + " role is left (" + address + " was just removed)"
                    + " and " + outstanding.size() + " run(s) are not done");
        }
        return this;
    }

    private Behavior<CampaignSharding.CoordinatorMessage> onTick() {
        long now = System.nanoTime();
        if (!anyAccepted && !outstanding.isEmpty() && now - startNanos > acceptTimeout.toNanos()) {
            return fail("no cluster member took a run within " + acceptTimeout.toSeconds() + " s; do the members with the "
                    + CampaignSharding.ROLE + " role run this version of LoadLab?");
        }
        for (Map.Entry<Integer, Long> e : new ArrayList<>(lastSent.entrySet())) {
            if (!acceptedBy.containsKey(e.getKey()) && now - e.getValue() >= RESEND.toNanos()) {
                send(outstanding.get(e.getKey()));
            }
        }
        return this;
    }

    private Behavior<CampaignSharding.CoordinatorMessage> fail(String why) {
        done.completeExceptionally(new ClusterCampaign.Failed(why));
        return Behaviors.stopped();
    }
}

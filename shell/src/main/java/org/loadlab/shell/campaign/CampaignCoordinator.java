package org.loadlab.shell.campaign;

import org.loadlab.experiment.campaign.CampaignPlan;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Hands the pending runs of a campaign to a pool of {@link CampaignWorker}s (one run per
 * worker at a time) and stores each result in the {@link CampaignEntity}. A worker gets
 * its next run as soon as it reports, while the journal write goes on, but a run counts
 * as done only once its event is in the journal, so a crash at any moment loses no
 * finished run (at worst it repeats one that was not yet stored).
 */
final class CampaignCoordinator extends AbstractBehavior<CampaignCoordinator.Message> {

    /** Messages of the coordinator. */
    sealed interface Message {
    }

    /** A worker finished run {@code index}. */
    record WorkerDone(int index, String runJson, ActorRef<CampaignWorker.Execute> worker) implements Message {
    }

    /** A worker's run threw. */
    record WorkerFailed(CampaignPlan.PlannedRun run, RuntimeException error) implements Message {
    }

    /** The entity stored run {@code index}. */
    private record Stored(int index) implements Message {
    }

    /** Name of the dispatcher the workers run on (a fixed pool, one thread per worker). */
    static final String WORKER_DISPATCHER = "loadlab.campaign-workers";

    private final ActorRef<CampaignEntity.Command> entity;
    private final Deque<CampaignPlan.PlannedRun> pending;
    private final CompletableFuture<Done> done;
    private final IntConsumer onStored;
    private int inFlight;

    /**
     * @param entity the campaign entity
     * @param pending runs still to do, in plan order
     * @param workers number of workers, ≥ 1
     * @param execute runs one planned run and returns its result JSON
     * @param onStored called with the run index after each stored result
     * @param done completed when every run is stored (or exceptionally on a failed run)
     */
    static Behavior<Message> create(ActorRef<CampaignEntity.Command> entity, List<CampaignPlan.PlannedRun> pending,
                                    int workers, Function<CampaignPlan.PlannedRun, String> execute, IntConsumer onStored,
                                    CompletableFuture<Done> done) {
        return Behaviors.setup(ctx -> new CampaignCoordinator(ctx, entity, pending, workers, execute, onStored, done));
    }

    private CampaignCoordinator(ActorContext<Message> context, ActorRef<CampaignEntity.Command> entity,
                                List<CampaignPlan.PlannedRun> pending, int workers,
                                Function<CampaignPlan.PlannedRun, String> execute, IntConsumer onStored,
                                CompletableFuture<Done> done) {
        super(context);
        this.entity = entity;
        this.pending = new ArrayDeque<>(pending);
        this.onStored = onStored;
        this.done = done;
        if (this.pending.isEmpty()) {
            done.complete(Done.getInstance());
            return;
        }
        for (int w = 0; w < Math.min(workers, pending.size()); w++) {
            ActorRef<CampaignWorker.Execute> worker = context.spawn(CampaignWorker.create(execute), "worker-" + w,
                    DispatcherSelector.fromConfig(WORKER_DISPATCHER));
            dispatch(worker);
        }
    }

    @Override
    public Receive<Message> createReceive() {
        return newReceiveBuilder()
                .onMessage(WorkerDone.class, this::onWorkerDone)
                .onMessage(Stored.class, this::onStored)
                .onMessage(WorkerFailed.class, this::onWorkerFailed)
                .build();
    }

    private Behavior<Message> onWorkerDone(WorkerDone d) {
        ActorRef<Done> ack = getContext().messageAdapter(Done.class, x -> new Stored(d.index()));
        entity.tell(new CampaignEntity.RecordRun(d.index(), d.runJson(), ack));
        dispatch(d.worker()); // keep the worker busy while the journal writes
        return this;
    }

    private Behavior<Message> onStored(Stored s) {
        inFlight--;
        onStored.accept(s.index());
        if (inFlight == 0 && pending.isEmpty()) {
            done.complete(Done.getInstance());
        }
        return this;
    }

    private Behavior<Message> onWorkerFailed(WorkerFailed f) {
        pending.clear();
        done.completeExceptionally(new IllegalStateException("run " + f.run().index() + " (" + f.run().scenario() + " "
                + f.run().parameters() + ", " + f.run().variant() + ", seed " + f.run().spec().seed() + ") failed: "
                + f.error(), f.error()));
        return Behaviors.stopped();
    }

    private void dispatch(ActorRef<CampaignWorker.Execute> worker) {
        CampaignPlan.PlannedRun next = pending.poll();
        if (next != null) {
            inFlight++;
            worker.tell(new CampaignWorker.Execute(next, getContext().getSelf()));
        }
    }
}

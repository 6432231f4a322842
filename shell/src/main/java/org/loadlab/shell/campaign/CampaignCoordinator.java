package org.loadlab.shell.campaign;

import org.loadlab.experiment.campaign.CampaignPlan;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 *
 * <p>Group commit: one journal write at a time. The results that come in while a write is
 * under way wait, and go together in the next write ({@link CampaignEntity.RecordRuns}, one
 * transaction, at most {@link #MAX_BATCH} runs). A persistent entity writes its events one
 * command after the other, so one write per run would cap a campaign at one journal round
 * trip per run (1.0–1.7 ms with H2 on the 2-core development machine, 0.13–0.37 ms per run
 * in writes of 200): with the results that were simulated while the journal started, that
 * was the last second of a 1,000-run campaign (docs/performance.md, "Campaigns").
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

    /** The entity stored the runs {@code indexes} (one write). */
    private record Stored(List<Integer> indexes) implements Message {
    }

    /** A journal write failed or timed out. */
    private record StoreFailed(List<Integer> indexes, Throwable error) implements Message {
    }

    /**
     * Most runs in one journal write: enough to take all the results that pile up while a
     * write is under way, small enough to keep one transaction at a few MB (results are ~9 kB).
     */
    static final int MAX_BATCH = 200;

    /** Name of the dispatcher the workers run on (a fixed pool, one thread per worker). */
    static final String WORKER_DISPATCHER = "loadlab.campaign-workers";

    private final ActorRef<CampaignEntity.Command> entity;
    private final Deque<CampaignPlan.PlannedRun> pending;
    private final CompletableFuture<Done> done;
    private final IntConsumer onStored;
    /** Results that came in and are not yet sent to the entity, by run index. */
    private final TreeMap<Integer, String> unsent = new TreeMap<>();
    /** Whether a journal write is under way. */
    private boolean writing;
    /** Runs handed to a worker and not yet stored. */
    private int inFlight;

    /**
     * @param entity the campaign entity
     * @param pending runs still to do, in the order to run them ({@link CampaignPlan#executionOrder()})
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
                .onMessage(StoreFailed.class, this::onStoreFailed)
                .onMessage(WorkerFailed.class, this::onWorkerFailed)
                .build();
    }

    private Behavior<Message> onWorkerDone(WorkerDone d) {
        unsent.put(d.index(), d.runJson());
        dispatch(d.worker()); // keep the worker busy while the journal writes
        if (!writing) {
            write();
        }
        return this;
    }

    /** Sends the waiting results (the lowest indexes, at most {@link #MAX_BATCH}) to the entity in one write. */
    private void write() {
        Map<Integer, String> batch = new TreeMap<>();
        while (!unsent.isEmpty() && batch.size() < MAX_BATCH) {
            Map.Entry<Integer, String> e = unsent.pollFirstEntry();
            batch.put(e.getKey(), e.getValue());
        }
        List<Integer> indexes = List.copyOf(batch.keySet());
        writing = true;
        getContext().ask(Done.class, entity, CampaignRunner.ASK_TIMEOUT, replyTo -> new CampaignEntity.RecordRuns(batch, replyTo),
                (ok, error) -> ok != null ? new Stored(indexes) : new StoreFailed(indexes, error));
    }

    private Behavior<Message> onStored(Stored s) {
        writing = false;
        inFlight -= s.indexes().size();
        s.indexes().forEach(onStored::accept);
        if (!unsent.isEmpty()) {
            write();
        } else if (inFlight == 0 && pending.isEmpty()) {
            done.complete(Done.getInstance());
        }
        return this;
    }

    private Behavior<Message> onStoreFailed(StoreFailed f) {
        pending.clear();
        done.completeExceptionally(new IllegalStateException("runs " + f.indexes() + " could not be stored in the journal: "
                + f.error(), f.error()));
        return Behaviors.stopped();
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

package org.loadlab.shell.campaign;

import org.loadlab.experiment.campaign.CampaignPlan;

import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Executes one run at a time: a simulation is single-threaded and deterministic, so a
 * worker simply runs it on its (blocking, fixed-size) dispatcher thread and reports the
 * result to the coordinator.
 */
final class CampaignWorker extends AbstractBehavior<CampaignWorker.Execute> {

    /**
     * Run {@code run} and answer {@code replyTo}.
     *
     * @param run the planned run
     * @param replyTo the coordinator
     */
    record Execute(CampaignPlan.PlannedRun run, ActorRef<CampaignCoordinator.Message> replyTo) {
    }

    private final Function<CampaignPlan.PlannedRun, String> execute;

    static Behavior<Execute> create(Function<CampaignPlan.PlannedRun, String> execute) {
        return Behaviors.setup(ctx -> new CampaignWorker(ctx, execute));
    }

    private CampaignWorker(ActorContext<Execute> context, Function<CampaignPlan.PlannedRun, String> execute) {
        super(context);
        this.execute = execute;
    }

    @Override
    public Receive<Execute> createReceive() {
        return newReceiveBuilder().onMessage(Execute.class, this::onExecute).build();
    }

    private Behavior<Execute> onExecute(Execute e) {
        try {
            String json = execute.apply(e.run());
            e.replyTo().tell(new CampaignCoordinator.WorkerDone(e.run().index(), json, getContext().getSelf()));
        } catch (RuntimeException ex) {
            e.replyTo().tell(new CampaignCoordinator.WorkerFailed(e.run(), ex));
        }
        return this;
    }
}

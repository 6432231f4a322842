package org.loadlab.shell.lints;

import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.loadlab.balancer.lints.LinTsModel;
import org.loadlab.kernel.CborSerializable;

/**
 * The learned state of a LinTS control plane (B and f per node, the step count) as an
 * event-sourced entity on the JDBC journal (H2 file by default, PostgreSQL with
 * {@code LOADLAB_JDBC_URL}; the same store the campaigns use), so that a restarted control
 * plane resumes from what it learned instead of the prior. Each {@link Save} stores the newest
 * posterior; a snapshot every {@value #SNAPSHOT_EVERY} saves keeps recovery to one read.
 *
 * <p>Source: seed 003 (the agent checkpoints B and f), DESIGN.md ("learned policy state can be snapshotted").
 */
public final class PosteriorEntity extends EventSourcedBehavior<PosteriorEntity.Command, PosteriorEntity.Saved,
        PosteriorEntity.State> {
    /** Saves between snapshots (older events are deleted with each snapshot). */
    public static final int SNAPSHOT_EVERY = 20;

    /** Commands. */
    public sealed interface Command extends CborSerializable {
    }

    /**
     * Store {@code posterior} as the newest learned state.
     *
     * @param posterior the control plane's model
     * @param replyTo acknowledged once stored, or null
     */
    public record Save(LinTsModel.Posterior posterior, ActorRef<Done> replyTo) implements Command {
    }

    /** Ask for the newest stored state. @param replyTo receives it */
    public record Load(ActorRef<State> replyTo) implements Command {
    }

    /** The event: a posterior was stored. @param posterior it */
    public record Saved(LinTsModel.Posterior posterior) implements CborSerializable {
    }

    /** The state: the newest posterior, or null before the first save. @param posterior it */
    public record State(LinTsModel.Posterior posterior) implements CborSerializable {
    }

    /**
     * The entity of control plane {@code id} (e.g. a gateway's name).
     *
     * @param id the store's key, not blank
     */
    public static Behavior<Command> create(String id) {
        return new PosteriorEntity(PersistenceId.ofUniqueId("lints-posterior-" + id));
    }

    private PosteriorEntity(PersistenceId id) {
        super(id);
    }

    @Override
    public State emptyState() {
        return new State(null);
    }

    @Override
    public CommandHandler<Command, Saved, State> commandHandler() {
        return newCommandHandlerBuilder().forAnyState()
                .onCommand(Save.class, (state, c) -> Effect().persist(new Saved(c.posterior()))
                        .thenRun(s -> {
                            if (c.replyTo() != null) {
                                c.replyTo().tell(Done.getInstance());
                            }
                        }))
                .onCommand(Load.class, (state, c) -> Effect().none().thenReply(c.replyTo(), s -> s))
                .build();
    }

    @Override
    public EventHandler<State, Saved> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onEvent(Saved.class, (state, e) -> new State(e.posterior())).build();
    }

    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(SNAPSHOT_EVERY, 1).withDeleteEventsOnSnapshot();
    }
}

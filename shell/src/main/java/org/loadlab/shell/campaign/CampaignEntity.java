package org.loadlab.shell.campaign;

import org.loadlab.experiment.campaign.CampaignPlan;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.loadlab.kernel.CborSerializable;

/**
 * A campaign as an event-sourced entity (Pekko Persistence, JDBC journal): it remembers
 * which runs have completed and their results, so a campaign killed at any point resumes
 * without repeating or losing a finished run. Events: {@link CampaignStarted},
 * {@link RunCompleted} (with the run's metrics as JSON), {@link CampaignFinished}. Finished
 * runs are recorded by {@link RecordRuns}: one or several in one journal write (the local
 * {@link CampaignCoordinator} groups them, the cluster's records each as it comes).
 *
 * <p>No snapshots: the state is exactly the list of finished runs, so a snapshot would
 * hold the same bytes as the events, and keeping it immutable for the snapshot store
 * would mean copying it on every run. Recovery replays the events (a 1,000-run campaign
 * replays in well under a second).
 *
 * <p>Source: DESIGN.md ("experiments and campaigns are event-sourced entities").
 */
public final class CampaignEntity extends EventSourcedBehavior<CampaignEntity.Command, CampaignEntity.Event, CampaignEntity.State> {

    /** Commands the entity accepts. */
    public sealed interface Command extends CborSerializable {
    }

    /**
     * Records the campaign's definition (only the first time; later starts just answer).
     *
     * @param definitionJson resolved definition
     * @param totalRuns number of runs in the plan
     * @param replyTo receives the state after recovery / start
     */
    public record Start(String definitionJson, int totalRuns, ActorRef<State> replyTo) implements Command {
    }

    /**
     * Records finished runs in one journal write (one transaction: all of them are stored or
     * none), one {@link RunCompleted} event each; runs already recorded are skipped.
     *
     * @param runs run index → result JSON
     * @param replyTo acknowledged once every event is stored
     */
    public record RecordRuns(Map<Integer, String> runs, ActorRef<Done> replyTo) implements Command {
    }

    /** Marks the campaign finished. */
    public record Finish(ActorRef<Done> replyTo) implements Command {
    }

    /** Asks for the current state. */
    public record GetState(ActorRef<State> replyTo) implements Command {
    }

    /** Events stored in the journal. */
    public sealed interface Event extends CborSerializable {
    }

    /**
     * @param definitionJson the resolved definition
     * @param totalRuns number of planned runs
     */
    public record CampaignStarted(String definitionJson, int totalRuns) implements Event {
    }

    /**
     * @param index run index
     * @param runJson result as one JSON line
     */
    public record RunCompleted(int index, String runJson) implements Event {
    }

    /** All runs are done and the report was written. */
    public record CampaignFinished() implements Event {
    }

    /**
     * The entity's state.
     *
     * @param definitionJson null until started
     * @param totalRuns planned runs
     * @param completed run index → result JSON, for the runs that finished
     * @param finished whether the campaign finished
     */
    public record State(String definitionJson, int totalRuns, TreeMap<Integer, String> completed, boolean finished)
            implements CborSerializable {
        /** True once {@link CampaignStarted} is recorded. */
        public boolean started() {
            return definitionJson != null;
        }
    }

    /**
     * The entity of campaign {@code campaignId}.
     *
     * @param campaignId id from {@link CampaignPlan#id()}
     */
    public static Behavior<Command> create(String campaignId) {
        return new CampaignEntity(PersistenceId.ofUniqueId("campaign-" + campaignId));
    }

    private CampaignEntity(PersistenceId id) {
        super(id);
    }

    /**
     * Pekko's built-in store that holds no snapshots: this entity never saves one (see the
     * class comment), so recovery need not start the JDBC snapshot store nor query it.
     */
    @Override
    public String snapshotPluginId() {
        return "pekko.persistence.no-snapshot-store";
    }

    @Override
    public State emptyState() {
        return new State(null, 0, new TreeMap<>(), false);
    }

    private static State copy(State s) {
        return new State(s.definitionJson(), s.totalRuns(), new TreeMap<>(s.completed()), s.finished());
    }

    @Override
    public CommandHandler<Command, Event, State> commandHandler() {
        return newCommandHandlerBuilder().forAnyState()
                .onCommand(Start.class, (state, c) -> state.started()
                        ? Effect().none().thenReply(c.replyTo(), CampaignEntity::copy)
                        : Effect().persist(new CampaignStarted(c.definitionJson(), c.totalRuns())).thenReply(c.replyTo(), CampaignEntity::copy))
                .onCommand(RecordRuns.class, (state, c) -> {
                    List<Event> fresh = c.runs().entrySet().stream()
                            .filter(r -> !state.completed().containsKey(r.getKey()))
                            .<Event>map(r -> new RunCompleted(r.getKey(), r.getValue())).toList();
                    return fresh.isEmpty() ? Effect().none().thenReply(c.replyTo(), s -> Done.getInstance())
                            : Effect().persist(fresh).thenReply(c.replyTo(), s -> Done.getInstance());
                })
                .onCommand(Finish.class, (state, c) -> state.finished()
                        ? Effect().none().thenReply(c.replyTo(), s -> Done.getInstance())
                        : Effect().persist(new CampaignFinished()).thenReply(c.replyTo(), s -> Done.getInstance()))
                .onCommand(GetState.class, (state, c) -> Effect().none().thenReply(c.replyTo(), CampaignEntity::copy))
                .build();
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState()
                .onEvent(CampaignStarted.class, (state, e) -> new State(e.definitionJson(), e.totalRuns(), state.completed(), false))
                .onEvent(RunCompleted.class, (state, e) -> {
                    // Safe to mutate: the map never leaves the entity (no snapshots, replies copy).
                    state.completed().put(e.index(), e.runJson());
                    return state;
                })
                .onEvent(CampaignFinished.class, (state, e) -> new State(state.definitionJson(), state.totalRuns(), state.completed(), true))
                .build();
    }
}

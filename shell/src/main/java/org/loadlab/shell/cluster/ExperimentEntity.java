package org.loadlab.shell.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.loadlab.kernel.CborSerializable;

/**
 * One cluster experiment as an event-sourced entity (Pekko Persistence, the gateway's JDBC
 * journal, {@link ExperimentStore}): its definition (enough to run it again), its progress as
 * periodic merged checkpoints (the gateway's status of the run, as JSON), and its end. After a
 * gateway crash the next gateway finds it without an end, records it as {@code interrupted}
 * and shows its last checkpoint — the results so far — and it can be run again by id.
 *
 * <p>Events: {@link Defined}, {@link Checkpointed}, {@link Ended}, {@link Interrupted}. A
 * snapshot every 100 events keeps the recovery of a long experiment short (each checkpoint
 * replaces the previous one, so the state is one status at most).
 *
 * <p>Source: DESIGN.md ("experiments and campaigns are event-sourced entities").
 */
public final class ExperimentEntity extends EventSourcedBehavior<ExperimentEntity.Command, ExperimentEntity.Event,
        ExperimentEntity.State> {

    /**
     * What an experiment is, as POST /experiments resolved it: enough to run it again.
     *
     * @param id experiment id
     * @param scenario scenario name
     * @param scenarioJson the resolved scenario (JSON), every key explicit
     * @param policy initial policy
     * @param seed master seed
     * @param timeScale scenario seconds per real second
     * @param createdAt ISO-8601 instant
     * @param rerunOf id of the experiment this one runs again, or null
     */
    public record Definition(String id, String scenario, String scenarioJson, String policy, long seed, double timeScale,
                             String createdAt, String rerunOf) implements CborSerializable {
    }

    /** Commands the entity accepts (all from the gateway's own JVM). */
    public sealed interface Command extends CborSerializable {
    }

    /** Records the definition (once; later ones are ignored). */
    public record Define(Definition definition) implements Command {
    }

    /** Records the run's merged status so far (replacing the previous checkpoint). */
    public record Checkpoint(String statusJson) implements Command {
    }

    /** Records the end: the final status (finished, stopped, failed) and the last status. */
    public record End(String status, String statusJson) implements Command {
    }

    /** Records that the gateway stopped (crashed) while the experiment ran: found without an end at {@code at}. */
    public record Interrupt(String at) implements Command {
    }

    /** Asks for the state. */
    public record Get(ActorRef<State> replyTo) implements Command {
    }

    /** Events stored in the journal. */
    public sealed interface Event extends CborSerializable {
    }

    /** @param definition the experiment's definition */
    public record Defined(Definition definition) implements Event {
    }

    /** @param statusJson the run's merged status when the checkpoint was taken */
    public record Checkpointed(String statusJson) implements Event {
    }

    /**
     * @param status finished, stopped or failed
     * @param statusJson the final status
     */
    public record Ended(String status, String statusJson) implements Event {
    }

    /** @param at when the next gateway found the experiment without an end (ISO-8601) */
    public record Interrupted(String at) implements Event {
    }

    /**
     * The entity's state.
     *
     * @param definition null until defined
     * @param status running (defined, no end yet), finished, stopped, failed or interrupted
     * @param statusJson the latest checkpoint or the final status, null before the first
     * @param checkpoints checkpoints recorded
     * @param interruptedAt when it was found interrupted, or null
     */
    public record State(Definition definition, String status, String statusJson, int checkpoints, String interruptedAt)
            implements CborSerializable {
        /** True once the experiment has an end (including interrupted). */
        public boolean ended() {
            return !status.equals("running");
        }
    }

    /** Persistence id prefix of experiment entities. */
    static final String PREFIX = "experiment-";

    /** The entity of experiment {@code id}. */
    public static Behavior<Command> create(String id) {
        return new ExperimentEntity(PersistenceId.ofUniqueId(PREFIX + id));
    }

    private ExperimentEntity(PersistenceId id) {
        super(id);
    }

    @Override
    public State emptyState() {
        return new State(null, "running", null, 0, null);
    }

    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(100, 2);
    }

    @Override
    public CommandHandler<Command, Event, State> commandHandler() {
        return newCommandHandlerBuilder().forAnyState()
                .onCommand(Define.class, (s, c) -> s.definition() != null ? Effect().none() : Effect().persist(new Defined(c.definition())))
                .onCommand(Checkpoint.class, (s, c) -> s.ended() ? Effect().none() : Effect().persist(new Checkpointed(c.statusJson())))
                .onCommand(End.class, (s, c) -> s.ended() ? Effect().none() : Effect().persist(new Ended(c.status(), c.statusJson())))
                .onCommand(Interrupt.class, (s, c) -> s.ended() ? Effect().none() : Effect().persist(new Interrupted(c.at())))
                .onCommand(Get.class, (s, c) -> Effect().none().thenReply(c.replyTo(), x -> x))
                .build();
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState()
                .onEvent(Defined.class, (s, e) -> new State(e.definition(), s.status(), s.statusJson(), s.checkpoints(), null))
                .onEvent(Checkpointed.class, (s, e) -> new State(s.definition(), s.status(), e.statusJson(), s.checkpoints() + 1, null))
                .onEvent(Ended.class, (s, e) -> new State(s.definition(), e.status(), e.statusJson(), s.checkpoints(), null))
                .onEvent(Interrupted.class, (s, e) -> new State(s.definition(), "interrupted", s.statusJson(), s.checkpoints(), e.at()))
                .build();
    }

    // ------------------------------------------------------------------ the registry

    /**
     * The list of every experiment the gateway has journaled, itself event-sourced, so a new
     * gateway knows which {@link ExperimentEntity} to recover.
     */
    public static final class Registry extends EventSourcedBehavior<Registry.Command, Registry.Registered, Registry.Ids> {
        /** Commands of the registry. */
        public sealed interface Command extends CborSerializable {
        }

        /** Adds experiment {@code id} (once). */
        public record Register(String id) implements Command {
        }

        /** Asks for every registered id, oldest first. */
        public record GetIds(ActorRef<Ids> replyTo) implements Command {
        }

        /** @param id a registered experiment */
        public record Registered(String id) implements CborSerializable {
        }

        /** @param ids the registered experiments, oldest first */
        public record Ids(List<String> ids) implements CborSerializable {
            /** Copies the list. */
            public Ids {
                ids = List.copyOf(ids);
            }
        }

        /** The gateway's registry. */
        public static Behavior<Command> create() {
            return new Registry();
        }

        private Registry() {
            super(PersistenceId.ofUniqueId("experiment-registry"));
        }

        @Override
        public Ids emptyState() {
            return new Ids(List.of());
        }

        @Override
        public RetentionCriteria retentionCriteria() {
            return RetentionCriteria.snapshotEvery(200, 2);
        }

        @Override
        public CommandHandler<Command, Registered, Ids> commandHandler() {
            return newCommandHandlerBuilder().forAnyState()
                    .onCommand(Register.class, (s, c) -> s.ids().contains(c.id()) ? Effect().none()
                            : Effect().persist(new Registered(c.id())))
                    .onCommand(GetIds.class, (s, c) -> Effect().none().thenReply(c.replyTo(), x -> x))
                    .build();
        }

        @Override
        public EventHandler<Ids, Registered> eventHandler() {
            return newEventHandlerBuilder().forAnyState()
                    .onEvent(Registered.class, (s, e) -> {
                        List<String> ids = new ArrayList<>(s.ids());
                        ids.add(e.id());
                        return new Ids(ids);
                    })
                    .build();
        }
    }
}

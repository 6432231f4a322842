package org.loadlab.shell.lints;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.loadlab.balancer.lints.LinTsControlPlane;
import org.loadlab.balancer.lints.LinTsModel;
import org.loadlab.kernel.Message;
import org.loadlab.shell.actor.LogicActor;

/**
 * Keeps a control plane's learned state in its {@link PosteriorEntity}: before the control
 * plane's actor starts, {@link #restore} loads the newest stored posterior into its core; while
 * it runs, the keeper reads the core's posterior every {@code period} on the actor's own thread
 * ({@link LogicActor.Inspect}) and stores it. A restart loses at most one period of learning.
 * The core stays pure: the shell reads and writes it, the core never sees the store.
 */
public final class PosteriorKeeper {
    private PosteriorKeeper() {
    }

    private record Tick() {
    }

    /**
     * Loads the newest posterior of {@code store} into {@code controlPlane}'s model (nothing
     * when none is stored). Call before the control plane's actor starts.
     *
     * @return true if a posterior was restored
     * @throws IllegalStateException if the store does not answer within {@code timeout}
     */
    public static boolean restore(ActorSystem<?> system, ActorRef<PosteriorEntity.Command> store,
                                  LinTsControlPlane controlPlane, Duration timeout) {
        CompletionStage<PosteriorEntity.State> answer = AskPattern.ask(store, PosteriorEntity.Load::new, timeout,
                system.scheduler());
        try {
            LinTsModel.Posterior p = answer.toCompletableFuture().get().posterior();
            if (p == null) {
                return false;
            }
            controlPlane.model().restore(p);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading the LinTS posterior", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("could not load the LinTS posterior: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * The keeper: every {@code period}, reads {@code controlPlane}'s posterior and stores it.
     *
     * @param controlPlane the control plane's {@link LogicActor}
     * @param store its entity
     * @param period how often to store, &gt; 0
     */
    public static Behavior<Object> keeper(ActorRef<Message> controlPlane, ActorRef<PosteriorEntity.Command> store,
                                          Duration period) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            timers.startTimerWithFixedDelay(new Tick(), period);
            ActorRef<LinTsModel.Posterior> save = ctx.messageAdapter(LinTsModel.Posterior.class, p -> p);
            return Behaviors.receive(Object.class)
                    .onMessage(Tick.class, t -> {
                        controlPlane.tell(new LogicActor.Inspect<>((logic, env) -> ((LinTsControlPlane) logic).model().snapshot(),
                                save));
                        return Behaviors.same();
                    })
                    .onMessage(LinTsModel.Posterior.class, p -> {
                        store.tell(new PosteriorEntity.Save(p, null));
                        return Behaviors.same();
                    })
                    .build();
        }));
    }
}

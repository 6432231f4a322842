package org.loadlab.shell.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * A short-lived actor that asks several actors the same question and hands the replies
 * that came within a timeout to a callback (scatter-gather). The callback runs on the
 * collector's thread: it should only tell an actor.
 */
final class Collect {
    private Collect() {
    }

    private record Timeout() {
    }

    /**
     * @param expected number of replies to wait for (0 finishes at once)
     * @param timeout how long to wait for the rest
     * @param ask sends the questions, given where replies go
     * @param done gets the replies that came
     * @param <T> reply type
     */
    @SuppressWarnings("unchecked")
    static <T> Behavior<T> behavior(int expected, Duration timeout, Consumer<ActorRef<T>> ask, Consumer<List<T>> done) {
        return Behaviors.<Object>setup(ctx -> {
            List<T> replies = new ArrayList<>();
            if (expected == 0) {
                done.accept(replies);
                return Behaviors.stopped();
            }
            ask.accept((ActorRef<T>) (ActorRef<?>) ctx.getSelf());
            return Behaviors.withTimers(timers -> {
                timers.startSingleTimer(new Timeout(), timeout);
                return Behaviors.receive(Object.class)
                        .onMessage(Timeout.class, t -> {
                            done.accept(replies);
                            return Behaviors.stopped();
                        })
                        .onMessage(Object.class, r -> {
                            replies.add((T) r);
                            if (replies.size() >= expected) {
                                done.accept(replies);
                                return Behaviors.stopped();
                            }
                            return Behaviors.same();
                        })
                        .build();
            });
        }).narrow();
    }
}

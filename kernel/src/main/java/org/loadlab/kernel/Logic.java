package org.loadlab.kernel;

/**
 * A pure protocol core: private state plus a message handler that writes its effects
 * (sends, timers, observations) to the {@link Env}. A Logic never touches a clock, a
 * global random source or an actor API, so the simulation engine and the Pekko shells can
 * run the very same instance.
 *
 * @param <M> the messages this participant accepts (its sealed protocol interface)
 *     <p>Source: DESIGN.md, "Architecture: pure cores, two shells".
 */
public interface Logic<M extends Message> {
    /** Called once before the first message, at time {@code env.now()}; starts timers. */
    default void onStart(Env env) {
    }

    /**
     * Handles one message (a delivered message or a fired timer's message).
     *
     * @param message the message, never null
     * @param env the effect sink and clock of this participant
     */
    void on(M message, Env env);
}

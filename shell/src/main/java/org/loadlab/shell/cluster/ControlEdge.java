package org.loadlab.shell.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The application edge a gateway member puts in front of its {@link Gateway}: the HTTP
 * control API lives in the application layer and is handed to {@link ClusterMember#start}
 * as one of these, so the shell never depends on the edge.
 */
@FunctionalInterface
public interface ControlEdge {
    /** No edge: the gateway is reachable only as an actor (tests). */
    ControlEdge NONE = (system, gateway, settings) -> CompletableFuture.completedFuture(null);

    /**
     * A bound edge.
     *
     * @param port the local port it listens on
     * @param unbind stops listening
     */
    record Binding(int port, Supplier<CompletionStage<Done>> unbind) {
    }

    /**
     * Binds the edge in front of {@code gateway}.
     *
     * @param system the member's actor system
     * @param gateway the gateway actor the edge talks to
     * @param settings the member's settings (host, port, token)
     * @return the binding, once bound
     */
    CompletionStage<Binding> bind(ActorSystem<Void> system, ActorRef<Gateway.Command> gateway, ClusterSettings settings);
}

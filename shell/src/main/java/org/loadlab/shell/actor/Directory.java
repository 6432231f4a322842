package org.loadlab.shell.actor;

import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.typed.ActorRef;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.Message;

/**
 * Maps logical addresses to actor references for the Pekko shells (in one JVM the
 * launcher fills it; in a cluster, the receptionist listing does). Thread-safe.
 */
public final class Directory {
    private final ConcurrentHashMap<Address, ActorRef<Message>> refs = new ConcurrentHashMap<>();

    /** Binds {@code address} to {@code ref}, replacing an earlier binding. */
    public void bind(Address address, ActorRef<Message> ref) {
        refs.put(address, ref);
    }

    /** Removes the binding of {@code address}: later messages to it are not delivered ({@link LogicActor} counts them). */
    public void unbind(Address address) {
        refs.remove(address);
    }

    /** The reference of {@code address}, or null if unknown (e.g. a removed node). */
    public ActorRef<Message> lookup(Address address) {
        return refs.get(address);
    }
}

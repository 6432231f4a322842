package org.loadlab.shell.campaign;

import java.io.NotSerializableException;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Stands in, in a local campaign's actor system, for a serializer that system never uses
 * (Pekko Remote's, Cluster's, Sharding's, ...; {@link LocalSerializers} says which). Pekko
 * creates every serializer configured under {@code pekko.actor.serializers} at start and
 * checks the configuration against every reference.conf, so the entries cannot be left
 * out: each is pointed at this class instead, which loads nothing. Its identifier is the
 * one {@link LocalSerializers} assigned to the binding name (under
 * {@value LocalSerializers#IDS}), unique in the system and outside Pekko's 0–40.
 *
 * <p>Nothing is bound to it (its bindings are set to {@code none}), so it is never asked to
 * serialize; if it were, it refuses with {@link NotSerializableException} rather than
 * write bytes no other process could read.
 */
public final class UnusedSerializer extends SerializerWithStringManifest {
    private final String name;
    private final int identifier;

    /**
     * Called by Pekko's serialization extension, reflectively.
     *
     * @param system the actor system (its configuration holds the identifier)
     * @param bindingName the name under {@code pekko.actor.serializers} this instance stands for
     * @throws com.typesafe.config.ConfigException.Missing if no identifier was assigned to {@code bindingName}
     */
    public UnusedSerializer(ExtendedActorSystem system, String bindingName) {
        this.name = bindingName;
        this.identifier = system.settings().config().getObject(LocalSerializers.IDS).toConfig()
                .getInt(com.typesafe.config.ConfigUtil.quoteString(bindingName));
    }

    @Override
    public int identifier() {
        return identifier;
    }

    @Override
    public String manifest(Object o) {
        throw refused(o);
    }

    @Override
    public byte[] toBinary(Object o) {
        throw refused(o);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        throw new NotSerializableException("serializer " + name + " is left out of a local campaign's actor system"
                + " (manifest " + manifest + ")");
    }

    private IllegalStateException refused(Object o) {
        return new IllegalStateException("serializer " + name + " is left out of a local campaign's actor system, cannot"
                + " serialize " + o.getClass().getName());
    }
}

package org.loadlab.shell.campaign;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Trims a resolved Pekko configuration to the serializers a local campaign's actor system
 * uses. Pekko's {@code Serialization} extension instantiates every serializer named under
 * {@code pekko.actor.serializers} when the actor system starts; LoadLab's jar carries
 * Pekko Remote, Cluster, Sharding, Distributed Data and Cluster Client, whose
 * reference.conf files add about twenty serializers (with their protobuf classes) plus two
 * more Jackson object mappers ({@code jackson-json}, {@code jackson-cbor-264}). A local
 * campaign (provider {@code local}, nothing crosses a JVM boundary) only serializes what its
 * journal stores: the {@link CampaignEntity}'s events, {@code CborSerializable}, through
 * {@code jackson-cbor}, the same serializer, identifier and manifest as without the trim, so
 * journals written with or without it read the same. The JDK, primitive, byte-array, typed
 * ActorRef and Pekko Persistence serializers stay (cheap, and what Pekko Persistence falls
 * back on), and so does any serializer a binding of a LoadLab type names (a configuration that
 * binds {@code CborSerializable} elsewhere keeps that serializer).
 *
 * <p>Pekko merges the configuration it is given with every reference.conf and checks it
 * against them, so a serializer cannot be removed: each one not {@link #KEPT} is pointed at
 * {@link UnusedSerializer} (which loads nothing) with an identifier of its own under
 * {@value #IDS}, and every binding that names it is set to {@code none} (Pekko skips those
 * without loading the bound class). Measured in docs/performance.md ("Campaigns", "The
 * campaign's actor system").
 */
final class LocalSerializers {
    /** Serializers a local campaign keeps, by their names under {@code pekko.actor.serializers}. */
    static final Set<String> KEPT = Set.of("java", "bytes", "primitive-long", "primitive-int", "primitive-string",
            "primitive-bytestring", "primitive-boolean", "jackson-cbor", "typed-misc", "pekko-persistence-message",
            "pekko-persistence-snapshot");
    /** Where the identifiers of the {@link UnusedSerializer}s go: binding name → identifier. */
    static final String IDS = "loadlab.campaign.unused-serializer-ids";
    /** The first identifier given to an unused serializer (then −1,000,001, ...): outside Pekko's reserved 0–40. */
    static final int FIRST_ID = -1_000_000;
    private static final String SERIALIZERS = "pekko.actor.serializers";
    private static final String BINDINGS = "pekko.actor.serialization-bindings";
    private static final String NONE = "none";
    private static final String LOADLAB_TYPES = "org.loadlab.";

    private LocalSerializers() {
    }

    /**
     * {@code config} with every serializer but the {@link #KEPT} ones replaced by an
     * {@link UnusedSerializer} and their bindings set to {@code none}.
     *
     * @param config a resolved Pekko configuration (with {@code pekko.actor.serializers} and bindings)
     * @return the trimmed configuration (resolved as well)
     * @throws com.typesafe.config.ConfigException if {@code config} has no serializers or bindings section
     */
    static Config trim(Config config) {
        ConfigObject serializers = config.getObject(SERIALIZERS);
        ConfigObject ids = ConfigValueFactory.fromMap(Map.of());
        int next = FIRST_ID;
        Set<String> unused = new TreeSet<>();
        Set<String> loadLabs = loadLabBindings(config);
        for (String name : new TreeSet<>(serializers.keySet())) {
            if (!KEPT.contains(name) && !loadLabs.contains(name)) {
                unused.add(name);
                serializers = serializers.withValue(name, ConfigValueFactory.fromAnyRef(UnusedSerializer.class.getName()));
                ids = ids.withValue(name, ConfigValueFactory.fromAnyRef(next--));
            }
        }
        ConfigObject bindings = config.getObject(BINDINGS);
        for (Map.Entry<String, ConfigValue> binding : config.getObject(BINDINGS).entrySet()) {
            ConfigValue to = binding.getValue();
            if (to.valueType() == ConfigValueType.STRING && unused.contains((String) to.unwrapped())) {
                bindings = bindings.withValue(binding.getKey(), ConfigValueFactory.fromAnyRef(NONE));
            }
        }
        return config.withValue(SERIALIZERS, serializers).withValue(BINDINGS, bindings).withValue(IDS, ids);
    }

    /** The serializers LoadLab's own types are bound to (jackson-cbor by default; kept whatever a configuration names). */
    private static Set<String> loadLabBindings(Config config) {
        Set<String> names = new TreeSet<>();
        for (Map.Entry<String, ConfigValue> binding : config.getObject(BINDINGS).entrySet()) {
            if (binding.getKey().startsWith(LOADLAB_TYPES) && binding.getValue().valueType() == ConfigValueType.STRING) {
                names.add((String) binding.getValue().unwrapped());
            }
        }
        return names;
    }
}

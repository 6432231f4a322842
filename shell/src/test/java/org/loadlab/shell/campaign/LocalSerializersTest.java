package org.loadlab.shell.campaign;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.HashSet;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.Test;

/**
 * A local campaign's actor system with {@link LocalSerializers}' trim: Pekko accepts it (its
 * check against every reference.conf passes), the campaign's events go through the same
 * {@code jackson-cbor} serializer (identifier, manifest and bytes) as in an untrimmed system,
 * and the left-out serializers are {@link UnusedSerializer}s with distinct identifiers that
 * refuse to serialize.
 */
class LocalSerializersTest {
    private static Config reference() {
        return ConfigFactory.defaultReference().resolve();
    }

    private static ActorSystem<Void> system(String name, Config config) {
        return ActorSystem.create(Behaviors.empty(), name, config);
    }

    @Test
    void campaignEventsSerializeAsInAnUntrimmedSystem() throws Exception {
        ActorSystem<Void> full = system("full", reference());
        ActorSystem<Void> trimmed = system("trimmed", LocalSerializers.trim(reference()));
        try {
            Serialization a = SerializationExtension.get(full);
            Serialization b = SerializationExtension.get(trimmed);
            Object[] events = {new CampaignEntity.CampaignStarted("{\"name\":\"t\"}", 3),
                new CampaignEntity.RunCompleted(2, "{\"p99\":0.25}"), new CampaignEntity.CampaignFinished()};
            for (Object event : events) {
                Serializer sa = a.findSerializerFor(event);
                Serializer sb = b.findSerializerFor(event);
                assertEquals(33, sb.identifier(), "jackson-cbor's identifier");
                assertEquals(sa.identifier(), sb.identifier());
                assertEquals(Serializers.manifestFor(sa, event), Serializers.manifestFor(sb, event));
                byte[] bytes = sb.toBinary(event);
                assertArrayEquals(sa.toBinary(event), bytes);
                assertEquals(event, b.deserialize(bytes, sb.identifier(), Serializers.manifestFor(sb, event)).get());
            }
        } finally {
            full.terminate();
            trimmed.terminate();
        }
    }

    @Test
    void leftOutSerializersAreStandInsWithDistinctIdentifiers() {
        ActorSystem<Void> trimmed = system("standins", LocalSerializers.trim(reference()));
        try {
            Serialization s = SerializationExtension.get(trimmed);
            Config serializers = trimmed.settings().config().getConfig("pekko.actor.serializers");
            Set<Integer> ids = new HashSet<>();
            int standIns = 0;
            for (String name : serializers.root().keySet()) {
                String cls = serializers.root().get(name).unwrapped().toString();
                // kept: the campaign's own, and any a LoadLab type is bound to (the cluster's loadlab-hot-path)
                if (LocalSerializers.KEPT.contains(name) || name.equals("loadlab-hot-path")) {
                    assertTrue(!cls.equals(UnusedSerializer.class.getName()), name + " is kept");
                } else {
                    assertEquals(UnusedSerializer.class.getName(), cls, name);
                    standIns++;
                }
            }
            assertTrue(standIns >= 20, "Remote, Cluster, Sharding, ... serializers left out: " + standIns);
            for (int id = LocalSerializers.FIRST_ID; id > LocalSerializers.FIRST_ID - standIns; id--) {
                Serializer standIn = s.serializerByIdentity().apply(id);
                UnusedSerializer unused = assertInstanceOf(UnusedSerializer.class, standIn);
                assertTrue(ids.add(unused.identifier()));
                assertThrows(IllegalStateException.class, () -> unused.toBinary("x"));
            }
            // A type bound to a left-out serializer falls to none of them.
            Serializer forDone = s.findSerializerFor(org.apache.pekko.Done.getInstance());
            assertTrue(!(forDone instanceof UnusedSerializer), forDone.getClass().getName());
        } finally {
            trimmed.terminate();
        }
    }

    @Test
    void aSerializerALoadLabTypeIsBoundToIsKept() {
        Config rebound = ConfigFactory.parseString(
                "pekko.actor.serialization-bindings { \"org.loadlab.kernel.CborSerializable\" = jackson-json }")
                .withFallback(reference()).resolve();
        Config trimmed = LocalSerializers.trim(rebound);
        assertEquals("org.apache.pekko.serialization.jackson.JacksonJsonSerializer",
                trimmed.getConfig("pekko.actor.serializers").root().get("jackson-json").unwrapped());
        assertEquals("jackson-json", trimmed.getConfig("pekko.actor.serialization-bindings").root()
                .get("org.loadlab.kernel.CborSerializable").unwrapped());
        assertEquals(UnusedSerializer.class.getName(),
                trimmed.getConfig("pekko.actor.serializers").root().get("pekko-sharding").unwrapped());
    }
}

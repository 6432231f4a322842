package org.loadlab.node.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.loadlab.node.kernel.BalancerId;
import org.loadlab.node.kernel.LoadSnapshot;
import org.loadlab.node.kernel.Message;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** Every protocol message round-trips through Pekko serialization as Jackson CBOR. */
class MessageSerializationTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    private static final LoadSnapshot LOAD = new LoadSnapshot(3, 7, 1, 12.5, 0.5, 0.4, 0.3, 0.2, 1.1, 42.25, true);

    static List<Message> messages() {
        BalancerId b = new BalancerId(2);
        return List.of(
                new NodeMessage.Request(17L, 1.25, 3.5, b),
                new NodeMessage.Probe(17L, b),
                new NodeMessage.Fail(),
                new NodeMessage.Recover(),
                new NodeMessage.Degrade(0.7),
                new NodeMessage.ServiceDone(1),
                new NodeMessage.ReportTick(),
                new NodeMessage.ReportDue(LOAD),
                new BalancerMessage.Arrival(17L, 1.25, 3.5),
                new BalancerMessage.ProbeReply(17L, LOAD),
                new BalancerMessage.LoadReport(LOAD),
                new BalancerMessage.Response(17L, 3, 3.5, true),
                new BalancerMessage.ProbeTimeout(17L),
                new BalancerMessage.RetryDue(17L),
                new LogicActor.Start());
    }

    @Test
    void theListCoversEveryProtocolMessage() {
        java.util.Set<Class<?>> listed = new java.util.HashSet<>();
        messages().forEach(m -> listed.add(m.getClass()));
        for (Class<?> protocol : List.of(NodeMessage.class, BalancerMessage.class)) {
            for (Class<?> c : protocol.getPermittedSubclasses()) {
                assertTrue(listed.contains(c), c.getSimpleName() + " needs a round-trip case");
            }
        }
    }

    @Test
    void everyMessageRoundTripsAsCbor() {
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        for (Message m : messages()) {
            Serializer serializer = serialization.findSerializerFor(m);
            assertTrue(serializer.getClass().getName().contains("Jackson"), m + " uses " + serializer.getClass().getName());
            byte[] bytes = serialization.serialize(m).get();
            Object back = serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, m)).get();
            assertEquals(m, back, "round trip of " + m.getClass().getSimpleName());
        }
    }
}

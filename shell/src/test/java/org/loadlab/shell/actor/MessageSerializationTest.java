package org.loadlab.shell.actor;

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
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Message;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.sharing.PeerState;
import org.loadlab.node.sharing.SharingMessage;
import org.loadlab.node.sharing.Task;
import org.loadlab.shell.cluster.HotPathSerializer;

/**
 * Every protocol message round-trips through Pekko serialization: the hot path's messages
 * through {@link HotPathSerializer}, every other one as Jackson CBOR.
 */
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
                new NodeMessage.Request(17L, 1.25, 3.5, b, 4.0),
                new NodeMessage.Probe(17L, b),
                new NodeMessage.Fail(),
                new NodeMessage.Recover(),
                new NodeMessage.Degrade(0.7),
                new NodeMessage.ServiceDone(1),
                new NodeMessage.ReportTick(),
                new NodeMessage.ReportDue(LOAD),
                new BalancerMessage.Arrival(17L, 1.25, 3.5),
                new BalancerMessage.Arrival(17L, 1.25, 3.5, 99L),
                new BalancerMessage.ProbeReply(17L, LOAD),
                new BalancerMessage.LoadReport(LOAD),
                new BalancerMessage.Response(17L, 3, 3.5, true),
                new BalancerMessage.Response(17L, 3, 3.5, org.loadlab.node.protocol.ResponseStatus.ERROR, 4.0),
                new BalancerMessage.AttemptTimeout(17L, 2),
                new BalancerMessage.RequestTimeout(17L),
                new BalancerMessage.OutlierTick(),
                new BalancerMessage.NodeLeaving(3),
                new BalancerMessage.ProbeReply(18L, new LoadSnapshot(3, 7, 1, 12.5, 0.5, 0.4, 0.3, 0.2, 1.1, 42.25, true, 0.75)),
                new BalancerMessage.ProbeTimeout(17L),
                new BalancerMessage.RetryDue(17L),
                new BalancerMessage.Heartbeat(3, 4.5),
                new BalancerMessage.NodeUnreachable(3),
                new BalancerMessage.NodeReachable(3),
                new BalancerMessage.NodeRemoved(3),
                new BalancerMessage.NodeJoined(3),
                new NodeMessage.Crash(),
                new NodeMessage.SignsOfLife(false),
                new NodeMessage.HeartbeatTick(),
                new BalancerMessage.GuardrailTick(),
                new NodeMessage.InjectFault("latency", 0.2),
                new NodeMessage.ClearFaults(),
                new NodeMessage.DelayedSend(9L),
                new SharingMessage.Arrival(17L, 1.25, 3.5),
                new SharingMessage.Poll(5L, 3, SharingMessage.PollKind.RECEIVER),
                new SharingMessage.PollReply(5L, 4, 3, PeerState.SENDER, true),
                new SharingMessage.Transfer(new Task(17L, 1.25, 3.5, 3, 1), 3, 5L),
                new SharingMessage.TaskReturn(new Task(17L, 1.25, 3.5, 3, 1), 4),
                new SharingMessage.TooHigh(3, 6L),
                new SharingMessage.TooLow(4, 7L),
                new SharingMessage.Accept(4, 8L),
                new SharingMessage.ChangeAverage(3, true, 1.5),
                new SharingMessage.StateUpdate(4, PeerState.RECEIVER),
                new SharingMessage.ServiceDone(0),
                new SharingMessage.PollTimeout(5L),
                new SharingMessage.Retry(),
                new SharingMessage.TooHighTimeout(6L),
                new SharingMessage.TooLowTimeout(7L),
                new SharingMessage.AwaitingTaskTimeout(8L),
                new SharingMessage.Flush(1),
                new BalancerMessage.Arrival(17L, 1.25, 3.5, -1, 4),
                new BalancerMessage.Weights(3L, 4.5, new double[] {0.1, 0.9}),
                new BalancerMessage.FeedbackTick(),
                new org.loadlab.balancer.control.ControlMessage.Feedback(1, 4.5, 12, new int[] {0, 2},
                        new double[] {12.5, 230}, new boolean[] {false, true}, new LoadSnapshot[] {LOAD, null},
                        new boolean[] {true, false}),
                new org.loadlab.balancer.control.ControlMessage.Tick(),
                new LogicActor.Start());
    }

    @Test
    void theListCoversEveryProtocolMessage() {
        java.util.Set<Class<?>> listed = new java.util.HashSet<>();
        messages().forEach(m -> listed.add(m.getClass()));
        for (Class<?> protocol : List.of(NodeMessage.class, BalancerMessage.class, SharingMessage.class,
                org.loadlab.balancer.control.ControlMessage.class)) {
            for (Class<?> c : protocol.getPermittedSubclasses()) {
                assertTrue(listed.contains(c), c.getSimpleName() + " needs a round-trip case");
            }
        }
    }

    /** The messages every routed request sends, and the nodes' reports and heartbeats: HotPathSerializer's. */
    private static final java.util.Set<Class<?>> HOT_PATH = java.util.Set.of(BalancerMessage.Arrival.class,
            NodeMessage.Probe.class, BalancerMessage.ProbeReply.class, NodeMessage.Request.class, BalancerMessage.Response.class,
            BalancerMessage.LoadReport.class, BalancerMessage.Heartbeat.class);

    @Test
    void everyMessageRoundTripsThroughItsSerializer() {
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        for (Message m : messages()) {
            Serializer serializer = serialization.findSerializerFor(m);
            Class<?> expected = HOT_PATH.contains(m.getClass()) ? HotPathSerializer.class
                    : org.apache.pekko.serialization.jackson.JacksonCborSerializer.class;
            assertEquals(expected, serializer.getClass(), m + " uses " + serializer.getClass().getName());
            byte[] bytes = serialization.serialize(m).get();
            Object back = serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, m)).get();
            assertEquals(m, back, "round trip of " + m.getClass().getSimpleName());
        }
    }

    @Test
    void theHotPathMessagesRoundTripThroughABufferAsArteryUsesIt() throws Exception {
        HotPathSerializer serializer = new HotPathSerializer(null);
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocateDirect(4096).order(java.nio.ByteOrder.BIG_ENDIAN);
        for (Message m : messages()) {
            if (!HOT_PATH.contains(m.getClass())) {
                continue;
            }
            buffer.clear().position(5); // behind a header, as in Artery's envelope
            serializer.toBinary(m, buffer);
            int end = buffer.position();
            assertEquals(java.nio.ByteOrder.BIG_ENDIAN, buffer.order(), "the buffer's byte order is left as it was");
            buffer.position(5).limit(end);
            Object back = serializer.fromBinary(buffer, serializer.manifest(m));
            assertEquals(m, back, "round trip of " + m.getClass().getSimpleName());
            assertEquals(end, buffer.position(), m.getClass().getSimpleName() + " read to its last byte");
            assertEquals(serializer.toBinary(m).length, end - 5, "the byte-array form has the same bytes");
        }
    }
}

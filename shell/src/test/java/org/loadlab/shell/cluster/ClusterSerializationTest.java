package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.CborSerializable;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.ObservationColumns;
import org.loadlab.node.protocol.LoadSnapshot;

/** Every cluster message that crosses a JVM boundary round-trips through Pekko serialization as Jackson CBOR. */
class ClusterSerializationTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    static List<CborSerializable> messages() {
        ActorRef<Protocol.RunnerCommand> runner = KIT.<Protocol.RunnerCommand>createTestProbe().ref();
        ActorRef<Protocol.Ack> ack = KIT.<Protocol.Ack>createTestProbe().ref();
        ActorRef<Protocol.NodesReply> nodes = KIT.<Protocol.NodesReply>createTestProbe().ref();
        ActorRef<Protocol.ExplainReply> explain = KIT.<Protocol.ExplainReply>createTestProbe().ref();
        LoadSnapshot load = new LoadSnapshot(3, 7, 1, 12.5, 0.5, 0.4, 0.3, 0.2, 1.1, 42.25, true);
        String member = "pekko://loadlab@127.0.0.1:2552";
        Protocol.NodeStatus status = new Protocol.NodeStatus(3, member, "up", load, 12.5, List.of("latency=0.200"));
        Protocol.NodeView view = new Protocol.NodeView(3, load, 0.25, 7.0, true, "cpu 0.99 > 0.85", 2, 41);
        Protocol.Candidate cand = new Protocol.Candidate(3, 7, 0.5, 7.0, false, null);
        Protocol.Decision decision = new Protocol.Decision(17, 3.5, List.of(cand), 3, "routed", "p2c chose node-3", 512.5);
        Protocol.BalancerExplain be = new Protocol.BalancerExplain(0, member, "p2c", "probe", "queue length", 4.0,
                List.of(view), List.of(decision));
        Protocol.BalancerExplain weighted = new Protocol.BalancerExplain(1, member, "lin-ts", "cached", "weights", 4.0,
                List.of(view), List.of(decision), new Protocol.WeightsAge(12, 0.0004, 0.002));
        return List.of(
                weighted,
                new Protocol.WeightsAge(3, 0.001, 0.003),
                new Protocol.PrepareExperiment("exp-1", "{\"name\":\"x\"}", "/tmp", "p2c", 101, 1.0, List.of(0, 2), List.of(0), runner),
                new Protocol.BeginRun("exp-1", 1_700_000_000_000_000L),
                new Protocol.StopExperiment("exp-1"),
                new Protocol.Chaos("exp-1", 3, "latency", 0.2, ack),
                new Protocol.SwitchPolicy("exp-1", "least-queue", ack),
                new Protocol.QueryNodes("exp-1", nodes),
                new Protocol.QueryExplain("exp-1", 5, explain),
                new Protocol.HostReady("exp-1", member),
                new Protocol.HostFailed("exp-1", member, "no such trace"),
                new Protocol.HostStopped("exp-1", member, List.of(new Protocol.BalancerHeld(0, 2, 1, 0, 17)),
                        List.of(new Protocol.PeerHeld(3, 4, 10, 9))),
                new Protocol.PeerHeld(1, 0, 2, 2),
                new Protocol.BalancerHeld(1, 0, 0, 0, 3),
                new Protocol.ObservationBatch("exp-1", member, 4, 2.25, ObservationColumns.of(List.of(
                        new Observation.Arrived(0.5, 0), new Observation.Decided(0.5, 0, 2),
                        new Observation.Routed(0.51, 0, 2, 0.5, 0.49), new Observation.Rejected(0.6, 0.4),
                        new Observation.Completed(1.5, 0.25, 2), new Observation.ServiceStarted(0.52, 2, 0.01),
                        new Observation.Lost(1.6, 1, 3), new Observation.QueueLength(1.5, 2, 4),
                        new Observation.BusyServers(1.5, 2, 1, 1), new Observation.StateUpdate(1.7, 2, 1),
                        new Observation.Counted(1.8, "redecisions", 2), new Observation.MessageSent(2.5, "Request", 48))), 0),
                new Protocol.TimerLagReport("exp-1", member, 1200, 1.35e6, 4_200_000),
                new Protocol.Ack(true, member, "ok"),
                new Protocol.NodesReply(member, List.of(status)),
                status,
                new Protocol.ExplainReply(member, List.of(be)),
                be, view, decision, cand);
    }

    @Test
    void theListCoversEveryRemoteMessage() {
        Set<Class<?>> listed = new HashSet<>();
        messages().forEach(m -> listed.add(m.getClass()));
        for (Class<?> c : Protocol.class.getDeclaredClasses()) {
            if (c.isRecord() && CborSerializable.class.isAssignableFrom(c)) {
                assertTrue(listed.contains(c), c.getSimpleName() + " needs a round-trip case");
            }
        }
    }

    @Test
    void everyMessageRoundTripsAsCbor() {
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        for (CborSerializable m : messages()) {
            Serializer serializer = serialization.findSerializerFor(m);
            assertTrue(serializer.getClass().getName().contains("JacksonCborSerializer"), m + " uses " + serializer.getClass().getName());
            byte[] bytes = serialization.serialize(m).get();
            Object back = serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, m)).get();
            assertEquals(m, back, "round trip of " + m.getClass().getSimpleName());
        }
    }
}

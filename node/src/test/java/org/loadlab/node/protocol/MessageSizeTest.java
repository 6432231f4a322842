package org.loadlab.node.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Message;

/** Every protocol message states a size; messages that cross the network state a positive one. */
class MessageSizeTest {
    private static final LoadSnapshot LOAD = new LoadSnapshot(1, 2, 1, 10, 0.5, 0.4, 0.3, 0.2, 1, 0, true);
    private static final BalancerId B = new BalancerId(0);

    /** Messages sent between participants. */
    private static final List<Message> NETWORK = List.of(
            new NodeMessage.Request(1, 1.5, 0, B),
            new NodeMessage.Probe(1, B),
            new NodeMessage.Fail(),
            new NodeMessage.Recover(),
            new NodeMessage.Degrade(0.5),
            new NodeMessage.Crash(),
            new NodeMessage.SignsOfLife(false),
            new NodeMessage.InjectFault("latency", 0.2),
            new NodeMessage.ClearFaults(),
            new BalancerMessage.Arrival(1, 1.5, 0),
            new BalancerMessage.ProbeReply(1, LOAD),
            new BalancerMessage.LoadReport(LOAD),
            new BalancerMessage.Response(1, 1, 0, true),
            new BalancerMessage.Response(1, 1, 0, ResponseStatus.ERROR, 0.5),
            new BalancerMessage.NodeLeaving(1),
            new BalancerMessage.Heartbeat(1, 0),
            new BalancerMessage.NodeUnreachable(1),
            new BalancerMessage.NodeReachable(1),
            new BalancerMessage.NodeRemoved(1),
            new BalancerMessage.NodeJoined(1),
            new BalancerMessage.Arrival(1, 1.5, 0, -1, 3),
            new BalancerMessage.Weights(1, 0.5, new double[] {0.25, 0.75}));

    /** A participant's own timer messages. */
    private static final List<Message> TIMERS = List.of(
            new NodeMessage.ServiceDone(0),
            new NodeMessage.ReportTick(),
            new NodeMessage.ReportDue(LOAD),
            new NodeMessage.HeartbeatTick(),
            new BalancerMessage.GuardrailTick(),
            new NodeMessage.DelayedSend(1),
            new BalancerMessage.ProbeTimeout(1),
            new BalancerMessage.RetryDue(1),
            new BalancerMessage.AttemptTimeout(1, 0),
            new BalancerMessage.RequestTimeout(1),
            new BalancerMessage.OutlierTick(),
            new BalancerMessage.FeedbackTick());

    @Test
    void networkMessagesArePositiveAndTimersNonNegative() {
        for (Message m : NETWORK) {
            assertTrue(m.estimatedBytes() > 0, m + " must have a positive size");
        }
        for (Message m : TIMERS) {
            assertTrue(m.estimatedBytes() >= 0, m + " must have a non-negative size");
        }
        // Payload-carrying messages are at least as large as their headers-only cousins.
        assertTrue(new BalancerMessage.ProbeReply(1, LOAD).estimatedBytes()
                > new NodeMessage.Probe(1, B).estimatedBytes());
    }

    @Test
    void optionalFieldsCostTheirBytesOnlyWhenSet() {
        assertEquals(36, new BalancerMessage.Arrival(1, 1.5, 0, -1, 3).estimatedBytes(), "an endpoint costs 4 bytes");
        assertEquals(40, new BalancerMessage.Weights(1, 0, new double[2]).estimatedBytes());
        // A routing timestamp and an affinity key travel only when the balancer uses them, so
        // runs that use neither send exactly the bytes they sent before the fields existed.
        assertEquals(48, new NodeMessage.Request(1, 1.5, 0, B).estimatedBytes());
        assertEquals(56, new NodeMessage.Request(1, 1.5, 0, B, 0.25).estimatedBytes());
        assertEquals(40, new BalancerMessage.Response(1, 1, 0, true).estimatedBytes());
        assertEquals(48, new BalancerMessage.Response(1, 1, 0, ResponseStatus.OK, 0.25).estimatedBytes());
        assertEquals(32, new BalancerMessage.Arrival(1, 1.5, 0).estimatedBytes());
        assertEquals(40, new BalancerMessage.Arrival(1, 1.5, 0, 7).estimatedBytes());
    }

    @Test
    void aResponseEchoesItsRequestsTimestampAndNamesItsStatus() {
        NodeMessage.Request r = new NodeMessage.Request(9, 1.0, 2.0, B, 2.5);
        BalancerMessage.Response back = BalancerMessage.Response.to(r, 3, ResponseStatus.ERROR);
        assertEquals(new BalancerMessage.Response(9, 3, 2.0, ResponseStatus.ERROR, 2.5), back);
        assertTrue(!back.served());
        assertEquals(ResponseStatus.OVERLOADED, new BalancerMessage.Response(9, 3, 2.0, false).status());
        assertEquals(429, ResponseStatus.OVERLOADED.code());
    }

    @Test
    void everyPermittedMessageTypeIsCovered() {
        Set<Class<?>> covered = new HashSet<>();
        for (Message m : NETWORK) {
            covered.add(m.getClass());
        }
        for (Message m : TIMERS) {
            covered.add(m.getClass());
        }
        Set<Class<?>> permitted = new HashSet<>();
        permitted.addAll(List.of(NodeMessage.class.getPermittedSubclasses()));
        permitted.addAll(List.of(BalancerMessage.class.getPermittedSubclasses()));
        assertEquals(permitted, covered, "a new message type needs a size check here");
    }
}

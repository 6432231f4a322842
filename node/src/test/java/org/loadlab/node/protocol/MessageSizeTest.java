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
            new BalancerMessage.Heartbeat(1, 0),
            new BalancerMessage.NodeUnreachable(1),
            new BalancerMessage.NodeReachable(1),
            new BalancerMessage.NodeRemoved(1),
            new BalancerMessage.NodeJoined(1));

    /** A participant's own timer messages. */
    private static final List<Message> TIMERS = List.of(
            new NodeMessage.ServiceDone(0),
            new NodeMessage.ReportTick(),
            new NodeMessage.ReportDue(LOAD),
            new NodeMessage.HeartbeatTick(),
            new BalancerMessage.GuardrailTick(),
            new NodeMessage.DelayedSend(1),
            new BalancerMessage.ProbeTimeout(1),
            new BalancerMessage.RetryDue(1));

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

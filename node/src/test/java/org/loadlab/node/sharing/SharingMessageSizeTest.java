package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Message;

/** Network messages of the load-sharing protocols state a positive size, timers a zero one. */
class SharingMessageSizeTest {
    private static final Task TASK = new Task(1, 1.0, 0, 0, 1);

    private static final List<Message> NETWORK = List.of(
            new SharingMessage.Arrival(1, 1, 0), new SharingMessage.Poll(1, 0, SharingMessage.PollKind.SENDER),
            new SharingMessage.PollReply(1, 0, 0, PeerState.OK, false), new SharingMessage.Transfer(TASK, 0, 1),
            new SharingMessage.TaskReturn(TASK, 0), new SharingMessage.TooHigh(0, 1), new SharingMessage.TooLow(0, 1),
            new SharingMessage.Accept(0, 1), new SharingMessage.ChangeAverage(0, true, 1),
            new SharingMessage.StateUpdate(0, PeerState.RECEIVER));
    private static final List<Message> TIMERS = List.of(
            new SharingMessage.ServiceDone(0), new SharingMessage.PollTimeout(1), new SharingMessage.Retry(),
            new SharingMessage.TooHighTimeout(1), new SharingMessage.TooLowTimeout(1),
            new SharingMessage.AwaitingTaskTimeout(1), new SharingMessage.Flush(0));

    @Test
    void sizesAreStatedForEveryMessage() {
        NETWORK.forEach(m -> assertTrue(m.estimatedBytes() > 0, m + " crosses the network"));
        TIMERS.forEach(m -> assertEquals(0, m.estimatedBytes(), m + " is a timer"));
        Set<Class<?>> covered = new HashSet<>();
        NETWORK.forEach(m -> covered.add(m.getClass()));
        TIMERS.forEach(m -> covered.add(m.getClass()));
        for (Class<?> c : SharingMessage.class.getPermittedSubclasses()) {
            assertTrue(covered.contains(c), c.getSimpleName() + " needs a size case");
        }
    }
}

package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.NodeMessage;

/** FIFO order and enqueue times of {@link TimedQueue} across wrap-around and growth. */
class TimedQueueTest {
    private static NodeMessage.Request req(long id) {
        return new NodeMessage.Request(id, 1, 0, new BalancerId(0));
    }

    @Test
    void fifoAcrossWrapAndGrowth() {
        TimedQueue<NodeMessage.Request> q = new TimedQueue<>();
        long nextIn = 0;
        long nextOut = 0;
        for (int i = 0; i < 10; i++, nextIn++) {
            q.add(req(nextIn), nextIn * 0.5);
        }
        for (int i = 0; i < 7; i++, nextOut++) {
            assertEquals(nextOut * 0.5, q.headSince());
            assertEquals(nextOut, q.poll().id());
        }
        for (int i = 0; i < 100; i++, nextIn++) {
            q.add(req(nextIn), nextIn * 0.5);
        }
        assertEquals(nextIn - nextOut, q.size());
        while (!q.isEmpty()) {
            assertEquals(nextOut * 0.5, q.headSince());
            assertEquals(nextOut, q.poll().id());
            nextOut++;
        }
        assertEquals(nextIn, nextOut);
        q.add(req(1), 1);
        q.add(req(2), 2);
        q.clear();
        assertTrue(q.isEmpty());
        q.add(req(3), 3);
        assertEquals(3, q.poll().id());
    }

    @Test
    void removeAtKeepsTheOrderAndTheEnqueueTimesOfTheOthers() {
        TimedQueue<String> q = new TimedQueue<>();
        for (int i = 0; i < 40; i++) {
            q.add("job-" + i, i * 0.5);
        }
        for (int i = 0; i < 30; i++) {
            q.poll(); // wrap the ring
        }
        for (int i = 40; i < 45; i++) {
            q.add("job-" + i, i * 0.5);
        }
        assertEquals("job-33", q.get(3));
        assertEquals("job-33", q.removeAt(3));
        assertEquals(14, q.size());
        assertEquals("job-34", q.get(3));
        assertEquals(15.0, q.headSince(), 0.0);
        for (int expected : new int[] {30, 31, 32, 34}) {
            assertEquals(expected * 0.5, q.headSince(), 0.0);
            assertEquals("job-" + expected, q.poll());
        }
    }
}

package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link WaitingLine} (four jobs in fields, the rest in an overflow queue) against a plain
 * FIFO reference: order, enqueue times, positions and clearing, across the ring's wrap-around
 * and the hand-over from the overflow to the ring.
 */
class WaitingLineTest {
    private record Job(long id, double since) {
    }

    private static WaitingLine<Job> line() {
        return new WaitingLine<>(0.1, FeedbackSettings.OFF);
    }

    @Test
    void matchesAFifoReferenceOverRandomAddsPollsAndClears() {
        SplittableRandom random = new SplittableRandom(16);
        WaitingLine<Job> line = line();
        ArrayDeque<Job> reference = new ArrayDeque<>();
        long next = 0;
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(100);
            // Mostly adds and polls at about the same rate (lengths wander across 4), rarely a clear.
            if (op < 49 || reference.isEmpty()) {
                Job j = new Job(next++, random.nextDouble());
                line.addWaiting(j, j.since());
                reference.addLast(j);
            } else if (op < 99) {
                assertEquals(reference.peekFirst().since(), line.waitingHeadSince());
                assertSame(reference.pollFirst(), line.pollWaiting());
            } else {
                line.clearWaiting();
                reference.clear();
            }
            assertEquals(reference.size(), line.waitingSize());
            if (step % 97 == 0) {
                List<Job> expected = new ArrayList<>(reference);
                for (int i = 0; i < expected.size(); i++) {
                    assertSame(expected.get(i), line.waitingAt(i));
                }
            }
        }
    }

    @Test
    void aLongLineComesOutInOrderThroughTheRingAndTheOverflow() {
        WaitingLine<Job> line = line();
        for (int i = 0; i < 3; i++) { // move the ring's head off slot 0 first
            line.addWaiting(new Job(-1, -1), -1);
            line.pollWaiting();
        }
        for (int i = 0; i < 50; i++) {
            line.addWaiting(new Job(i, i * 0.25), i * 0.25);
        }
        assertEquals(50, line.waitingSize());
        assertEquals(49, line.waitingAt(49).id());
        for (int i = 0; i < 50; i++) {
            assertEquals(i * 0.25, line.waitingHeadSince());
            assertEquals(i, line.pollWaiting().id());
        }
        assertEquals(0, line.waitingSize());
    }

    @Test
    void aPositionOutsideTheLineIsRefused() {
        WaitingLine<Job> line = line();
        line.addWaiting(new Job(0, 0), 0);
        assertThrows(IndexOutOfBoundsException.class, () -> line.waitingAt(1));
        assertThrows(IndexOutOfBoundsException.class, () -> line.waitingAt(-1));
    }
}

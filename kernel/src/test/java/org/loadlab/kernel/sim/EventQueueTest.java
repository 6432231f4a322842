package org.loadlab.kernel.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The lanes must never change the order: against a reference list (a PriorityQueue of
 * (time, sequence)), under a random mix of constant and random delays, more constant
 * delays than lanes, equal times, scripted absolute times and dropped tails.
 */
class EventQueueTest {
    private record Ref(double time, long seq, int entity, Object payload) implements Comparable<Ref> {
        @Override
        public int compareTo(Ref o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    @Test
    void lanesPopInExactlyTheHeapsOrder() {
        for (long seed = 1; seed <= 20; seed++) {
            compareWithReference(seed, 40_000);
        }
    }

    private static void compareWithReference(long seed, int steps) {
        SplittableRandom rng = new SplittableRandom(seed);
        EventQueue q = new EventQueue();
        PriorityQueue<Ref> ref = new PriorityQueue<>();
        Set<Long> dropped = new HashSet<>();
        double[] constants = {0.0, 0.0005, 0.05, 0.1, 1.0, 2.5, 0.001, 0.002, 0.003, 0.004, 0.007, 0.25};
        long seq = 0;
        double now = 0;
        List<Long> timerIds = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            int pushes = q.isEmpty() ? 3 : rng.nextInt(3);
            for (int k = 0; k < pushes; k++) {
                int entity = rng.nextInt(1000);
                Object payload = new Object();
                int kind = rng.nextInt(10);
                double t;
                if (kind < 6) { // a constant delay: lanes (12 constants for 8 lanes)
                    double d = constants[rng.nextInt(kind < 3 ? 3 : constants.length)];
                    t = now + d;
                    if (rng.nextInt(4) == 0) {
                        q.pushTimerAfter(now, d, entity, payload);
                        timerIds.add(q.lastId());
                    } else {
                        q.pushAfter(now, d, entity, payload);
                    }
                } else if (kind < 9) { // a random delay: heap
                    double d = rng.nextDouble() * 2;
                    t = now + d;
                    q.pushAfter(now, d, entity, payload);
                } else { // an absolute time, possibly now
                    t = now + (rng.nextBoolean() ? 0 : rng.nextInt(5));
                    q.push(t, entity, payload);
                }
                ref.add(new Ref(t, seq++, entity, payload));
            }
            if (!timerIds.isEmpty() && rng.nextInt(5) == 0) {
                long id = timerIds.remove(timerIds.size() - 1);
                if (q.dropIfLast(id)) {
                    dropped.add(id >>> 25);
                }
            }
            if (!q.isEmpty()) {
                Ref expected = ref.poll();
                while (dropped.remove(expected.seq)) {
                    expected = ref.poll();
                }
                assertEquals(expected.time, q.peekTime(), "peek, seed " + seed + " step " + step);
                if (step % 2 == 0) {
                    q.pop();
                } else { // the engine's pop: refuses an event after the bound, takes one at or before it
                    assertFalse(q.popNotAfter(Math.nextDown(expected.time)), "bound, seed " + seed + " step " + step);
                    assertTrue(q.popNotAfter(rng.nextBoolean() ? expected.time : Double.POSITIVE_INFINITY));
                }
                assertEquals(expected.time, q.time(), "time, seed " + seed + " step " + step);
                assertEquals(expected.entity, q.target(), "entity, seed " + seed + " step " + step);
                assertTrue(expected.payload == q.payload(), "payload, seed " + seed + " step " + step);
                assertEquals(expected.seq, q.poppedId() >>> 25, "sequence, seed " + seed + " step " + step);
                now = q.time();
            }
        }
        assertFalse(new EventQueue().popNotAfter(Double.POSITIVE_INFINITY), "nothing to pop");
        while (!q.isEmpty()) {
            Ref expected = ref.poll();
            while (dropped.remove(expected.seq)) {
                expected = ref.poll();
            }
            q.pop();
            assertTrue(expected.payload == q.payload());
        }
        while (!ref.isEmpty()) {
            assertTrue(dropped.remove(ref.poll().seq), "only dropped entries are left in the reference");
        }
        assertTrue(q.laneCount() <= EventQueue.LANES);
    }

    @Test
    void repeatedDelaysGetLanesAndOneOffDelaysDoNot() {
        EventQueue q = new EventQueue();
        SplittableRandom rng = new SplittableRandom(3);
        for (int i = 0; i < 100; i++) {
            q.pushAfter(0, rng.nextDouble(), 0, "random");
        }
        assertEquals(0, q.laneCount(), "a delay seen once gets no lane");
        q.pushAfter(0, 0.5, 0, "a");
        q.pushAfter(0, 0.5, 0, "b");
        assertEquals(1, q.laneCount(), "a delay seen twice gets one");
        int lane = q.pushAfter(0, 0.5, 0, "c");
        assertEquals(0, lane);
    }

    @Test
    void aCancelledTailIsDroppedAndAnythingElseIsNot() {
        EventQueue q = new EventQueue();
        q.pushTimerAfter(0, 0.05, 1, "t1");
        q.pushTimerAfter(0, 0.05, 1, "t2"); // the second sighting: lane
        long second = q.lastId();
        q.pushTimerAfter(0, 0.05, 1, "t3");
        long third = q.lastId();
        assertFalse(q.dropIfLast(second), "not the tail");
        assertTrue(q.dropIfLast(third));
        assertEquals(2, q.size());
        q.pop();
        assertTrue(q.poppedTimer());
        assertEquals("t1", q.payload());
        q.pop();
        assertEquals("t2", q.payload());
        assertTrue(q.isEmpty());
    }
}

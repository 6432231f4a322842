package org.loadlab.kernel.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The queue gives back every record it was given, sorted by time and stable for equal times,
 * against a reference (a list sorted by a stable sort), for batches as a member's log sends
 * them (nearly in order, overlapping the last few) and for batches far out of order.
 */
class ObservationQueueTest {

    private static List<Observation> pollAll(ObservationQueue q, int max) {
        ObservationLog out = new ObservationLog();
        for (int i = 0; i < max && !q.isEmpty(); i++) {
            q.pollInto(out, q.headTime());
        }
        return out.drain(Integer.MAX_VALUE).toList();
    }

    @Test
    void batchesComeOutSortedByTimeAndStableForEqualTimes() {
        for (int seed = 1; seed <= 20; seed++) {
            SplittableRandom rng = new SplittableRandom(seed);
            ObservationQueue q = new ObservationQueue();
            List<Observation> reference = new ArrayList<>();
            List<Observation> fed = new ArrayList<>();
            List<Observation> expected = new ArrayList<>();
            double clock = 0;
            for (int batch = 0; batch < 60; batch++) {
                List<Observation> records = new ArrayList<>();
                boolean farOut = rng.nextInt(10) == 0;
                int n = rng.nextInt(2500);
                for (int i = 0; i < n; i++) {
                    // times on a coarse grid, so ties are common; nearly in order, a few steps back now and then
                    double t = farOut ? Math.floor(rng.nextDouble() * clock * 100) / 100
                            : Math.max(0, Math.floor((clock + (rng.nextInt(8) == 0 ? -0.03 : 0.01 * rng.nextInt(2))) * 100) / 100);
                    clock = Math.max(clock, t);
                    records.add(ObservationLogTest.randomRecord(rng, t));
                }
                q.add(ObservationColumns.of(records));
                reference.addAll(records);
                // take the earliest part out now and then, as the merger does up to a watermark
                int take = rng.nextInt(3) == 0 ? rng.nextInt(q.size() + 1) : 0;
                reference.sort(Comparator.comparingDouble(Observation::time)); // List.sort is stable
                expected.addAll(reference.subList(0, take));
                reference.subList(0, take).clear();
                fed.addAll(pollAll(q, take));
                assertEquals(reference.size(), q.size());
            }
            reference.sort(Comparator.comparingDouble(Observation::time));
            expected.addAll(reference);
            fed.addAll(pollAll(q, Integer.MAX_VALUE));
            assertEquals(expected, fed, "seed " + seed);
            assertTrue(q.isEmpty());
        }
    }

    @Test
    void theHeadTellsTheRequestTimesTheMergerNeeds() {
        ObservationQueue q = new ObservationQueue();
        q.add(ObservationColumns.of(List.of(new Observation.Routed(2.0, 0, 3, 1.9, 1.8), new Observation.Completed(3.0, 2.5, 3),
                new Observation.Rejected(4.0, 3.5), new Observation.QueueLength(5.0, 3, 1))));
        assertTrue(q.headIsRouted());
        assertFalse(q.headResolvesRequest());
        assertEquals(1.9, q.headDecisionStart());
        assertEquals(1.8, q.headArrivalTime());
        q.pollInto(new ObservationLog(), 2.0);
        assertTrue(q.headResolvesRequest());
        assertEquals(2.5, q.headArrivalTime());
        assertEquals(Double.NaN, q.headDecisionStart());
        q.pollInto(new ObservationLog(), 3.0);
        assertEquals(3.5, q.headArrivalTime());
        assertTrue(q.headResolvesRequest());
        q.pollInto(new ObservationLog(), 4.0);
        assertEquals(Double.NaN, q.headArrivalTime());
        assertFalse(q.headIsRouted() || q.headResolvesRequest());
        ObservationLog out = new ObservationLog();
        q.pollInto(out, 7.5);
        assertEquals(List.of(new Observation.QueueLength(7.5, 3, 1)), out.drain(10).toList(), "fed at the time given");
        IllegalStateException e = assertThrows(IllegalStateException.class, q::headTime);
        assertEquals("no observation is queued", e.getMessage());
    }

}

package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.observe.ObservationColumns;

/**
 * The gateway's merge: records of several sources fed in time order up to the least
 * watermark of the sources it waits for, never further behind than the floor; a record
 * later than what was fed is clamped and counted; a forgotten source is not waited for.
 */
class ObservationMergerTest {
    private static ObservationMerger merger() {
        return new ObservationMerger(new RunRecorder(2, 0, 1), 1.0);
    }

    private static Protocol.ObservationBatch batch(String member, double watermark, Observation... records) {
        return new Protocol.ObservationBatch("e", member, 1, watermark, ObservationColumns.of(List.of(records)), 0);
    }

    @Test
    void feedsInTimeOrderUpToTheLeastWatermark() {
        ObservationMerger m = merger();
        m.expect("a");
        m.expect("b");
        m.add(batch("a", 2.0, new Observation.Arrived(0.5, 0), new Observation.Arrived(1.5, 0)));
        m.releaseUpTo(0);
        assertEquals(0, m.ledger().arrived(), "b has sent nothing yet: nothing is fed");
        m.add(batch("b", 1.0, new Observation.Arrived(0.7, 0)));
        m.releaseUpTo(0);
        assertEquals(2, m.ledger().arrived(), "up to b's watermark 1.0: the records at 0.5 and 0.7");
        m.add(batch("b", 3.0, new Observation.Arrived(1.2, 0)));
        m.releaseUpTo(0);
        assertEquals(4, m.ledger().arrived(), "up to a's watermark 2.0, in order 1.2, 1.5");
        assertEquals(0, m.clamped());
        assertEquals(2.0, m.last(), 1e-12);
    }

    @Test
    void routingLatenciesCountOnlyRequestsArrivingAfterTheWarmUp() {
        ObservationMerger m = new ObservationMerger(new RunRecorder(2, 3.0, 1), 1.0);
        m.expect("a");
        // Routed(time, balancer, node, decisionStart, arrivalTime): a 20 ms decision during the
        // warm-up (the experiment's first seconds), a 2 ms one after it
        m.add(batch("a", 10.0, new Observation.Routed(2.02, 0, 1, 2.0, 2.0), new Observation.Routed(4.002, 0, 1, 4.0, 4.0)));
        m.releaseAll();
        assertEquals(1, m.decisionNanos().getTotalCount(), "the decision of the request that arrived at 2.0 < warm-up 3.0 is not counted");
        assertEquals(2_000_000, m.decisionNanos().getMaxValue(), 2_000);
        assertEquals(1, m.addedNanos().getTotalCount());
    }

    @Test
    void aLaggingSourceIsNotWaitedForBeyondTheFloorAndItsLateRecordsAreClamped() {
        ObservationMerger m = merger();
        m.expect("a");
        m.expect("frozen");
        m.add(batch("a", 10.0, new Observation.Arrived(4.0, 0), new Observation.Arrived(9.0, 0)));
        m.releaseUpTo(5.0); // the clock is at 5 + merge-lag
        assertEquals(1, m.ledger().arrived());
        m.add(batch("frozen", 6.0, new Observation.Arrived(3.0, 0), new Observation.Arrived(5.5, 0)));
        m.releaseUpTo(5.0);
        assertEquals(1, m.clamped(), "the record at 3.0 came after 5.0 was fed");
        assertEquals(3, m.ledger().arrived(), "4.0, then 3.0 (clamped) and 5.5 up to the least watermark 6.0; 9.0 waits");
        m.releaseAll();
        assertEquals(4, m.ledger().arrived());
    }

    @Test
    void recordsASourceWroteSlightlyOutOfOrderAreFedInOrderNotClamped() {
        ObservationMerger m = merger();
        m.expect("a");
        // Two actors of one member wrote to its log: 1.0002 before 1.0001; the next batch starts before the last ended.
        m.add(batch("a", 0.5, new Observation.Arrived(1.0002, 0), new Observation.Arrived(1.0001, 1),
                new Observation.Arrived(1.3, 0)));
        m.add(batch("a", 2.0, new Observation.Arrived(1.2, 1), new Observation.Arrived(1.5, 0)));
        m.releaseUpTo(0);
        assertEquals(5, m.ledger().arrived());
        assertEquals(0, m.clamped(), "sorted within the batch and merged across batches");
    }

    @Test
    void aForgottenSourceIsNotWaitedFor() {
        ObservationMerger m = merger();
        m.expect("a");
        m.expect("gone");
        m.add(batch("a", 8.0, new Observation.Arrived(7.0, 0)));
        m.releaseUpTo(0);
        assertEquals(0, m.ledger().arrived());
        m.forget("gone");
        m.releaseUpTo(0);
        assertEquals(1, m.ledger().arrived());
    }
}

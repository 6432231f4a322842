package org.loadlab.analysis.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunRecorderTest {

    @Test
    void throughputIsMeasuredWhileRequestsArrive() {
        RunRecorder r = new RunRecorder(1, 0.0);
        for (int i = 1; i <= 10; i++) {
            r.arrived(i);
            r.completed(i + 0.5, i, 0);
        }
        // Completions by the last arrival (t = 10): those at 1.5 .. 9.5; the drain to 20 s does not count.
        RunMetrics m = r.finish(20.0);
        assertEquals(0.9, m.throughputRps(), 1e-12);
        assertEquals(10, m.requestsCompleted());
    }

    private static final double EPS = 1e-12;

    @Test
    void backlogAreaMeanAndMaxQueueFromHandBuiltSequence() {
        RunRecorder recorder = new RunRecorder(1, 0.0, 1.0);
        recorder.queueLength(1, 0, 1);
        recorder.queueLength(2, 0, 2);
        recorder.queueLength(4, 0, 1);
        recorder.queueLength(5, 0, 0);
        RunMetrics m = recorder.finish(6);

        // ∫q dt = 1·(2−1) + 2·(4−2) + 1·(5−4) = 6 request·s over 6 s on 1 node
        assertEquals(6.0, m.backlogArea(), EPS);
        assertEquals(1.0, m.meanQueueLength(), EPS);
        assertEquals(2, m.maxQueue());
        assertEquals(2, m.maxClusterQueue());
        assertEquals(List.of(2), m.nodeMaxQueue());
        assertEquals(6.0, m.durationSeconds(), EPS);
    }

    @Test
    void clusterBacklogSumsNodesAndMaxClusterQueueIsMaxOfTotal() {
        RunRecorder recorder = new RunRecorder(2, 0.0);
        recorder.queueLength(0, 0, 3);  // total 3
        recorder.queueLength(1, 1, 2);  // total 5
        recorder.queueLength(2, 0, 1);  // total 3
        recorder.queueLength(3, 1, 4);  // total 5, node 1 max 4
        RunMetrics m = recorder.finish(4);
        // 3·1 + 5·1 + 3·1 + 5·1 = 16
        assertEquals(16.0, m.backlogArea(), EPS);
        assertEquals(16.0 / (4 * 2), m.meanQueueLength(), EPS);
        assertEquals(4, m.maxQueue());
        assertEquals(5, m.maxClusterQueue());
        assertEquals(List.of(3, 4), m.nodeMaxQueue());
    }

    @Test
    void seriesOfHandBuiltSequence() {
        RunRecorder recorder = new RunRecorder(1, 0.0, 1.0);
        recorder.queueLength(1, 0, 1);
        recorder.queueLength(2, 0, 2);
        recorder.queueLength(4, 0, 1);
        recorder.queueLength(5, 0, 0);
        List<SeriesPoint> series = recorder.finish(6).series();
        // intervals (k, k+1]: a change at t = k+1 belongs to interval k (so interval 0 sees q = 1)
        assertEquals(List.of(
                new SeriesPoint(1, 0, 1, 0),
                new SeriesPoint(2, 1, 2, 0),
                new SeriesPoint(3, 2, 2, 0),
                new SeriesPoint(4, 2, 2, 0),
                new SeriesPoint(5, 1, 1, 0),
                new SeriesPoint(6, 0, 0, 0)), series);
    }

    @Test
    void seriesFillsEmptyIntervalsAndEndsWithPartialInterval() {
        RunRecorder recorder = new RunRecorder(2, 0.0, 1.0);
        recorder.completed(0.2, 0.1, 0);
        recorder.queueLength(0.5, 0, 3);
        recorder.completed(0.7, 0.6, 1);
        // nothing happens in (1, 3]
        recorder.queueLength(3.5, 1, 1);
        recorder.completed(3.9, 3.0, 0);
        List<SeriesPoint> s = recorder.finish(4.5).series();

        assertEquals(5, s.size());
        double[] times = {1, 2, 3, 4, 4.5};
        double[] meanQueue = {3 * 0.5 / 2, 3.0 / 2, 3.0 / 2, (3 * 0.5 + 4 * 0.5) / 2, 4 * 0.5 / (2 * 0.5)};
        int[] maxQueue = {3, 3, 3, 3, 3};
        double[] throughput = {2, 0, 0, 1, 0};
        for (int k = 0; k < s.size(); k++) {
            assertEquals(times[k], s.get(k).timeSeconds(), EPS, "time " + k);
            assertEquals(meanQueue[k], s.get(k).meanQueue(), EPS, "mean queue " + k);
            assertEquals(maxQueue[k], s.get(k).maxQueue(), "max queue " + k);
            assertEquals(throughput[k], s.get(k).throughputRps(), EPS, "throughput " + k);
        }
    }

    @Test
    void seriesWithFractionalInterval() {
        RunRecorder recorder = new RunRecorder(1, 0.0, 0.25);
        recorder.queueLength(0, 0, 4);
        List<SeriesPoint> s = recorder.finish(1.0).series();
        assertEquals(4, s.size());
        assertEquals(1.0, s.get(3).timeSeconds(), EPS);
        s.forEach(p -> assertEquals(4.0, p.meanQueue(), EPS));
    }

    @Test
    void utilisationIntegratesBusyServerTime() {
        RunRecorder recorder = new RunRecorder(2, 0.0);
        recorder.busyServers(0, 0, 1, 2);
        recorder.busyServers(0, 1, 0, 1);
        recorder.busyServers(4, 0, 2, 2);
        recorder.busyServers(5, 1, 1, 1);
        recorder.busyServers(8, 0, 0, 2);
        RunMetrics m = recorder.finish(10);
        // node 0: (1·4 + 2·4 + 0·2) / (2·10) = 0.6; node 1: 1·5 / (1·10) = 0.5
        assertEquals(0.6, m.nodeUtilisation().get(0), EPS);
        assertEquals(0.5, m.nodeUtilisation().get(1), EPS);
        // Jain: (0.6 + 0.5)² / (2 · (0.36 + 0.25)) = 1.21 / 1.22
        assertEquals(1.21 / 1.22, m.jainFairness(), EPS);
    }

    @Test
    void utilisationStartsAtWarmupAndEqualUtilisationIsPerfectlyFair() {
        RunRecorder recorder = new RunRecorder(2, 2.0);
        recorder.busyServers(0, 0, 1, 2);
        recorder.busyServers(0, 1, 0, 1);
        recorder.busyServers(4, 0, 2, 2);
        recorder.busyServers(5, 1, 1, 1);
        recorder.busyServers(8, 0, 0, 2);
        RunMetrics m = recorder.finish(10);
        // window [2, 10]: node 0: (1·2 + 2·4) / (2·8) = 0.625; node 1: 5 / 8 = 0.625
        assertEquals(0.625, m.nodeUtilisation().get(0), EPS);
        assertEquals(0.625, m.nodeUtilisation().get(1), EPS);
        assertEquals(1.0, m.jainFairness(), EPS);
    }

    @Test
    void nodeWithoutServersHasUndefinedUtilisation() {
        RunRecorder recorder = new RunRecorder(2, 0.0);
        recorder.busyServers(0, 0, 1, 1);
        RunMetrics m = recorder.finish(1);
        assertEquals(1.0, m.nodeUtilisation().get(0), EPS);
        assertTrue(Double.isNaN(m.nodeUtilisation().get(1)));
        assertTrue(Double.isNaN(m.jainFairness()));
    }

    @Test
    void percentilesOfKnownResponseTimes() {
        RunRecorder recorder = new RunRecorder(1, 0.0);
        for (int i = 1; i <= 1000; i++) {
            double now = i; // response times 1 ms, 2 ms, ..., 1000 ms
            recorder.completed(now, now - i / 1000.0, 0);
        }
        RunMetrics m = recorder.finish(1001);
        assertEquals(0.5005, m.responseMean(), 1e-12);
        assertEquals(1.0, m.responseMax(), 1e-12);
        assertEquals(0.500, m.responseP50(), 0.500 * 1e-3);
        assertEquals(0.950, m.responseP95(), 0.950 * 1e-3);
        assertEquals(0.990, m.responseP99(), 0.990 * 1e-3);
        assertEquals(0.999, m.responseP999(), 0.999 * 1e-3);
        ResponseTimeHistogram h = m.decodeResponseHistogram();
        assertEquals(1000, h.count());
        assertEquals(0.25, h.fractionAtOrBelow(0.25), 1e-3);
        assertEquals(h, recorder.responseHistogram());
    }

    @Test
    void responseHistogramCoversMicrosecondsToDaysWithThreeDigits() {
        RunRecorder recorder = new RunRecorder(1, 0.0);
        recorder.completed(1e5, 1e5 - 1e-6, 0);
        recorder.completed(1e5, 0.0, 0);
        recorder.completed(1e5, 1e5 - 0.1234, 0);
        ResponseTimeHistogram h = recorder.finish(1e5 + 1).decodeResponseHistogram();
        assertEquals(1e-6, h.valueAtPercentile(0), 1e-9);
        assertEquals(0.1234, h.valueAtPercentile(50), 0.1234 * 1e-3);
        assertEquals(1e5, h.valueAtPercentile(100), 1e5 * 1e-3);
    }

    @Test
    void warmupExcludesStatisticsButNotCounts() {
        RunRecorder recorder = new RunRecorder(2, 10.0);
        recorder.queueLength(0, 0, 50);        // before warm-up: not a maximum of the window
        recorder.arrived(1);
        recorder.queueLength(2, 0, 5);
        recorder.completed(8, 5, 0);           // during warm-up: counted, no statistics
        recorder.serviceStarted(9, 0, 1);      // joined the queue at 8 < 10: excluded
        recorder.rejected(9, 9);
        recorder.lost(9, 1, 3);
        recorder.rejected(11, 11);
        recorder.completed(12, 9, 1);          // arrived 9 < 10: throughput yes, response no
        recorder.serviceStarted(12, 1, 3);     // joined at 9: excluded
        recorder.serviceStarted(12.5, 0, 0.5); // joined at 12: included
        recorder.completed(13, 11, 0);         // response 2
        recorder.serviceStarted(13, 0, 0.25);  // included
        recorder.queueLength(15, 0, 1);
        recorder.completed(15, 14, 0);         // response 1
        RunMetrics m = recorder.finish(20);

        assertEquals(1, m.requestsArrived());
        assertEquals(4, m.requestsCompleted());
        assertEquals(2, m.requestsRejected());
        assertEquals(3, m.requestsLost());
        assertEquals(10.0, m.durationSeconds(), EPS);
        assertEquals(3 / 10.0, m.throughputRps(), EPS);
        assertEquals(1.5, m.responseMean(), EPS);
        assertEquals(2.0, m.responseMax(), EPS);
        assertEquals(2, m.decodeResponseHistogram().count());
        assertEquals(0.375, m.waitMean(), EPS);
        // window [10, 20]: 5·(15 − 10) + 1·(20 − 15) = 30 request·s
        assertEquals(30.0, m.backlogArea(), EPS);
        assertEquals(30.0 / (10 * 2), m.meanQueueLength(), EPS);
        assertEquals(5, m.maxQueue());
        assertEquals(5, m.maxClusterQueue());
        // completions in the window: node 0 twice, node 1 once
        assertEquals(List.of(2.0 / 3, 1.0 / 3), m.nodeRequestShare());
        // the series still covers the warm-up
        assertEquals(20, m.series().size());
        assertEquals(50, m.series().get(0).maxQueue());
    }

    @Test
    void countersForDecisionsMessagesAndStateUpdates() {
        RunRecorder recorder = new RunRecorder(3, 0.0);
        recorder.decision(0.1, 2);
        recorder.decision(0.2, 3);
        recorder.messageSent(0.2, "Probe", 24);
        recorder.messageSent(0.2, "Probe", 24);
        recorder.messageSent(0.3, "LoadReport", 64);
        recorder.messageSent(0.3, "Assign", 48);
        recorder.stateUpdate(0.4, 2, 4);
        recorder.stateUpdate(0.5, 1, 4);
        RunMetrics m = recorder.finish(1);
        assertEquals(2, m.decisions());
        assertEquals(2.5, m.queriesPerDecision(), EPS);
        assertEquals(List.of("Assign", "LoadReport", "Probe"), List.copyOf(m.messagesByKind().keySet()));
        assertEquals(Map.of("Assign", 1L, "LoadReport", 1L, "Probe", 2L), m.messagesByKind());
        assertEquals(4, m.messagesTotal());
        assertEquals(24 + 24 + 64 + 48, m.bytesEstimated());
        assertEquals(8, m.stateUpdates());
    }

    /** Counting by kind index and by name add to the same count; more than 8 kinds grow the table. */
    @Test
    void messageKindIndicesAndNamesShareTheirCounts() {
        RunRecorder recorder = new RunRecorder(1, 0.0);
        int probe = recorder.messageKind("Probe");
        assertEquals(probe, recorder.messageKind("Probe"));
        recorder.messageSent(0.1, probe, 24);
        recorder.messageSent(0.1, "Probe", 24);
        for (int k = 0; k < 12; k++) {
            int index = recorder.messageKind("K" + k);
            for (int i = 0; i <= k; i++) {
                recorder.messageSent(0.2, index, 1);
            }
        }
        int unused = recorder.messageKind("Unused");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> recorder.messageSent(0.3, unused + 1, 1));
        RunMetrics m = recorder.finish(1);
        assertEquals(2L, m.messagesByKind().get("Probe"));
        assertEquals(12L, m.messagesByKind().get("K11"));
        assertEquals(0L, m.messagesByKind().get("Unused"));
        assertEquals(14, m.messagesByKind().size());
        assertEquals(2 + 78, m.messagesTotal());
        assertEquals(48 + 78, m.bytesEstimated());
    }

    @Test
    void emptyRunHasUndefinedStatistics() {
        RunMetrics m = new RunRecorder(2, 0.0).finish(3);
        assertTrue(Double.isNaN(m.responseMean()));
        assertTrue(Double.isNaN(m.responseP99()));
        assertTrue(Double.isNaN(m.responseMax()));
        assertTrue(Double.isNaN(m.waitMean()));
        assertTrue(Double.isNaN(m.queriesPerDecision()));
        assertTrue(Double.isNaN(m.nodeRequestShare().get(0)));
        assertEquals(0.0, m.throughputRps());
        assertEquals(3, m.series().size());
        assertEquals(0, m.decodeResponseHistogram().count());
    }

    @Test
    void feedingAMillionCompletionsDoesNotGrowRetainedState() {
        RunRecorder small = new RunRecorder(4, 0.0);
        RunRecorder large = new RunRecorder(4, 0.0);
        feed(small, 10_000);
        feed(large, 1_000_000);
        assertEquals(small.histogramFootprintBytes(), large.histogramFootprintBytes());
        assertEquals(small.seriesCapacity(), large.seriesCapacity());
        assertEquals(10, large.seriesSize()); // 10 simulated seconds, whatever the request count
        assertEquals(3, large.messageKinds());
        RunMetrics m = large.finish(10);
        assertEquals(1_000_000, m.requestsCompleted());
        assertEquals(1_000_000, m.decodeResponseHistogram().count());
        assertEquals(10, m.series().size());
    }

    /** {@code count} requests over 10 s with response times in [1 ms, 1 s]. */
    private static void feed(RunRecorder recorder, int count) {
        String[] kinds = {"Probe", "ProbeReply", "Assign"};
        // the extremes first, so the histogram's range is fixed from the start
        recorder.completed(0, 0 - 0.0, 0);
        long state = 42;
        for (int i = 1; i < count; i++) {
            double now = 10.0 * i / count;
            state = state * 6364136223846793005L + 1442695040888963407L;
            double response = 1e-3 + (1 - 1e-3) * ((state >>> 11) * 0x1.0p-53);
            if (i == 1) {
                response = 1.0;
            }
            int node = i & 3;
            recorder.arrived(now);
            recorder.decision(now, 2);
            recorder.messageSent(now, kinds[i % 3], 24);
            recorder.queueLength(now, node, i % 7);
            recorder.serviceStarted(now, node, response / 2);
            recorder.busyServers(now, node, i & 1, 1);
            recorder.completed(now, Math.max(0, now - response), node);
        }
    }

    @Test
    void rejectsCallsThatGoBackInTimeOrOutOfRange() {
        RunRecorder recorder = new RunRecorder(2, 0.0);
        assertEquals(0.0, recorder.lastObservationSeconds());
        recorder.arrived(5);
        assertEquals(5.0, recorder.lastObservationSeconds());
        assertThrows(IllegalArgumentException.class, () -> recorder.arrived(4));
        assertThrows(IllegalArgumentException.class, () -> recorder.queueLength(Double.NaN, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> recorder.queueLength(6, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> recorder.queueLength(6, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> recorder.queueLength(6, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> recorder.completed(6, 7, 0));
        assertThrows(IllegalArgumentException.class, () -> recorder.serviceStarted(6, 0, -0.1));
        assertThrows(IllegalArgumentException.class, () -> recorder.busyServers(6, 0, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> recorder.decision(6, -1));
        assertThrows(IllegalArgumentException.class, () -> recorder.messageSent(6, "Probe", -1));
        assertThrows(NullPointerException.class, () -> recorder.messageSent(6, null, 1));
        assertThrows(IllegalArgumentException.class, () -> recorder.finish(4));
    }

    @Test
    void finishOnlyOnceAndNothingAfterIt() {
        RunRecorder recorder = new RunRecorder(1, 1.0);
        assertThrows(IllegalArgumentException.class, () -> recorder.finish(1.0)); // not after warm-up
        recorder.finish(2.0);
        assertThrows(IllegalStateException.class, () -> recorder.finish(3.0));
        assertThrows(IllegalStateException.class, () -> recorder.arrived(3.0));
    }

    @Test
    void constructorValidatesArguments() {
        assertThrows(IllegalArgumentException.class, () -> new RunRecorder(0, 0.0));
        assertThrows(IllegalArgumentException.class, () -> new RunRecorder(1, -1.0));
        assertThrows(IllegalArgumentException.class, () -> new RunRecorder(1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new RunRecorder(1, 0.0, 0.0));
        assertThrows(IllegalArgumentException.class, () -> new RunRecorder(1, 0.0, Double.POSITIVE_INFINITY));
    }
}

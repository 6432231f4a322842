package org.loadlab.analysis.run;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** The hot path must not allocate per call (HotSpot's per-thread allocation counter). */
class RunRecorderAllocationTest {

    @Test
    void hotPathDoesNotAllocatePerCall() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        long thread = Thread.currentThread().getId();

        RunRecorder recorder = new RunRecorder(8, 0.0, 1000.0); // one series interval: no growth
        String[] kinds = {"Probe", "ProbeReply", "Assign"};
        feed(recorder, kinds, 0, 200_000); // warm up: histogram range, map entries, JIT

        long before = threads.getThreadAllocatedBytes(thread);
        feed(recorder, kinds, 200_000, 1_200_000);
        long allocated = threads.getThreadAllocatedBytes(thread) - before;

        // 1,000,000 iterations × 9 calls; allow a few KB of JVM noise, not bytes per call
        assertTrue(allocated < 64 * 1024, "hot path allocated " + allocated + " bytes");
    }

    private static void feed(RunRecorder recorder, String[] kinds, int from, int to) {
        for (int i = from; i < to; i++) {
            double now = i * 1e-4;
            int node = i & 7;
            recorder.arrived(now);
            recorder.decision(now, 2);
            recorder.messageSent(now, kinds[i % 3], 24);
            recorder.queueLength(now, node, i % 5);
            recorder.busyServers(now, node, i & 1, 1);
            recorder.stateUpdate(now, node, 2);
            recorder.serviceStarted(now, node, 0.01);
            recorder.completed(now, now - 0.001 - (i % 100) * 1e-3, node);
            recorder.lost(now, node, 0);
        }
    }
}

package org.loadlab.analysis.io;

import java.util.List;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.RunRecorder;

/** Small deterministic runs for the writer tests. */
final class SampleRuns {

    private SampleRuns() {
    }

    /**
     * A 3 s run on 2 nodes with {@code completions} requests of response time
     * {@code response} seconds each, all at node 0.
     */
    static RunMetrics metrics(int completions, double response, int rejected) {
        RunRecorder recorder = new RunRecorder(2, 0.0);
        recorder.queueLength(0, 0, 2);
        recorder.busyServers(0, 0, 1, 1);
        recorder.busyServers(0, 1, 0, 1);
        for (int i = 0; i < rejected; i++) {
            recorder.rejected(0.5, 0.5);
        }
        for (int i = 0; i < completions; i++) { // balancer-side bookkeeping, before any completion
            if (i < completions - 1) {
                recorder.arrived(0.6);
            }
            recorder.decision(0.6, 2);
            recorder.messageSent(0.6, "Probe", 24);
        }
        for (int i = 0; i < completions; i++) {
            double now = 1.0 + i * 0.01;
            recorder.serviceStarted(now, 0, response / 2);
            recorder.completed(now, now - response, 0);
        }
        if (completions > 0) {
            // The last arrival closes the throughput window at 3 s (throughput = completions / 3 s).
            recorder.arrived(3.0);
        }
        return recorder.finish(3.0);
    }

    /** Two scenarios, two policies, three seeds for the first pair. */
    static List<RunResult> runs() {
        return List.of(
                new RunResult("poisson_small", "p2c", 101, metrics(10, 0.10, 0)),
                new RunResult("poisson_small", "p2c", 102, metrics(12, 0.12, 1)),
                new RunResult("poisson_small", "p2c", 103, metrics(14, 0.14, 2)),
                new RunResult("poisson_small", "random", 101, metrics(10, 0.30, 0)),
                new RunResult("bursty, medium", "p2c", 101, metrics(5, 0.05, 0)));
    }
}

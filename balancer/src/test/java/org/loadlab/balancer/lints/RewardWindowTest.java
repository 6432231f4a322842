package org.loadlab.balancer.lints;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The control plane's reward window: the p99 element, rates, and the decay of idle nodes (SPEC.md §6). */
class RewardWindowTest {
    @Test
    void p99IsElementFloorOf099nOfTheSortedLatencies() {
        RewardWindow w = new RewardWindow(2, 200);
        for (int i = 150; i >= 1; i--) { // 1..150 ms, in reverse order
            w.record(0, i, i % 10 == 0);
        }
        w.record(0, 250, false);
        w.record(0, 300, false);
        RewardWindow.NodeFeedback f = w.flush()[0];
        // n = 152: index floor(150.48) = 150 of the sorted values 1..150, 250, 300 is 250.
        assertEquals(152, f.requests());
        assertEquals(250, f.p99Ms(), 0);
        assertEquals(15.0 / 152, f.errorRate(), 1e-12);
        assertEquals(2.0 / 152, f.slaBreachRate(), 1e-12, "two of them above 200 ms");
        w.record(1, 40, false);
        RewardWindow.NodeFeedback one = w.flush()[1];
        assertEquals(40, one.p99Ms(), 0, "a single latency is its own p99");
    }

    @Test
    void idleNodesDecayTheirRecentEstimatesByPointEightPerWindow() {
        RewardWindow w = new RewardWindow(1, 200);
        w.record(0, 100, true);
        w.record(0, 300, false);
        w.flush();
        assertEquals(300, w.recentP99(0), 0);
        assertEquals(0.5, w.recentErrorRate(0), 0);
        assertEquals(0.5, w.recentBreachRate(0), 0);
        RewardWindow.NodeFeedback idle = w.flush()[0];
        assertEquals(0, idle.requests(), "no outcome: no reward for the model");
        assertEquals(240, w.recentP99(0), 1e-9);
        w.flush();
        assertEquals(192, w.recentP99(0), 1e-9);
        assertEquals(0.5 * 0.64, w.recentErrorRate(0), 1e-12);
        w.record(3, 10, false);
        assertEquals(4, w.nodes(), "grows for a node that joined");
    }
}

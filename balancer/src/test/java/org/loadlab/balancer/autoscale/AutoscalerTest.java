package org.loadlab.balancer.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.control.ControlMessage;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.ServiceId;
import org.loadlab.kernel.sim.LatencyModel;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

/** Seed 003's autoscaler: the hysteresis of its counters on a scripted CPU series, and its actions (SPEC.md §6). */
class AutoscalerTest {
    private static final AutoscalerSettings SEED = new AutoscalerSettings(true, 1.0, 0.75, 0.25, 3, 5, 0.5, 5, 10);

    @Test
    void threeHotChecksAddANodeAndACoolCheckOnlyDecaysTheCounter() {
        ScalingRule rule = new ScalingRule(SEED);
        double[] cpu = {0.8, 0.8, 0.5, 0.8, 0.8, 0.9, 0.8, 0.8, 0.8};
        List<Integer> verdicts = new ArrayList<>();
        int active = 5;
        for (double c : cpu) {
            int v = rule.check(c, active);
            verdicts.add(v);
            active += v;
        }
        // Counter after each check: 1, 2, 1.5, 2.5, 3.5 (UP, reset 0), 1, 2, 3 (UP, reset 0), 1.
        assertEquals(List.of(0, 0, 0, 0, 1, 0, 0, 1, 0), verdicts.subList(0, 9));
        assertEquals(7, active);
    }

    @Test
    void fiveCoolChecksRemoveANodeButNeverBelowTheMinimumAndHotChecksStopAtTheMaximum() {
        ScalingRule rule = new ScalingRule(SEED);
        int active = 6;
        List<Integer> verdicts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int v = rule.check(0.1, active);
            verdicts.add(v);
            active += v;
        }
        assertEquals(List.of(0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0), verdicts, "once, at the 5th cool check; then 5 = min");
        assertEquals(5, active);
        ScalingRule hot = new ScalingRule(SEED);
        assertEquals(0, hot.check(0.99, 10), "at the maximum the up-counter does not grow");
        assertEquals(0, hot.upCounter(), 0);
    }

    @Test
    void theAutoscalerStartsTheNextSlotAndTellsTheBalancersThenLetsTheLastOneLeave() {
        SimHarness h = new SimHarness(1, 10, 1, 0, 1, new LatencyModel(0, 0));
        Autoscaler scaler = new Autoscaler(SEED, List.of(new BalancerId(0)));
        h.install(new ServiceId(0), scaler).start();
        ServiceId self = new ServiceId(0);
        for (int t = 0; t < 3; t++) { // three hot seconds
            h.send(self, feedback(0.9, t + 0.5));
            h.runUntil(t + 1.0);
        }
        assertEquals(6, scaler.active());
        List<SimHarness.Delivery> out = h.drain();
        assertEquals(1, out.stream().filter(d -> d.to().equals(NodeId.of(5)) && d.message() instanceof NodeMessage.Recover).count());
        assertEquals(1, out.stream().filter(d -> d.message() instanceof BalancerMessage.NodeJoined j && j.node() == 5).count());
        for (int t = 3; t < 8; t++) { // five cool seconds
            h.send(self, feedback(0.1, t + 0.5));
            h.runUntil(t + 1.0);
        }
        assertEquals(5, scaler.active());
        assertEquals(1, h.drain().stream().filter(d -> d.message() instanceof BalancerMessage.NodeLeaving l && l.node() == 5)
                .count(), "the last added node leaves");
    }

    private static ControlMessage.Feedback feedback(double cpu, double at) {
        LoadSnapshot[] loads = new LoadSnapshot[10];
        boolean[] members = new boolean[10];
        for (int j = 0; j < 10; j++) {
            loads[j] = new LoadSnapshot(j, 1, 1, 100, cpu, 0, 0, 0, 1, at, true);
            members[j] = j < 5;
        }
        return new ControlMessage.Feedback(0, at, 0, new int[0], new double[0], new boolean[0], loads, members);
    }
}

package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/** A node's explicit statuses, its error model (fast or after service) and its latency estimate (issue 14). */
class NodeErrorsTest {
    private static final BalancerId B0 = new BalancerId(0);
    private static final NodeId SELF = NodeId.of(0);

    private static SimHarness run(BackendNode node) {
        return new SimHarness(5, 1, 1, 0).install(SELF, node).start();
    }

    private static List<BalancerMessage.Response> responses(SimHarness sim) {
        List<BalancerMessage.Response> out = new ArrayList<>();
        for (SimHarness.Delivery d : sim.deliveries()) {
            if (d.message() instanceof BalancerMessage.Response r) {
                out.add(r);
            }
        }
        return out;
    }

    private static NodeSettings settings(int capacity) {
        return new NodeSettings(1, capacity, 0.1, 0, 0, List.of(), FeedbackSettings.OFF);
    }

    @Test
    void fastErrorsAreAnsweredAtOnceWithoutServiceAndEchoTheTimestamp() {
        BackendNode node = new BackendNode(SELF, 1.0, settings(0), new ErrorModel(1.0, true));
        SimHarness sim = run(node);
        sim.sendAt(2.0, SELF, new NodeMessage.Request(1, 5.0, 2.0, B0, 2.0));
        sim.runUntil(2.0);
        List<BalancerMessage.Response> rs = responses(sim);
        assertEquals(1, rs.size());
        assertEquals(ResponseStatus.ERROR, rs.get(0).status());
        assertEquals(2.0, rs.get(0).routedAt(), 1e-12, "the routing timestamp comes back");
        assertEquals(0, node.queueLength(), "never queued");
    }

    @Test
    void errorsAfterServiceCostTheServiceTime() {
        BackendNode node = new BackendNode(SELF, 1.0, settings(0), new ErrorModel(1.0, false));
        SimHarness sim = run(node);
        sim.sendAt(0.0, SELF, new NodeMessage.Request(1, 3.0, 0.0, B0));
        sim.runUntil(2.9);
        assertTrue(responses(sim).isEmpty());
        sim.runUntil(3.1);
        assertEquals(ResponseStatus.ERROR, responses(sim).get(0).status());
    }

    @Test
    void theErrorRateIsAProbabilityPerRequest() {
        BackendNode node = new BackendNode(SELF, 1000.0, settings(0), new ErrorModel(0.3, true));
        SimHarness sim = run(node);
        for (int i = 0; i < 4000; i++) {
            sim.sendAt(i * 0.01, SELF, new NodeMessage.Request(i, 1.0, i * 0.01, B0));
        }
        sim.runUntil(100);
        long errors = responses(sim).stream().filter(r -> r.status() == ResponseStatus.ERROR).count();
        assertEquals(4000, responses(sim).size());
        // binomial sd sqrt(0.21 / 4000) = 0.0072: four of them
        assertEquals(0.3, errors / 4000.0, 0.029);
    }

    @Test
    void aFullQueueShedsWith429() {
        BackendNode node = new BackendNode(SELF, 1.0, settings(1));
        SimHarness sim = run(node);
        sim.sendAt(0, SELF, new NodeMessage.Request(1, 1.0, 0, B0));
        sim.sendAt(0, SELF, new NodeMessage.Request(2, 1.0, 0, B0));
        sim.runUntil(0);
        assertEquals(ResponseStatus.OVERLOADED, responses(sim).get(0).status());
        assertEquals(429, responses(sim).get(0).status().code());
    }

    @Test
    void aCrashedNodeThatRecoversReportsAgain() {
        NodeSettings reporting = new NodeSettings(1, 0, 0.1, 0.5, 0, List.of(B0), FeedbackSettings.OFF, 0.2);
        BackendNode node = new BackendNode(SELF, 1.0, reporting);
        SimHarness sim = run(node);
        sim.sendAt(0, SELF, new NodeMessage.Crash());
        sim.runUntil(5);
        sim.drain();
        sim.sendAt(5, SELF, new NodeMessage.Recover());
        sim.runUntil(7);
        List<SimHarness.Delivery> after = sim.drain();
        long reports = after.stream().filter(d -> d.message() instanceof BalancerMessage.LoadReport).count();
        long beats = after.stream().filter(d -> d.message() instanceof BalancerMessage.Heartbeat).count();
        assertTrue(reports >= 3, "reports every 0.5 s after the restart: " + reports);
        assertTrue(beats >= 9, "heartbeats every 0.2 s after the restart: " + beats);
    }

    @Test
    void theLatencyEstimateIsQueuePlusOneTimesTheRecentServiceTime() {
        BackendNode node = new BackendNode(SELF, 2.0, settings(0));
        SimHarness sim = run(node);
        assertEquals(0.5, node.snapshot(0).latencyEstimate(), 1e-12, "before any completion: one work unit at mu");
        sim.sendAt(0, SELF, new NodeMessage.Request(1, 3.0, 0, B0)); // 1.5 s of service
        sim.runUntil(2.0);
        assertEquals(1.5, node.snapshot(2.0).latencyEstimate(), 1e-12);
        sim.sendAt(2.0, SELF, new NodeMessage.Request(2, 1.0, 2.0, B0));
        sim.sendAt(2.0, SELF, new NodeMessage.Request(3, 1.0, 2.0, B0));
        sim.runUntil(2.0);
        assertEquals(3 * 1.5, node.snapshot(2.0).latencyEstimate(), 1e-12, "two in the system: (2 + 1) x 1.5 s");
    }
}

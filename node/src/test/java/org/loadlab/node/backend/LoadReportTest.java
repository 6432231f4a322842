package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * Periodic LoadReports of {@link BackendNode} (cached information model, SPEC §2), run on the
 * simulation engine: node 4 under test, the two balancers it reports to are stand-ins.
 */
class LoadReportTest {
    private static final double EPS = 1e-9;
    private static final BalancerId B0 = new BalancerId(0);
    private static final BalancerId B1 = new BalancerId(1);
    private static final NodeId SELF = NodeId.of(4);

    private BackendNode node;
    private SimHarness sim;

    private void setUp(double period, double delay) {
        NodeSettings s = new NodeSettings(1, 0, 0.1, period, delay, List.of(B0, B1), FeedbackSettings.OFF);
        node = new BackendNode(SELF, 3.0, s);
        sim = new SimHarness(9, 5, 2, 0).install(SELF, node);
        sim.start();
    }

    private SimHarness.Timer tick() {
        List<SimHarness.Timer> ts = sim.timersOf(SELF, NodeMessage.ReportTick.class);
        assertEquals(1, ts.size(), "exactly one report tick armed: " + ts);
        return ts.get(0);
    }

    private void fire(SimHarness.Timer t) {
        sim.fire(SELF, t.key());
    }

    private List<Observation.StateUpdate> stateUpdates() {
        return sim.observed(Observation.StateUpdate.class);
    }

    @Test
    void firstTickHasARandomPhaseWithinOnePeriod() {
        double min = 1;
        double max = 0;
        for (long seed = 0; seed < 200; seed++) {
            NodeSettings s = new NodeSettings(1, 0, 0.1, 0.5, 0, List.of(B0), FeedbackSettings.OFF);
            BackendNode n = new BackendNode(NodeId.of(0), 1.0, s);
            SimHarness h = new SimHarness(seed, 1, 1, 0).install(NodeId.of(0), n);
            h.start();
            List<SimHarness.Timer> ts = h.timersOf(NodeId.of(0), NodeMessage.ReportTick.class);
            assertEquals(1, ts.size());
            double d = ts.get(0).delay();
            assertTrue(d >= 0 && d < 0.5);
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        assertTrue(min < 0.05 && max > 0.45, "phase spread over the period: " + min + ".." + max);
    }

    @Test
    void noReportsWhenPeriodIsZero() {
        NodeSettings s = new NodeSettings(1, 0, 0.1, 0, 0, List.of(B0), FeedbackSettings.OFF);
        BackendNode n = new BackendNode(NodeId.of(0), 1.0, s);
        SimHarness h = new SimHarness(1, 1, 1, 0).install(NodeId.of(0), n);
        h.start();
        assertTrue(h.timers(NodeId.of(0)).isEmpty());
        h.runUntil(10);
        assertTrue(h.deliveries().isEmpty(), "and nothing is ever sent");
    }

    @Test
    void tickSendsReportToEveryBalancerAndRearms() {
        setUp(0.5, 0.0);
        sim.send(SELF, new NodeMessage.Request(1, 100, 0.0, B0));
        sim.send(SELF, new NodeMessage.Request(2, 100, 0.0, B0));
        sim.settle();
        SimHarness.Timer t = tick();
        fire(t);
        double at = sim.now();

        List<SimHarness.Delivery> sent = sim.drain();
        assertEquals(2, sent.size());
        assertEquals(List.of(B0, B1), sent.stream().map(SimHarness.Delivery::to).toList());
        for (SimHarness.Delivery s : sent) {
            LoadSnapshot l = ((BalancerMessage.LoadReport) s.message()).load();
            assertEquals(4, l.node());
            assertEquals(2, l.queueLength());
            assertEquals(1, l.inService());
            assertEquals(3.0, l.serviceRate(), EPS);
            assertEquals(at, l.sampledAt(), EPS);
            assertTrue(l.available());
        }
        assertEquals(1, stateUpdates().size());
        assertEquals(2, stateUpdates().get(0).receivers());
        assertEquals(4, stateUpdates().get(0).node());

        SimHarness.Timer again = tick();
        assertEquals(0.5, again.delay(), EPS);
        assertEquals(at + 0.5, again.due(), EPS);
        fire(again);
        assertEquals(2, sim.drain().size());
        assertEquals(at + 1.0, tick().due(), EPS);
    }

    @Test
    void delayedReportCarriesTheSnapshotTakenAtTheTick() {
        setUp(0.5, 0.2);
        sim.deliver(SELF, new NodeMessage.Request(1, 100, 0.0, B0));
        SimHarness.Timer t = tick();
        fire(t);
        double at = sim.now();
        assertTrue(sim.deliveries().isEmpty(), "nothing is sent before report-delay");
        List<SimHarness.Timer> due = sim.timersOf(SELF, NodeMessage.ReportDue.class);
        assertEquals(1, due.size());
        assertEquals(0.2, due.get(0).delay(), EPS);
        assertEquals(0.5, tick().delay(), EPS);

        // The queue changes before the report leaves; the report still says q = 1.
        sim.sendAt(at + 0.1, SELF, new NodeMessage.Request(2, 100, at + 0.1, B0));
        sim.runUntil(at + 0.1);
        assertEquals(2, node.queueLength());
        fire(due.get(0));
        assertEquals(at + 0.2, sim.now(), EPS);
        List<SimHarness.Delivery> sent = sim.drain();
        assertEquals(List.of(B0, B1), sent.stream().map(SimHarness.Delivery::to).toList());
        LoadSnapshot l0 = ((BalancerMessage.LoadReport) sent.get(0).message()).load();
        LoadSnapshot l1 = ((BalancerMessage.LoadReport) sent.get(1).message()).load();
        assertSame(l0, l1);
        assertEquals(1, l0.queueLength());
        assertEquals(at, l0.sampledAt(), EPS);
        assertEquals(1, stateUpdates().size());
    }

    @Test
    void delayLongerThanPeriodKeepsSeveralReportsInFlight() {
        setUp(0.5, 0.7);
        fire(tick());
        double first = sim.now();
        fire(tick());
        assertEquals(2, sim.timersOf(SELF, NodeMessage.ReportDue.class).size(), "a new report must not replace a pending one");
        sim.runUntil(first + 0.5 + 0.7 + 1e-9);
        List<BalancerMessage.LoadReport> reports = sim.delivered(BalancerMessage.LoadReport.class);
        assertEquals(4, reports.size());
        assertEquals(first, reports.get(0).load().sampledAt(), EPS);
        assertEquals(first + 0.5, reports.get(2).load().sampledAt(), EPS);
    }

    @Test
    void failedNodeKeepsTickingButDoesNotReport() {
        setUp(0.5, 0.2);
        fire(tick()); // snapshot taken, ReportDue pending
        assertEquals(1, sim.timersOf(SELF, NodeMessage.ReportDue.class).size());
        sim.sendAt(sim.now() + 0.1, SELF, new NodeMessage.Fail());
        sim.runUntil(sim.now() + 2.1);
        assertTrue(sim.timersOf(SELF, NodeMessage.ReportDue.class).isEmpty(), "the pending report came due");
        assertTrue(sim.delivered(BalancerMessage.LoadReport.class).isEmpty());
        tick(); // still armed
        sim.deliver(SELF, new NodeMessage.Recover());
        sim.runUntil(sim.now() + 2.0);
        assertTrue(sim.delivered(BalancerMessage.LoadReport.class).size() >= 2);
    }
}

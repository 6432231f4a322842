package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.node.FakeEnv;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** Periodic LoadReports of {@link BackendNode} (cached information model, SPEC §2). */
class LoadReportTest {
    private static final double EPS = 1e-9;
    private static final BalancerId B0 = new BalancerId(0);
    private static final BalancerId B1 = new BalancerId(1);

    private BackendNode node;
    private FakeEnv env;

    private void setUp(double period, double delay) {
        NodeSettings s = new NodeSettings(1, 0, 0.1, period, delay, List.of(B0, B1), FeedbackSettings.OFF);
        node = new BackendNode(NodeId.of(4), 3.0, s);
        env = new FakeEnv(NodeId.of(4), 9);
        env.at(0.0);
        node.onStart(env);
    }

    private FakeEnv.Timer tick() {
        List<FakeEnv.Timer> ts = env.timersOf(NodeMessage.ReportTick.class);
        assertEquals(1, ts.size(), "exactly one report tick armed: " + ts);
        return ts.get(0);
    }

    @Test
    void firstTickHasARandomPhaseWithinOnePeriod() {
        double min = 1;
        double max = 0;
        for (long seed = 0; seed < 200; seed++) {
            NodeSettings s = new NodeSettings(1, 0, 0.1, 0.5, 0, List.of(B0), FeedbackSettings.OFF);
            BackendNode n = new BackendNode(NodeId.of(0), 1.0, s);
            FakeEnv e = new FakeEnv(NodeId.of(0), seed);
            n.onStart(e);
            List<FakeEnv.Timer> ts = e.timersOf(NodeMessage.ReportTick.class);
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
        FakeEnv e = new FakeEnv(NodeId.of(0), 1);
        n.onStart(e);
        assertTrue(e.timers().isEmpty());
    }

    @Test
    void tickSendsReportToEveryBalancerAndRearms() {
        setUp(0.5, 0.0);
        env.at(0.0);
        node.on(new NodeMessage.Request(1, 100, 0.0, B0), env);
        node.on(new NodeMessage.Request(2, 100, 0.0, B0), env);
        FakeEnv.Timer t = tick();
        env.fire(t.key(), node);
        double at = env.now();

        List<FakeEnv.Sent> sent = env.drainSent();
        assertEquals(2, sent.size());
        assertEquals(List.of(B0, B1), sent.stream().map(FakeEnv.Sent::to).toList());
        for (FakeEnv.Sent s : sent) {
            LoadSnapshot l = ((BalancerMessage.LoadReport) s.message()).load();
            assertEquals(4, l.node());
            assertEquals(2, l.queueLength());
            assertEquals(1, l.inService());
            assertEquals(3.0, l.serviceRate(), EPS);
            assertEquals(at, l.sampledAt(), EPS);
            assertTrue(l.available());
        }
        assertEquals(1, env.metrics().stateUpdates.size());
        assertEquals(2, env.metrics().stateUpdates.get(0).receivers());
        assertEquals(4, env.metrics().stateUpdates.get(0).node());

        FakeEnv.Timer again = tick();
        assertEquals(0.5, again.delay(), EPS);
        assertEquals(at + 0.5, again.due(), EPS);
        env.fire(again.key(), node);
        assertEquals(2, env.drainSent().size());
        assertEquals(at + 1.0, tick().due(), EPS);
    }

    @Test
    void delayedReportCarriesTheSnapshotTakenAtTheTick() {
        setUp(0.5, 0.2);
        env.at(0.0);
        node.on(new NodeMessage.Request(1, 100, 0.0, B0), env);
        FakeEnv.Timer t = tick();
        env.fire(t.key(), node);
        double at = env.now();
        assertTrue(env.sent().isEmpty(), "nothing is sent before report-delay");
        List<FakeEnv.Timer> due = env.timersOf(NodeMessage.ReportDue.class);
        assertEquals(1, due.size());
        assertEquals(0.2, due.get(0).delay(), EPS);
        assertEquals(0.5, tick().delay(), EPS);

        // The queue changes before the report leaves; the report still says q = 1.
        env.at(at + 0.1);
        node.on(new NodeMessage.Request(2, 100, at + 0.1, B0), env);
        env.fire(due.get(0).key(), node);
        assertEquals(at + 0.2, env.now(), EPS);
        List<FakeEnv.Sent> sent = env.drainSent();
        assertEquals(List.of(B0, B1), sent.stream().map(FakeEnv.Sent::to).toList());
        LoadSnapshot l0 = ((BalancerMessage.LoadReport) sent.get(0).message()).load();
        LoadSnapshot l1 = ((BalancerMessage.LoadReport) sent.get(1).message()).load();
        assertSame(l0, l1);
        assertEquals(1, l0.queueLength());
        assertEquals(at, l0.sampledAt(), EPS);
        assertEquals(1, env.metrics().stateUpdates.size());
    }

    @Test
    void delayLongerThanPeriodKeepsSeveralReportsInFlight() {
        setUp(0.5, 0.7);
        env.fire(tick().key(), node);
        double first = env.now();
        env.fire(tick().key(), node);
        assertEquals(2, env.timersOf(NodeMessage.ReportDue.class).size(), "a new report must not replace a pending one");
        env.runUntil(first + 0.5 + 0.7 + 1e-9, node);
        List<BalancerMessage.LoadReport> reports = env.sentOfType(BalancerMessage.LoadReport.class);
        assertEquals(4, reports.size());
        assertEquals(first, reports.get(0).load().sampledAt(), EPS);
        assertEquals(first + 0.5, reports.get(2).load().sampledAt(), EPS);
    }

    @Test
    void failedNodeKeepsTickingButDoesNotReport() {
        setUp(0.5, 0.2);
        env.fire(tick().key(), node); // snapshot taken, ReportDue pending
        env.at(env.now() + 0.1);
        node.on(new NodeMessage.Fail(), env);
        env.runUntil(env.now() + 2.0, node);
        assertTrue(env.sentOfType(BalancerMessage.LoadReport.class).isEmpty());
        tick(); // still armed
        node.on(new NodeMessage.Recover(), env);
        env.runUntil(env.now() + 2.0, node);
        assertTrue(env.sentOfType(BalancerMessage.LoadReport.class).size() >= 2);
    }
}

package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.balancer.guardrail.OutlierDetection;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/** Passive outlier ejection (issue 14): consecutive failures, success rate, ejection time, the cap, returns. */
class OutlierEjectionTest {
    private static final BalancerId SELF = new BalancerId(0);
    /** Guardrail conditions off, but a cap of 20 % of the pool for the ledger. */
    private static final Guardrails CAP_20 = new Guardrails(false, 0.85, 2, 2.0, 2.0, 0.5, 0.2, 3);

    private static BalancerLogic roundRobin(int n, OutlierDetection o) {
        return new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.create("round-robin", PolicyParameters.DEFAULTS, new double[n]), new ProbeModel(0.05),
                BalancerSettings.DEFAULT.withGuardrails(CAP_20).withOutlierDetection(o));
    }

    /** Nodes that answer every request at once: with an error where {@code failing} says so (for the k-th request). */
    private static Map<Integer, SimHarness.Script> answering(int n, IntPredicate failsNode, IntPredicate failsRequest) {
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        for (int j = 0; j < n; j++) {
            int node = j;
            int[] seen = {0};
            scripts.put(j, (m, env) -> {
                if (m instanceof NodeMessage.Request r) {
                    boolean error = failsNode.test(node) && failsRequest.test(seen[0]++);
                    env.send(r.replyTo(), BalancerMessage.Response.to(r, node, error ? ResponseStatus.ERROR : ResponseStatus.OK));
                }
            });
        }
        return scripts;
    }

    private static void arrivals(Bench bench, int count, long first) {
        for (int i = 0; i < count; i++) {
            bench.on(new BalancerMessage.Arrival(first + i, 1.0, bench.now()));
        }
    }

    @Test
    void consecutiveFailuresEjectUnderTheCap() {
        int n = 10;
        OutlierDetection o = new OutlierDetection(true, 5, 10, 30, 300, false, 5, 100, 1.9);
        BalancerLogic b = roundRobin(n, o);
        Bench bench = new Bench(b, 21, answering(n, j -> j <= 2, k -> true));
        arrivals(bench, 100, 0);
        int ejected = 0;
        for (int j = 0; j <= 2; j++) {
            if (b.ejected(j) != null) {
                ejected++;
                assertTrue(b.ejected(j).contains("5 consecutive failures"), b.ejected(j));
            }
        }
        assertEquals(2, ejected, "the cap (20 % of 10 = 2) leaves the third failing node in");
        assertEquals(2, bench.metrics().counter(BalancerLogic.OUTLIER_EJECTIONS));
        assertTrue(bench.metrics().counter(BalancerLogic.OUTLIER_CAPPED) > 0, "the refused ejections are counted");
        assertEquals(8, b.poolSize());
        for (int j = 3; j < n; j++) {
            assertNull(b.ejected(j));
        }
    }

    @Test
    void anEjectionLastsBaseTimesTheNodesEjectionsAndEndsAtAnIntervalTick() {
        int n = 10;
        OutlierDetection o = new OutlierDetection(true, 5, 10, 30, 300, false, 5, 100, 1.9);
        BalancerLogic b = roundRobin(n, o);
        Bench bench = new Bench(b, 24, answering(n, j -> j == 0, k -> true));
        arrivals(bench, 60, 0);
        assertTrue(b.ejected(0) != null, "ejected at t = 0");
        bench.at(29.9);
        assertTrue(b.ejected(0) != null, "30 s = base x 1 ejection");
        bench.at(30.1);
        assertNull(b.ejected(0), "back at the first interval tick after its time");
        assertEquals(10, b.poolSize());
        arrivals(bench, 60, 1000); // fails again at once, before a healthy interval: its second ejection
        assertTrue(b.ejected(0) != null);
        bench.at(89.9);
        assertTrue(b.ejected(0) != null, "the second ejection lasts 2 x 30 s, until 90.1");
        bench.at(99.9);
        assertTrue(b.ejected(0) != null, "the tick at 90 s is before its end: it waits for the tick at 100 s");
        bench.at(100.1);
        assertNull(b.ejected(0));
        assertEquals(2, bench.metrics().counter(BalancerLogic.OUTLIER_EJECTIONS));
    }

    @Test
    void aNodeBelowTheSuccessRateSpreadIsEjectedAtTheIntervalEnd() {
        int n = 10;
        OutlierDetection o = new OutlierDetection(true, 0, 10, 30, 300, true, 5, 20, 1.9);
        BalancerLogic b = roundRobin(n, o);
        // node 0 fails every other request: success rate 0.5 against 1.0 elsewhere;
        // mean 0.95, sd 0.15, limit 0.95 - 1.9 x 0.15 = 0.665
        Bench bench = new Bench(b, 22, answering(n, j -> j == 0, k -> k % 2 == 0));
        arrivals(bench, 400, 0);
        assertNull(b.ejected(0), "consecutive-errors is off: nothing until the interval ends");
        bench.at(10.01);
        assertTrue(b.ejected(0) != null && b.ejected(0).startsWith("outlier: success rate 0.500"), String.valueOf(b.ejected(0)));
        for (int j = 1; j < n; j++) {
            assertNull(b.ejected(j));
        }
    }

    @Test
    void successesBreakTheRunOfFailures() {
        int n = 5;
        OutlierDetection o = new OutlierDetection(true, 3, 10, 30, 300, false, 5, 100, 1.9);
        BalancerLogic b = roundRobin(n, o);
        // node 1 fails two in a row, then succeeds, forever: never three in a row
        Bench bench = new Bench(b, 23, answering(n, j -> j == 1, k -> k % 3 != 2));
        arrivals(bench, 300, 0);
        assertNull(b.ejected(1));
        assertEquals(0, bench.metrics().counter(BalancerLogic.OUTLIER_EJECTIONS));
    }
}

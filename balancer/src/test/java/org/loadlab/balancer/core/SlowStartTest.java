package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.guardrail.SlowStart;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** Slow start (issue 14): Envoy's factor, and how draws, round robin and ranking policies honour it. */
class SlowStartTest {
    private static final BalancerId SELF = new BalancerId(0);

    @Test
    void theFactorIsEnvoysFormula() {
        SlowStart linear = new SlowStart(60, 1.0, 0.1);
        assertEquals(0.1, linear.factor(0), 1e-12, "below the minimum weight: the minimum");
        assertEquals(0.25, linear.factor(15), 1e-12);
        assertEquals(0.5, linear.factor(30), 1e-12);
        assertEquals(1.0, linear.factor(60), 1e-12, "the window is over");
        assertEquals(1.0, linear.factor(1e6), 1e-12);
        SlowStart aggressive = new SlowStart(60, 2.0, 0.1);
        assertEquals(Math.sqrt(0.25), aggressive.factor(15), 1e-12, "(t / window)^(1 / aggression)");
        SlowStart tiny = new SlowStart(100, 1.0, 1e-6);
        assertEquals(0.001 / 100, tiny.factor(0), 1e-15, "the age is floored at 1 ms");
        assertEquals(1.0, SlowStart.OFF.factor(0), 1e-12, "off: full weight");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SlowStart(10, 1, 0));
        assertTrue(e.getMessage().contains("slow-start.min-weight = 0.0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SlowStart(10, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new SlowStart(-1, 1, 0.1));
    }

    private static BalancerLogic balancer(String policy, int n, SlowStart s) {
        return new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.instantiate(policy, PolicyParameters.DEFAULTS, ones(n)), new ProbeModel(0.05),
                BalancerSettings.DEFAULT.withSlowStart(s));
    }

    private static double[] ones(int n) {
        double[] w = new double[n];
        java.util.Arrays.fill(w, 1.0);
        return w;
    }

    /** Routes {@code count} requests at the bench's current time; returns the requests each node received. */
    private static int[] route(Bench bench, int n, int count, long firstId) {
        int[] got = new int[n];
        for (int i = 0; i < count; i++) {
            bench.on(new BalancerMessage.Arrival(firstId + i, 1.0, bench.now()));
        }
        for (Bench.Sent s : bench.drainSent()) {
            if (s.message() instanceof NodeMessage.Request) {
                got[((NodeId) s.to()).index()]++;
            }
        }
        return got;
    }

    @Test
    void aJoiningNodeIsDrawnInProportionToItsWeight() {
        int n = 10;
        BalancerLogic b = balancer("random", n, new SlowStart(100, 1.0, 0.1)).absent(9);
        Bench bench = new Bench(b, 11);
        bench.on(new BalancerMessage.NodeJoined(9));
        bench.at(50);
        assertEquals(0.5, b.weight(9), 1e-12);
        int[] got = route(bench, n, 20000, 0);
        double share = got[9] / 20000.0;
        double expected = 0.5 / 9.5; // weight 0.5 against nine nodes at 1
        // binomial sd sqrt(p(1-p)/N) = 0.0016: four of them
        assertEquals(expected, share, 0.0064, "share of the node in slow start");
        bench.at(100);
        got = route(bench, n, 20000, 100000);
        assertEquals(0.1, got[9] / 20000.0, 0.0085, "after the window: a fair share");
        assertEquals(1, bench.metrics().counter(BalancerLogic.SLOW_START_NODES));
    }

    @Test
    void roundRobinServesAJoiningNodeOnAShareOfItsTurnsEqualToItsWeight() {
        int n = 5;
        BalancerLogic b = balancer("round-robin", n, new SlowStart(100, 1.0, 0.1)).absent(4);
        Bench bench = new Bench(b, 12);
        bench.on(new BalancerMessage.NodeJoined(4));
        bench.at(25); // weight 0.25
        int[] got = route(bench, n, 4250, 0);
        // per cycle of the five nodes: four requests to the others, 0.25 to node 4
        assertEquals(4250 * 0.25 / 4.25, got[4], 2);
        for (int j = 0; j < 4; j++) {
            assertEquals(1000, got[j], 2);
        }
    }

    @Test
    void aRankingPolicySeesANodeInSlowStartWithProbabilityEqualToItsWeight() {
        int n = 10;
        // least-connections: node 9 answers at once (0 in flight), the others never do (their counts only grow),
        // so node 9 wins every decision it takes part in; slow start lets it take part with probability 0.3.
        BalancerLogic b = balancer("least-connections", n, new SlowStart(100, 1.0, 0.1)).absent(9);
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        scripts.put(9, (m, env) -> {
            if (m instanceof NodeMessage.Request r) {
                env.send(r.replyTo(), new BalancerMessage.Response(r.id(), 9, r.arrivalTime(), true));
            }
        });
        Bench bench = new Bench(b, 13, scripts);
        bench.on(new BalancerMessage.NodeJoined(9));
        bench.at(30);
        int[] got = route(bench, n, 4000, 0);
        // binomial sd sqrt(0.21 / 4000) = 0.0072: five of them
        assertEquals(0.3, got[9] / 4000.0, 0.036);
    }

    @Test
    void whenEveryNodeIsNewAtOnceSlowStartChangesNothing() {
        int n = 8;
        int[] all = BalancerLogicProbeTest.iota(n);
        BalancerLogic b = balancer("random", n, new SlowStart(100, 1.0, 0.1)).absent(all);
        Bench bench = new Bench(b, 14);
        for (int j : all) {
            bench.on(new BalancerMessage.NodeJoined(j));
        }
        bench.at(20); // every weight 0.2
        int[] got = route(bench, n, 16000, 0);
        for (int j = 0; j < n; j++) {
            // binomial sd 0.0026: four of them
            assertEquals(1.0 / n, got[j] / 16000.0, 0.0105, "node " + j);
        }
    }
}

package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.guardrail.SlowStart;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.AffinityPolicy;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.policy.ProductionParameters;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/** least-request, prequal, ring-hash / maglev and error-aware scoring on the decision engine (issue 14). */
class ProductionPoliciesTest {
    private static final BalancerId SELF = new BalancerId(0);

    private static BalancerLogic balancer(String policy, int n, double[] weights, PolicyParameters p, BalancerSettings s) {
        return new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n, PolicyCatalog.instantiate(policy, p, weights),
                new ProbeModel(0.05), s);
    }

    private static int[] routed(Bench bench, int n) {
        int[] got = new int[n];
        for (Bench.Sent s : bench.drainSent()) {
            if (s.message() instanceof NodeMessage.Request) {
                got[((NodeId) s.to()).index()]++;
            }
        }
        return got;
    }

    @Test
    void leastRequestWithUnequalWeightsFollowsTheEdfSchedule() {
        double[] weights = {1, 2, 3};
        PolicyParameters noBias = PolicyParameters.DEFAULTS.withProduction(new ProductionParameters(10, 0, 2, 0.0, 1024,
                65537, 3, 16, 1, 3, 0.8, 0, 10));
        BalancerLogic b = balancer("least-request", 3, weights, noBias, BalancerSettings.DEFAULT);
        Bench bench = new Bench(b, 41);
        for (int i = 0; i < 600; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        int[] got = routed(bench, 3);
        assertEquals(100, got[0], 1, "EDF with bias 0 is weighted round robin: 1 : 2 : 3");
        assertEquals(200, got[1], 1);
        assertEquals(300, got[2], 1);
    }

    @Test
    void leastRequestsBiasSteersAwayFromNodesWithRequestsOut() {
        double[] weights = {1, 1, 1, 1};
        int n = 4;
        // Equal weights: P2C on requests in flight. Node 3 never answers, the others at once: it gets
        // requests only while its count ties the others', i.e. hardly ever.
        BalancerLogic b = balancer("least-request", n, weights, PolicyParameters.DEFAULTS, BalancerSettings.DEFAULT);
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        for (int j = 0; j < 3; j++) {
            int node = j;
            scripts.put(j, (m, env) -> {
                if (m instanceof NodeMessage.Request r) {
                    env.send(r.replyTo(), BalancerMessage.Response.to(r, node, ResponseStatus.OK));
                }
            });
        }
        Bench bench = new Bench(b, 42, scripts);
        for (int i = 0; i < 1000; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        int[] got = routed(bench, n);
        assertEquals(1, got[3], "one request, then its count stays above the others' 0");
        assertEquals(0, bench.metrics().decisions().stream().mapToInt(d -> d.queries()).sum(), "reads no load");
    }

    @Test
    void leastRequestSwitchesToTheWeightedScheduleDuringSlowStart() {
        int n = 4;
        double[] weights = {1, 1, 1, 1};
        PolicyParameters noBias = PolicyParameters.DEFAULTS.withProduction(new ProductionParameters(10, 0, 2, 0.0, 1024,
                65537, 3, 16, 1, 3, 0.8, 0, 10));
        BalancerLogic b = balancer("least-request", n, weights, noBias,
                BalancerSettings.DEFAULT.withSlowStart(new SlowStart(100, 1.0, 0.1))).absent(3);
        Bench bench = new Bench(b, 43);
        bench.on(new BalancerMessage.NodeJoined(3));
        bench.at(50);
        for (int i = 0; i < 3500; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
        }
        int[] got = routed(bench, n);
        assertEquals(3500 * 0.5 / 3.5, got[3], 3, "weight 0.5 against three nodes at 1");
    }

    @Test
    void prequalChoosesTheColdNodeWithTheLowestLatencyFromItsProbePool() {
        int n = 4;
        // (RIF, latency estimate): node 0 idle but slow, node 1 the fastest cold one, node 2 hot, node 3 in between.
        int[] rif = {0, 1, 12, 2};
        double[] latency = {5.0, 1.0, 0.5, 2.0};
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        for (int j = 0; j < n; j++) {
            int node = j;
            scripts.put(j, (m, env) -> {
                if (m instanceof NodeMessage.Probe p) {
                    env.send(p.replyTo(), new BalancerMessage.ProbeReply(p.probeId(), new LoadSnapshot(node, rif[node], 1,
                            1.0, 0.1, 0.1, 0.1, 0.1, 1.0, env.now(), true, latency[node])));
                }
            });
        }
        PolicyParameters oneUse = PolicyParameters.DEFAULTS.withProduction(new ProductionParameters(10, 0, 2, 1.0, 1024,
                65537, 4, 16, 10.0, 100, 0.75, 0, 10));
        BalancerLogic b = balancer("prequal", n, new double[n], oneUse, BalancerSettings.DEFAULT);
        Bench bench = new Bench(b, 44, scripts);
        bench.on(new BalancerMessage.Arrival(0, 1.0, 0)); // no probe yet: random, and 4 probes go out
        assertEquals(1, bench.metrics().counter("prequal_fallbacks"));
        routed(bench, n);
        int[] got = new int[n];
        for (int i = 1; i <= 20; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            int[] r = routed(bench, n);
            for (int j = 0; j < n; j++) {
                got[j] += r[j];
            }
        }
        assertEquals(20, got[1], "cold nodes are 0, 1, 3 (RIF at most the 0.75-quantile 2); node 1 has the lowest latency");
        assertEquals(4, bench.metrics().decisions().get(5).queries(), "each request sends its probes");
    }

    @Test
    void hashingPoliciesKeepAKeysNodeAndCountTheKeysARemovalMoves() {
        int n = 10;
        for (String policy : new String[] {"ring-hash", "maglev"}) {
            BalancerLogic b = balancer(policy, n, new double[n], PolicyParameters.DEFAULTS, BalancerSettings.DEFAULT);
            Bench bench = new Bench(b, 45);
            int[] nodeOfKey = new int[200];
            for (int key = 0; key < 200; key++) {
                bench.on(new BalancerMessage.Arrival(key, 1.0, 0, key));
                nodeOfKey[key] = routedTo(bench);
            }
            for (int key = 0; key < 200; key++) {
                bench.on(new BalancerMessage.Arrival(1000 + key, 1.0, 0, key));
                assertEquals(nodeOfKey[key], routedTo(bench), policy + ": same key, same node");
            }
            bench.on(new BalancerMessage.NodeRemoved(4));
            int onFour = 0;
            for (int key = 0; key < 200; key++) {
                bench.on(new BalancerMessage.Arrival(2000 + key, 1.0, 0, key));
                int now = routedTo(bench);
                if (nodeOfKey[key] == 4) {
                    onFour++;
                } else if (policy.equals("ring-hash")) {
                    assertEquals(nodeOfKey[key], now, "on a ring only node 4's keys move");
                }
            }
            long moved = bench.metrics().counter(AffinityPolicy.MOVED);
            assertTrue(moved >= onFour && moved <= onFour + 10, policy + ": moved " + moved + ", on node 4 " + onFour);
        }
    }

    private static int routedTo(Bench bench) {
        int node = -1;
        for (Bench.Sent s : bench.drainSent()) {
            if (s.message() instanceof NodeMessage.Request) {
                node = ((NodeId) s.to()).index();
            }
        }
        return node;
    }

    @Test
    void errorAwareScoringTurnsAwayFromANodeWhoseFailuresLookFast() {
        int n = 4;
        // Node 0 fails everything at once, so it always shows the shortest queue of in-flight requests.
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        for (int j = 0; j < n; j++) {
            int node = j;
            scripts.put(j, (m, env) -> {
                if (m instanceof NodeMessage.Request r && node == 0) {
                    env.send(r.replyTo(), BalancerMessage.Response.to(r, 0, ResponseStatus.ERROR));
                }
            });
        }
        int[] plain = toZero("least-connections", PolicyParameters.DEFAULTS, scripts);
        PolicyParameters aware = PolicyParameters.DEFAULTS.withProduction(new ProductionParameters(10, 0, 2, 1.0, 1024,
                65537, 3, 16, 1, 3, 0.8, 1000.0, 10));
        int[] penalised = toZero("least-connections", aware, scripts);
        assertTrue(plain[0] > 900, "without the penalty the failing node takes nearly everything: " + plain[0]);
        assertTrue(penalised[0] < 50, "with it, hardly anything: " + penalised[0]);
    }

    private static int[] toZero(String policy, PolicyParameters p, Map<Integer, SimHarness.Script> scripts) {
        int n = 4;
        BalancerLogic b = balancer(policy, n, new double[n], p, BalancerSettings.DEFAULT);
        Bench bench = new Bench(b, 46, scripts);
        for (int i = 0; i < 1000; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, i * 0.01));
            bench.at(i * 0.01);
        }
        return routed(bench, n);
    }
}

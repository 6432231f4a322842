package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

/**
 * Guardrail filters and membership news in the balancer core: masks, the ejection cap,
 * fail-open, offline nodes, re-decisions, unreachable and removed nodes (issue 10).
 */
class GuardedBalancerTest {
    private static final BalancerId SELF = new BalancerId(0);
    private static final double TIMEOUT = 0.05;
    private static final Guardrails ON = Guardrails.OFF.on();

    private static BalancerLogic p2c(int n, Guardrails g) {
        return new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.create("p2c", PolicyParameters.DEFAULTS, new double[n]), new ProbeModel(TIMEOUT),
                RejectionSettings.REJECT, g);
    }

    /** Node stand-ins that answer every probe at once with queue 1 and the given CPU; null CPU: never answer. */
    private static Map<Integer, SimHarness.Script> answering(int n, IntToDoubleFunction cpu) {
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        for (int j = 0; j < n; j++) {
            int node = j;
            double c = cpu.applyAsDouble(j);
            if (Double.isNaN(c)) {
                continue;
            }
            scripts.put(j, (m, env) -> {
                if (m instanceof NodeMessage.Probe p) {
                    env.send(p.replyTo(), new BalancerMessage.ProbeReply(p.probeId(),
                            new LoadSnapshot(node, 1, 1, 1.0, c, 0.3, 0.2, 0.1, 1.0, env.now(), true)));
                }
            });
        }
        return scripts;
    }

    private static int routedTo(Bench bench) {
        var requests = bench.drainSent().stream().filter(s -> s.message() instanceof NodeMessage.Request).toList();
        assertEquals(1, requests.size(), "exactly one request routed");
        return ((NodeId) requests.get(0).to()).index();
    }

    @Test
    void twentyNodesAllAboveTheCpuThresholdNeverRejectTheyFailOpen() {
        int n = 20;
        BalancerLogic b = p2c(n, ON);
        Bench bench = new Bench(b, 1, answering(n, j -> 0.95));
        for (int i = 0; i < 400; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            routedTo(bench);
        }
        assertEquals(0, bench.metrics().rejected().size(), "no 'no backend' rejection");
        assertEquals(10, bench.metrics().counter(BalancerLogic.GUARDRAIL_EJECTIONS), "at most 50% of 20 masked");
        assertTrue(bench.metrics().counter(BalancerLogic.GUARDRAIL_FAIL_OPEN) > 0, "some decisions met only masked nodes");
        assertEquals(10, b.poolSize(), "the masked half is out of the sampling pool");
    }

    @Test
    void aHotNodeIsMaskedAndLeavesThePoolOfThree() {
        BalancerLogic b = p2c(3, ON);
        Bench bench = new Bench(b, 2, answering(3, j -> j == 1 ? 0.99 : 0.2));
        int[] routed = new int[3];
        int probesToHotLater = 0;
        for (int i = 0; i < 300; i++) {
            boolean masked = b.poolSize() == 2; // before this decision
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            if (masked) {
                probesToHotLater += (int) bench.sent().stream()
                        .filter(d -> d.to().equals(NodeId.of(1)) && d.message() instanceof NodeMessage.Probe).count();
            }
            routed[routedTo(bench)]++;
        }
        assertEquals(0, routed[1], "the masked node never wins against a healthy one");
        assertEquals(1, bench.metrics().counter(BalancerLogic.GUARDRAIL_EJECTIONS));
        assertEquals(2, b.poolSize());
        assertEquals("cpu 0.99 > 0.85", b.view(1, bench.now()).mask());
        assertEquals(0, probesToHotLater, "once masked it is not even probed");
    }

    @Test
    void withGuardrailsOffNothingIsMaskedOrDecidedAgain() {
        BalancerLogic b = p2c(3, Guardrails.OFF);
        Bench bench = new Bench(b, 3, answering(3, j -> 0.99));
        for (int i = 0; i < 50; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            routedTo(bench);
        }
        assertEquals(0, bench.metrics().counter(BalancerLogic.GUARDRAIL_MASKED));
        assertEquals(3, b.poolSize());
    }

    @Test
    void aNodeThatMissesProbesGoesOfflineAndIsNotProbedAgain() {
        int n = 4;
        BalancerLogic b = p2c(n, ON);
        Bench bench = new Bench(b, 4, answering(n, j -> j == 2 ? Double.NaN : 0.2));
        for (int i = 0; i < 200; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            bench.runUntil(bench.now() + 2 * TIMEOUT);
            routedTo(bench);
        }
        assertEquals("offline: 2 probes unanswered", b.view(2, bench.now()).mask());
        assertEquals(0, bench.metrics().rejected().size());
        assertEquals(3, b.poolSize());
    }

    @Test
    void whenEveryCandidateIsSilentTheRequestIsDecidedAgainWithANewSample() {
        int n = 10;
        // Only nodes 8 and 9 answer; guardrails on: silent samples are decided again (at most 3 times).
        BalancerLogic guarded = p2c(n, new Guardrails(true, 1.0, 0, 0, 0, 0.0, 0.0, 3));
        Bench bench = new Bench(guarded, 5, answering(n, j -> j >= 8 ? 0.2 : Double.NaN));
        int rejected = 0;
        for (int i = 0; i < 200; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            bench.runUntil(bench.now() + 5 * TIMEOUT);
        }
        rejected = bench.metrics().rejected().size();
        long redecisions = bench.metrics().counter(BalancerLogic.REDECISIONS);
        assertTrue(redecisions > 100, "many first samples met two silent nodes: " + redecisions);
        assertTrue(rejected < 100, "a new sample often finds a live node: " + rejected + " rejected");

        BalancerLogic plain = p2c(n, Guardrails.OFF);
        Bench off = new Bench(plain, 5, answering(n, j -> j >= 8 ? 0.2 : Double.NaN));
        for (int i = 0; i < 200; i++) {
            off.on(new BalancerMessage.Arrival(i, 1.0, off.now()));
            off.runUntil(off.now() + 5 * TIMEOUT);
        }
        assertEquals(0, off.metrics().counter(BalancerLogic.REDECISIONS));
        assertTrue(off.metrics().rejected().size() > rejected, "without re-decisions more are rejected");
    }

    @Test
    void anUnreachableNodeAnswersPendingProbesAtOnceAndLeavesThePool() {
        int n = 2;
        BalancerLogic b = p2c(n, Guardrails.OFF);
        Bench bench = new Bench(b, 6, answering(n, j -> j == 0 ? 0.2 : Double.NaN));
        bench.on(new BalancerMessage.Arrival(1, 1.0, 0));
        assertEquals(1, b.pendingDecisions(), "node 1 has not answered");
        bench.on(new BalancerMessage.NodeUnreachable(1));
        assertEquals(0, b.pendingDecisions(), "decided at once, without waiting for the probe timeout");
        assertEquals(0, routedTo(bench));
        assertEquals(0.0, bench.now(), 1e-12);
        assertEquals(1, b.poolSize());
        for (int i = 2; i < 20; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, bench.now()));
            assertEquals(0, routedTo(bench), "an unreachable node is not sampled");
        }
        bench.on(new BalancerMessage.NodeReachable(1));
        assertEquals(2, b.poolSize(), "reachable again: back in the pool");
    }

    @Test
    void withoutRetriesTheDecisionLogHearsThatARemovedNodesRequestsEnded() {
        // Without retries the balancer counts its requests in flight per node but keeps no ids,
        // so it tells the decision log which node went; the log ends its own open requests there
        // (docs/autonomous.md: a lost request's row has status 503). It used to hear nothing.
        int n = 3;
        BalancerLogic b = new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.create("round-robin", PolicyParameters.DEFAULTS, new double[n]), new ProbeModel(TIMEOUT));
        java.util.List<String> heard = new java.util.ArrayList<>();
        b.decisionLog(new DecisionLog() {
            @Override
            public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                               String mode, int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads) {
            }

            @Override
            public void finished(long requestId, org.loadlab.node.protocol.ResponseStatus status, double now) {
                heard.add("finished " + requestId);
            }

            @Override
            public void nodeRemoved(int node, double now) {
                heard.add("removed " + node);
            }
        });
        Bench bench = new Bench(b, 7);
        for (int i = 0; i < 9; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        bench.on(new BalancerMessage.NodeRemoved(2));
        assertEquals(3, bench.metrics().totalLost());
        assertEquals(java.util.List.of("removed 2"), heard);
        bench.on(new BalancerMessage.NodeRemoved(1));
        bench.on(new BalancerMessage.NodeRemoved(1)); // a second removal of the same node says nothing more
        assertEquals(java.util.List.of("removed 2", "removed 1"), heard);
    }

    @Test
    void aRemovedNodeLosesWhatWasInFlightThereAndNeverComesBackUnlessItJoins() {
        int n = 3;
        BalancerLogic b = new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.create("round-robin", PolicyParameters.DEFAULTS, new double[n]), new ProbeModel(TIMEOUT));
        Bench bench = new Bench(b, 7);
        for (int i = 0; i < 9; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        assertEquals(3, b.inFlight(2));
        bench.on(new BalancerMessage.NodeRemoved(2));
        assertEquals(3, bench.metrics().totalLost(), "the removed node's requests in flight are lost");
        assertEquals(0, b.inFlight(2));
        bench.on(new BalancerMessage.Response(2, 2, 0, true)); // a late answer from a removed node
        assertEquals(0, bench.metrics().completed().size(), "counted as lost already: ignored");
        bench.on(new BalancerMessage.NodeReachable(2));
        assertEquals(2, b.poolSize(), "a removed member does not come back by becoming reachable");
        bench.drainSent();
        for (int i = 10; i < 30; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
            assertFalse(routedTo(bench) == 2);
        }
        bench.on(new BalancerMessage.NodeJoined(2));
        assertEquals(3, b.poolSize(), "a new member under that index joins");
        assertEquals(1, bench.metrics().counter(BalancerLogic.MEMBERSHIP_REMOVED));
    }
}

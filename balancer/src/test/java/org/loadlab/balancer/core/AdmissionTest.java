package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * Admission control in the balancer core: with a bound on decisions in flight, an arrival
 * that finds the bound reached is rejected at once — no probe sent, counted as
 * {@code admission_shed} — and arrivals are admitted again as soon as decisions finish.
 */
class AdmissionTest {
    private static final int N = 4;

    private static BalancerLogic balancer(int bound) {
        return new BalancerLogic(BalancerLogicProbeTest.SELF, BalancerLogicProbeTest.iota(N), N,
                BalancerLogicProbeTest.policy("p2c", N), new ProbeModel(BalancerLogicProbeTest.TIMEOUT))
                .limitDecisionsInFlight(bound);
    }

    @Test
    void beyondTheBoundArrivalsAreRejectedAtOnceWithoutProbing() {
        BalancerLogic b = balancer(2);
        Bench env = new Bench(b, 7);
        env.on(new BalancerMessage.Arrival(0, 0.1, 0));
        env.on(new BalancerMessage.Arrival(1, 0.1, 0));
        assertEquals(4, env.drainSent().size(), "two decisions probe two nodes each");
        assertEquals(2, b.pendingDecisions());

        env.on(new BalancerMessage.Arrival(2, 0.1, 0));
        env.on(new BalancerMessage.Arrival(3, 0.1, 0));
        assertEquals(List.of(), env.drainSent(), "refused at once: no probe for a shed arrival");
        Bench.Metrics m = env.metrics();
        assertEquals(4, m.arrived());
        assertEquals(2, m.rejected().size());
        assertEquals(2, m.counter(BalancerLogic.ADMISSION_SHED));
        assertEquals(0, m.decisions().size(), "a shed arrival is not a decision (queries per decision unchanged)");
        assertEquals(2, b.pendingDecisions(), "the shed arrivals did not join the decisions in flight");
    }

    @Test
    void aShedArrivalIsToldToTheDecisionLog() {
        // seed 003's gateway answers its HTTP clients from the decision log: a request shed by
        // the bound and not told there was never answered (the client waited out its own timeout)
        List<String> shed = new java.util.ArrayList<>();
        BalancerLogic b = balancer(1).decisionLog(new DecisionLog() {
            @Override
            public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                               String mode, int[] pool, int poolSize, int[] inFlight,
                               org.loadlab.node.protocol.LoadSnapshot[] newest) {
            }

            @Override
            public void finished(long requestId, org.loadlab.node.protocol.ResponseStatus status, double now) {
            }

            @Override
            public void shed(BalancerMessage.Arrival request, String reason, double now) {
                shed.add(request.id() + " " + reason);
            }
        });
        Bench env = new Bench(b, 7);
        env.on(new BalancerMessage.Arrival(0, 0.1, 0));
        env.on(new BalancerMessage.Arrival(1, 0.1, 0));
        assertEquals(List.of("1 " + BalancerLogic.ADMISSION_SHED), shed);
    }

    @Test
    void aFinishedDecisionMakesRoomForTheNextArrival() {
        BalancerLogic b = balancer(1);
        Bench env = new Bench(b, 7);
        env.on(new BalancerMessage.Arrival(0, 0.1, 0));
        for (Bench.Sent s : env.drainSent()) {
            NodeMessage.Probe p = (NodeMessage.Probe) s.message();
            int node = ((org.loadlab.kernel.NodeId) s.to()).index();
            env.on(new BalancerMessage.ProbeReply(p.probeId(), BalancerLogicProbeTest.load(node, 0, 0)));
        }
        assertEquals(0, b.pendingDecisions(), "decided: routed");
        env.on(new BalancerMessage.Arrival(1, 0.1, 0));
        assertEquals(1, b.pendingDecisions(), "admitted: the bound counts decisions in flight, not requests in service");
        assertEquals(0, env.metrics().counter(BalancerLogic.ADMISSION_SHED));
        assertTrue(env.sentOfType(NodeMessage.Probe.class).size() >= 2);
    }

    @Test
    void aProbeTimeoutAlsoEndsADecisionInFlight() {
        BalancerLogic b = balancer(1);
        Bench env = new Bench(b, 7);
        env.on(new BalancerMessage.Arrival(0, 0.1, 0));
        env.on(new BalancerMessage.Arrival(1, 0.1, 0));
        assertEquals(1, env.metrics().counter(BalancerLogic.ADMISSION_SHED));
        env.runUntil(BalancerLogicProbeTest.TIMEOUT * 2);
        assertEquals(0, b.pendingDecisions());
        env.on(new BalancerMessage.Arrival(2, 0.1, env.now()));
        assertEquals(1, b.pendingDecisions());
        assertEquals(1, env.metrics().counter(BalancerLogic.ADMISSION_SHED));
    }

    @Test
    void withoutABoundEveryArrivalIsDecidedAndANegativeBoundIsRefused() {
        BalancerLogic b = balancer(0);
        Bench env = new Bench(b, 7);
        for (int i = 0; i < 50; i++) {
            env.on(new BalancerMessage.Arrival(i, 0.1, 0));
        }
        assertEquals(50, b.pendingDecisions());
        assertEquals(0, env.metrics().counter(BalancerLogic.ADMISSION_SHED));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> balancer(-1));
        assertTrue(e.getMessage().contains("balancers.max-decisions-in-flight"), e.getMessage());
    }
}

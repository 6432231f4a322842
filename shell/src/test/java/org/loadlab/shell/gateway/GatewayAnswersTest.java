package org.loadlab.shell.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * The gateway's answers from a balancer's decision log. The case that matters: with retries
 * off the balancer core reports a removed node's lost requests only as
 * {@code nodeRemoved(node)}; without an answer for it the client waited out the gateway's own
 * 10 s and got 504 instead of the core's RESET (503) at once.
 */
class GatewayAnswersTest {
    private final ConcurrentHashMap<Long, GatewayAnswers.Pending> pending = new ConcurrentHashMap<>();
    private final GatewayAnswers p2c = new GatewayAnswers("p2c", pending);

    private GatewayAnswers.Pending routed(long id, String strategy, int node) {
        GatewayAnswers.Pending p = new GatewayAnswers.Pending(strategy);
        pending.put(id, p);
        new GatewayAnswers(strategy, pending).routed(new BalancerMessage.Arrival(id, 1.0, 0.0, BalancerMessage.Arrival.NO_KEY, 0),
                0.0, 0.010, node, Double.NaN, BalancerLogic.MODE_PREFIX + "weighted", new int[0], 0, new int[8], null);
        return p;
    }

    @Test
    void aRemovedNodesRequestsOfThisStrategyAreAnswered503AtOnceTheOthersStillWait() {
        GatewayAnswers.Pending lost1 = routed(1, "p2c", 3);
        GatewayAnswers.Pending lost2 = routed(2, "p2c", 3);
        GatewayAnswers.Pending elsewhere = routed(3, "p2c", 4);
        GatewayAnswers.Pending otherStrategy = routed(4, "lin_ts", 3);
        GatewayAnswers.Pending undecided = new GatewayAnswers.Pending("p2c");
        pending.put(5L, undecided);

        p2c.nodeRemoved(3, 0.510);

        for (GatewayAnswers.Pending lost : new GatewayAnswers.Pending[] {lost1, lost2}) {
            AutonomousStack.Outcome o = lost.future.getNow(null);
            assertEquals(503, o.status());
            assertEquals(ResponseStatus.RESET.name(), o.coreStatus());
            assertEquals(3, o.node());
            assertEquals(500.0, o.backendMs(), 1e-9, "from its decision to the removal, ms");
        }
        assertFalse(elsewhere.future.isDone(), "routed to another node");
        assertFalse(otherStrategy.future.isDone(), "another balancer's request: that balancer reports its own");
        assertFalse(undecided.future.isDone(), "not routed yet");
        assertEquals(java.util.Set.of(3L, 4L, 5L), pending.keySet(), "answered requests leave the map");
    }

    @Test
    void aFinishedRequestIsAnsweredWithTheCoresCodeAndAFailedFailoverWith503() {
        GatewayAnswers.Pending served = routed(1, "p2c", 2);
        GatewayAnswers.Pending timedOut = routed(2, "p2c", 2);
        p2c.retried(2, 5, 0.2);
        p2c.finished(1, ResponseStatus.OK, 0.050);
        p2c.finished(2, ResponseStatus.TIMEOUT, 1.010);
        assertEquals(200, served.future.getNow(null).status());
        AutonomousStack.Outcome failover = timedOut.future.getNow(null);
        assertEquals(503, failover.status());
        assertTrue(failover.mode().endsWith("_failover"), failover.mode());
        assertEquals(5, failover.node());
        assertTrue(pending.isEmpty());
    }

    @Test
    void aShedRequestIsAnswered429WithItsReason() {
        GatewayAnswers.Pending bounded = new GatewayAnswers.Pending("p2c");
        GatewayAnswers.Pending qos = new GatewayAnswers.Pending("p2c");
        pending.put(1L, bounded);
        pending.put(2L, qos);
        p2c.shed(new BalancerMessage.Arrival(1, 1.0, 0.0, BalancerMessage.Arrival.NO_KEY, 0), BalancerLogic.ADMISSION_SHED, 0.1);
        p2c.shed(new BalancerMessage.Arrival(2, 1.0, 0.0, BalancerMessage.Arrival.NO_KEY, 0), BalancerLogic.SHED, 0.1);
        assertEquals(429, bounded.future.getNow(null).status());
        assertEquals("admission_shed", bounded.future.getNow(null).mode(), "the bound on decisions in flight");
        assertEquals("qos_shed", qos.future.getNow(null).mode(), "the seed's name for QoS shedding");
        assertTrue(pending.isEmpty());
    }

    @Test
    void aRequestTheCoresRequestTimeoutEndedIsAnswered504AsEnvoyDoes() {
        GatewayAnswers.Pending late = routed(1, "p2c", 2);
        p2c.finished(1, ResponseStatus.REQUEST_TIMEOUT, 2.010);
        AutonomousStack.Outcome o = late.future.getNow(null);
        assertEquals(504, o.status(), "balancers.request-timeout: Envoy's upstream request timeout");
        assertEquals(ResponseStatus.REQUEST_TIMEOUT.name(), o.coreStatus());
        assertEquals(2, o.node());
        assertTrue(pending.isEmpty());
    }
}

package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.retry.RetrySettings;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * The request timeout in the balancer core ({@code balancers.request-timeout}, Envoy's route
 * timeout): a dispatched request without an answer for that long is ended once, its in-flight
 * count released; its late answer is ignored and makes it rejected; a node removed with the
 * copy makes it lost; an answer in time cancels the timer; a request waiting for a retry ends
 * at once; the decision log hears {@link ResponseStatus#REQUEST_TIMEOUT}.
 */
class RequestTimeoutTest {
    private static final int N = 2;
    private static final double TIMEOUT = 5.0;

    private static BalancerLogic balancer(double timeout) {
        return balancer(timeout, RetrySettings.OFF);
    }

    private static BalancerLogic balancer(double timeout, RetrySettings retry) {
        return new BalancerLogic(BalancerLogicProbeTest.SELF, BalancerLogicProbeTest.iota(N), N,
                PolicyCatalog.instantiate("least-connections", PolicyParameters.DEFAULTS, new double[N]), new ProbeModel(0.05),
                BalancerSettings.DEFAULT.withRetry(retry)).requestTimeout(timeout);
    }

    /** The one request the balancer sent since the last call, and (through {@code to}) its node. */
    private static NodeMessage.Request onlyRequest(Bench bench, int[] to) {
        List<NodeMessage.Request> out = new ArrayList<>();
        for (Bench.Sent s : bench.drainSent()) {
            if (s.message() instanceof NodeMessage.Request r) {
                out.add(r);
                to[0] = ((NodeId) s.to()).index();
            }
        }
        assertEquals(1, out.size(), "one request sent: " + out);
        return out.get(0);
    }

    /** Records how requests ended, as the decision-log file and the gateway hear it. */
    private static final class Ends implements DecisionLog {
        final List<Object[]> ended = new ArrayList<>();

        @Override
        public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                           String mode, int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads) {
        }

        @Override
        public void finished(long requestId, ResponseStatus status, double now) {
            ended.add(new Object[] {requestId, status, now});
        }
    }

    @Test
    void aRequestWithoutAnswerEndsAtItsTimeoutAndItsLateAnswerIsIgnored() {
        BalancerLogic b = balancer(TIMEOUT);
        Ends log = new Ends();
        b.decisionLog(log);
        Bench bench = new Bench(b, 7);
        bench.on(new BalancerMessage.Arrival(0, 1.0, 0));
        int[] node = new int[1];
        NodeMessage.Request r = onlyRequest(bench, node);
        assertEquals(1, b.inFlight(node[0]));

        bench.runUntil(TIMEOUT - 0.01);
        assertEquals(0, bench.metrics().counter(BalancerLogic.TIMED_OUT), "not yet");
        assertEquals(1, b.inFlight(node[0]));
        bench.runUntil(TIMEOUT + 0.01);
        Bench.Metrics m = bench.metrics();
        assertEquals(1, m.counter(BalancerLogic.TIMED_OUT));
        assertEquals(0, b.inFlight(node[0]), "its in-flight count is released at the timeout");
        assertEquals(1, log.ended.size(), "the decision log hears the end once");
        assertEquals(ResponseStatus.REQUEST_TIMEOUT, log.ended.get(0)[1]);
        assertEquals(TIMEOUT, (double) log.ended.get(0)[2], 1e-9, "ended when the timeout fired");
        assertEquals(504, ResponseStatus.REQUEST_TIMEOUT.code(), "a gateway answers Envoy's 504");
        assertEquals(0, m.rejected().size() + m.completed().size() + m.totalLost(),
                "its copy is still at the node: unresolved until its fate is known");
        assertEquals(1, b.held().inFlight(), "held as in flight, so a shell's books still find it");

        bench.runUntil(TIMEOUT + 1);
        bench.on(BalancerMessage.Response.to(r, node[0], ResponseStatus.OK));
        m = bench.metrics();
        assertEquals(0, m.completed().size(), "a late answer is not a completion");
        assertEquals(1, m.rejected().size(), "the client had its 504: the request counts as rejected, once");
        assertEquals(1, m.counter(BalancerLogic.LATE_RESPONSES));
        assertEquals(0, b.inFlight(node[0]), "released once, not twice");
        assertEquals(0, b.held().inFlight());
        assertEquals(1, log.ended.size(), "no second row for the late answer");
    }

    @Test
    void anAnswerInTimeCancelsTheTimeoutAndAFreedNodeIsChosenAgain() {
        BalancerLogic b = balancer(TIMEOUT);
        Bench bench = new Bench(b, 7);
        bench.on(new BalancerMessage.Arrival(0, 1.0, 0));
        int[] node = new int[1];
        NodeMessage.Request r = onlyRequest(bench, node);
        bench.runUntil(1);
        bench.on(BalancerMessage.Response.to(r, node[0], ResponseStatus.OK));
        assertEquals(List.of(), bench.timersOf(BalancerMessage.RequestTimeout.class), "the timer is cancelled");
        bench.runUntil(3 * TIMEOUT);
        assertEquals(0, bench.metrics().counter(BalancerLogic.TIMED_OUT));
        assertEquals(1, bench.metrics().completed().size());
    }

    @Test
    void aNodeThatNeverAnswersIsUsedAgainAfterTheTimeout() {
        // Node 0 swallows requests (a node failed silently); least-connections avoids it while
        // they count in flight, and sends to it again once the timeout released them.
        BalancerLogic b = balancer(TIMEOUT);
        Bench bench = new Bench(b, 7, java.util.Map.of(1, (m, env) -> {
            if (m instanceof NodeMessage.Request q) {
                env.send(q.replyTo(), BalancerMessage.Response.to(q, 1, ResponseStatus.OK));
            }
        }));
        long id = 0;
        while (b.routed(0) == 0 && id < 50) {
            bench.on(new BalancerMessage.Arrival(id++, 1.0, 0)); // ties between idle nodes are broken at random
        }
        assertEquals(1, b.routed(0), "node 0 took a request while both were idle");
        assertEquals(1, b.inFlight(0));
        for (int i = 0; i < 20; i++) {
            bench.on(new BalancerMessage.Arrival(id++, 1.0, bench.now()));
        }
        assertEquals(1, b.routed(0), "node 0 holds a request in flight: least-connections sends it nothing");
        bench.runUntil(TIMEOUT + 0.5);
        assertEquals(0, b.inFlight(0), "released by the timeout");
        for (int i = 0; i < 20; i++) {
            bench.on(new BalancerMessage.Arrival(id++, 1.0, bench.now()));
        }
        assertTrue(b.routed(0) > 1, "node 0 is chosen again: " + b.routed(0));
    }

    @Test
    void aNodeRemovedWithATimedOutCopyLosesTheRequestOnce() {
        BalancerLogic b = balancer(TIMEOUT);
        Bench bench = new Bench(b, 7);
        bench.on(new BalancerMessage.Arrival(0, 1.0, 0));
        int[] node = new int[1];
        onlyRequest(bench, node);
        bench.runUntil(TIMEOUT + 1);
        assertEquals(1, bench.metrics().counter(BalancerLogic.TIMED_OUT));
        bench.on(new BalancerMessage.NodeRemoved(node[0]));
        Bench.Metrics m = bench.metrics();
        assertEquals(1, m.totalLost(), "the copy will never answer: lost");
        assertEquals(0, m.rejected().size());
        assertEquals(0, b.held().inFlight());
    }

    @Test
    void aRequestWaitingForItsRetryEndsAtOnceAndIsNotRetried() {
        // One retry on errors after a backoff of up to 100 s: the request is in backoff when its timeout fires.
        RetrySettings retry = new RetrySettings(1, EnumSet.of(ResponseStatus.ERROR), 0, 100, 100, false, 20, 3,
                RetrySettings.SAME_POLICY);
        BalancerLogic b = balancer(TIMEOUT, retry);
        Ends log = new Ends();
        b.decisionLog(log);
        Bench bench = new Bench(b, 7);
        bench.on(new BalancerMessage.Arrival(0, 1.0, 0));
        int[] node = new int[1];
        NodeMessage.Request r = onlyRequest(bench, node);
        bench.runUntil(1);
        bench.on(BalancerMessage.Response.to(r, node[0], ResponseStatus.ERROR));
        assertEquals(1, bench.metrics().counter(BalancerLogic.RETRIES));
        assertEquals(1, b.activeRetries());
        bench.runUntil(TIMEOUT + 0.01);
        Bench.Metrics m = bench.metrics();
        assertEquals(1, m.counter(BalancerLogic.TIMED_OUT));
        assertEquals(1, m.rejected().size(), "no copy at a node: rejected at once");
        assertEquals(0, b.activeRetries());
        assertEquals(0, b.activeRequests());
        assertEquals(ResponseStatus.REQUEST_TIMEOUT, log.ended.get(0)[1]);
        bench.runUntil(300);
        assertEquals(List.of(), bench.sentOfType(NodeMessage.Request.class), "the retry never goes out");
        assertEquals(1, bench.metrics().rejected().size());
    }

    @Test
    void aNegativeOrNonFiniteTimeoutIsRefusedNamingTheKey() {
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> balancer(bad));
            assertTrue(e.getMessage().contains("balancers.request-timeout") && e.getMessage().contains(">= 0"),
                    e.getMessage());
        }
        assertEquals(0, balancer(0).requestTimeout());
    }
}

package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.retry.RetrySettings;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/** Retries (issue 14): another node, the budget counting retries in backoff, per-try timeouts, resets. */
class RetryTest {
    private static final BalancerId SELF = new BalancerId(0);
    private static final EnumSet<ResponseStatus> ON = EnumSet.of(ResponseStatus.ERROR, ResponseStatus.TIMEOUT,
            ResponseStatus.RESET);

    private static BalancerLogic balancer(String policy, int n, RetrySettings r) {
        return new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.instantiate(policy, PolicyParameters.DEFAULTS, new double[n]), new ProbeModel(0.05),
                BalancerSettings.DEFAULT.withRetry(r));
    }

    private static List<NodeMessage.Request> requests(Bench bench, List<Integer> to) {
        List<NodeMessage.Request> out = new ArrayList<>();
        for (Bench.Sent s : bench.drainSent()) {
            if (s.message() instanceof NodeMessage.Request r) {
                out.add(r);
                to.add(((NodeId) s.to()).index());
            }
        }
        return out;
    }

    @Test
    void aRetryGoesToANodeTheRequestHasNotTried() {
        int n = 4;
        BalancerLogic b = balancer("random", n, new RetrySettings(2, ON, 0, 0, 0, false, 20, 3, "same"));
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        List<long[]> log = new ArrayList<>(); // (request id, node) of every attempt
        for (int j = 0; j < n; j++) {
            int node = j;
            scripts.put(j, (m, env) -> {
                if (m instanceof NodeMessage.Request r) {
                    log.add(new long[] {r.id(), node});
                    env.send(r.replyTo(), BalancerMessage.Response.to(r, node, node == 0 ? ResponseStatus.ERROR : ResponseStatus.OK));
                }
            });
        }
        Bench bench = new Bench(b, 31, scripts);
        for (int i = 0; i < 400; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        long toZero = log.stream().filter(a -> a[1] == 0).count();
        assertTrue(toZero > 50);
        assertEquals(400, bench.metrics().completed().size(), "every request is served by a retry elsewhere");
        assertEquals(toZero, bench.metrics().counter(BalancerLogic.RETRIES));
        assertEquals(toZero, bench.metrics().counter(BalancerLogic.RETRY_SUCCESS));
        Map<Long, Integer> zeroTries = new HashMap<>();
        for (long[] a : log) {
            if (a[1] == 0) {
                assertEquals(null, zeroTries.put(a[0], 1), "request " + a[0] + " went to node 0 twice");
            }
        }
        assertEquals(400, bench.metrics().counter(BalancerLogic.RESPONSES_ERROR) + 400 - toZero);
    }

    @Test
    void theBudgetCountsRetriesWaitingInBackoff() {
        int n = 10;
        // Long backoff: granted retries sit in backoff while the other failures are decided.
        BalancerLogic b = balancer("round-robin", n, new RetrySettings(3, ON, 0, 10, 10, true, 20, 3, "same"));
        Bench bench = new Bench(b, 32);
        for (int i = 0; i < 20; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        List<Integer> to = new ArrayList<>();
        List<NodeMessage.Request> sent = requests(bench, to);
        assertEquals(20, sent.size());
        assertEquals(20, b.activeRequests());
        for (int i = 0; i < 20; i++) {
            bench.on(BalancerMessage.Response.to(sent.get(i), to.get(i), ResponseStatus.ERROR));
        }
        // 20 active requests: max(3, 20 % of 20) = 4 retries; the ones in backoff count, so the 5th is refused.
        assertEquals(4, bench.metrics().counter(BalancerLogic.RETRIES));
        assertEquals(4, b.activeRetries(), "all four wait in backoff");
        assertEquals(16, bench.metrics().counter(BalancerLogic.RETRY_OVERFLOW));
        assertEquals(16, bench.metrics().counter(BalancerLogic.FAILED_PREFIX + 500), "refused retries fail fast, counted");
        assertEquals(16, bench.metrics().rejected().size());
        assertEquals(0, requests(bench, new ArrayList<>()).size(), "nothing is resent during the backoff");
        bench.at(10.01);
        List<Integer> retriedTo = new ArrayList<>();
        List<NodeMessage.Request> retried = requests(bench, retriedTo);
        assertEquals(4, retried.size(), "the four retries go out after their backoff");
        for (int i = 0; i < retried.size(); i++) {
            long id = retried.get(i).id();
            int first = -1;
            for (int k = 0; k < sent.size(); k++) {
                if (sent.get(k).id() == id) {
                    first = to.get(k);
                }
            }
            assertNotEquals(first, (int) retriedTo.get(i), "request " + id + " is retried on another node");
        }
    }

    @Test
    void aTimedOutAttemptIsRetriedAndItsLateAnswerIgnored() {
        int n = 2;
        BalancerLogic b = balancer("round-robin", n, new RetrySettings(1, ON, 1.0, 0, 0, false, 20, 3, "same"));
        Map<Integer, SimHarness.Script> scripts = new HashMap<>();
        scripts.put(1, (m, env) -> {
            if (m instanceof NodeMessage.Request r) {
                env.send(r.replyTo(), BalancerMessage.Response.to(r, 1, ResponseStatus.OK));
            }
        });
        Bench bench = new Bench(b, 33, scripts);
        List<NodeMessage.Request> toZero = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        List<Integer> to = new ArrayList<>();
        List<NodeMessage.Request> sent = requests(bench, to);
        for (int i = 0; i < sent.size(); i++) {
            if (to.get(i) == 0) {
                toZero.add(sent.get(i));
            }
        }
        assertEquals(5, toZero.size(), "round robin: half to the silent node 0");
        assertEquals(5, bench.metrics().completed().size());
        bench.at(1.01);
        assertEquals(5, bench.metrics().counter(BalancerLogic.PER_TRY_TIMEOUTS));
        assertEquals(10, bench.metrics().completed().size(), "retried on node 1 and served");
        assertEquals(5, b.orphans(0), "their copies are still at node 0");
        assertEquals(5, b.inFlight(0));
        for (NodeMessage.Request r : toZero) {
            bench.on(BalancerMessage.Response.to(r, 0, ResponseStatus.OK)); // node 0 answers, too late
        }
        assertEquals(10, bench.metrics().completed().size(), "a late answer is not a second completion");
        assertEquals(0, b.orphans(0));
        assertEquals(0, b.inFlight(0));
        assertEquals(0, b.activeRequests());
    }

    @Test
    void requestsInFlightAtARemovedNodeAreRetriedInsteadOfLost() {
        int n = 3;
        BalancerLogic b = balancer("round-robin", n, new RetrySettings(1, ON, 0, 0, 0, false, 20, 3, "same"));
        Bench bench = new Bench(b, 34);
        for (int i = 0; i < 9; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        requests(bench, new ArrayList<>());
        assertEquals(3, b.inFlight(2));
        bench.on(new BalancerMessage.NodeRemoved(2));
        assertEquals(0, bench.metrics().totalLost(), "retried, not lost");
        assertEquals(3, bench.metrics().counter(BalancerLogic.RETRIES));
        List<Integer> to = new ArrayList<>();
        requests(bench, to);
        assertEquals(3, to.size());
        assertTrue(to.stream().allMatch(j -> j != 2), "to the nodes left");

        BalancerLogic noRetryOnReset = balancer("round-robin", n, new RetrySettings(1, EnumSet.of(ResponseStatus.ERROR), 0, 0,
                0, false, 20, 3, "same"));
        Bench other = new Bench(noRetryOnReset, 34);
        for (int i = 0; i < 9; i++) {
            other.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        Map<Long, ResponseStatus> ended = new HashMap<>();
        noRetryOnReset.decisionLog(new DecisionLog() {
            @Override
            public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                               String mode, int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads) {
            }

            @Override
            public void finished(long requestId, ResponseStatus status, double now) {
                ended.put(requestId, status);
            }
        });
        other.on(new BalancerMessage.NodeRemoved(2));
        assertEquals(3, other.metrics().totalLost(), "without reset in retry-on: lost, as without retries");
        // The decision log (the autonomous gateway answers its clients from it) hears of each lost request.
        assertEquals(3, ended.size(), ended.toString());
        assertTrue(ended.values().stream().allMatch(s -> s == ResponseStatus.RESET), ended.toString());
    }

    @Test
    void aSeparateRetryPolicyChoosesTheRetriesNode() {
        int n = 3;
        // seed 003's failover: retry on the node with the fewest requests in flight (least-connections here).
        BalancerLogic b = balancer("round-robin", n, new RetrySettings(1, ON, 0, 0, 0, false, 20, 3, "least-connections"))
                .retryPolicy(PolicyCatalog.instantiate("least-connections", PolicyParameters.DEFAULTS, new double[n]));
        Bench bench = new Bench(b, 35);
        for (int i = 0; i < 6; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        List<Integer> to = new ArrayList<>();
        List<NodeMessage.Request> sent = requests(bench, to);
        // answer node 1's two requests OK and one of node 0's with an error: its retry goes to node 1 (0 in flight)
        for (int i = 0; i < sent.size(); i++) {
            if (to.get(i) == 1) {
                bench.on(BalancerMessage.Response.to(sent.get(i), 1, ResponseStatus.OK));
            }
        }
        int firstAtZero = to.indexOf(0);
        bench.on(BalancerMessage.Response.to(sent.get(firstAtZero), 0, ResponseStatus.ERROR));
        List<Integer> retriedTo = new ArrayList<>();
        requests(bench, retriedTo);
        assertEquals(List.of(1), retriedTo);
    }
}

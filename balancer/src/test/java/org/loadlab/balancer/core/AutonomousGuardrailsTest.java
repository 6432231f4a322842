package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.guardrail.FailOpen;
import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.balancer.guardrail.OutlierDetection;
import org.loadlab.balancer.guardrail.SlowStart;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.policy.LinTsPolicy;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.retry.RetrySettings;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.Endpoints;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * Seed 003's guardrails in the balancer core, for every policy: the staleness circuit breaker
 * of published weights, the CPU mask with fail-open to least connections, QoS shedding and the
 * failover retry (SPEC.md §6), each with the routing mode it records.
 */
class AutonomousGuardrailsTest {
    private static final BalancerId SELF = new BalancerId(0);
    /** The seed's guardrails: CPU > 85 % masks, any share may be masked, fail open only when none is left. */
    private static final Guardrails SEED = new Guardrails(true, 0.85, 0, 2.0, 0, 0.0, 1.0, 3);

    private static BalancerLogic balancer(int n, RoutingPolicy policy, Guardrails g, RetrySettings retry) {
        BalancerSettings s = new BalancerSettings(RejectionSettings.REJECT, g, SlowStart.OFF, OutlierDetection.OFF, retry);
        return new BalancerLogic(SELF, iota(n), n, policy, new CachedModel(n), s).failOpen(FailOpen.LEAST_CONNECTIONS);
    }

    static int[] iota(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static LoadSnapshot load(int node, int queue, double cpu, double at) {
        return new LoadSnapshot(node, queue, queue, 100, cpu, 0, 0, 0, 1, at, true);
    }

    private static List<Integer> routed(Bench bench) {
        return bench.drainSent().stream().filter(s -> s.message() instanceof NodeMessage.Request)
                .map(s -> ((NodeId) s.to()).index()).toList();
    }

    private static long mode(Bench bench, String mode) {
        return bench.metrics().counter(BalancerLogic.MODE_PREFIX + mode);
    }

    @Test
    void linTsRoutesByPublishedWeightsAndFallsBackToLeastConnectionsWhenTheyAreStale() {
        BalancerLogic b = balancer(3, new LinTsPolicy(1.0), Guardrails.OFF, RetrySettings.OFF);
        Bench bench = new Bench(b, 1);
        // No weights yet: the breaker is open; least connections spreads 3 requests over 3 idle nodes.
        for (int i = 0; i < 3; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1, bench.now()));
        }
        assertEquals(List.of(0, 1, 2), routed(bench).stream().sorted().toList(), "fewest in flight first");
        assertEquals(3, mode(bench, LinTsPolicy.BREAKER));
        // Weights put everything on node 2: it takes every request, in mode lin_ts.
        bench.on(new BalancerMessage.Weights(1, bench.now(), new double[] {0, 0, 1}));
        for (int i = 3; i < 13; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1, bench.now()));
        }
        assertEquals(List.of(2, 2, 2, 2, 2, 2, 2, 2, 2, 2), routed(bench));
        assertEquals(10, mode(bench, LinTsPolicy.MODE));
        // 1.2 s later nothing new was published: weights older than 1 s trip the breaker again.
        bench.at(1.2);
        bench.on(new BalancerMessage.Arrival(13, 1, bench.now()));
        List<Integer> r = routed(bench);
        assertTrue(r.get(0) == 0 || r.get(0) == 1, "least connections avoids node 2 with 11 in flight: " + r);
        assertEquals(4, mode(bench, LinTsPolicy.BREAKER));
        // An older publication arriving late is ignored.
        bench.on(new BalancerMessage.Weights(0, bench.now(), new double[] {1, 0, 0}));
        assertEquals(0.0, ((LinTsPolicy) b.routingPolicy()).publishedAt(), 0, "version 1 (published at 0) is kept");
        assertEquals(1.0, ((LinTsPolicy) b.routingPolicy()).weight(2), 0);
    }

    @Test
    void maskedNodesLeaveThePoolAndWhenAllAreMaskedLeastConnectionsDecides() {
        BalancerLogic b = balancer(3, PolicyCatalog.create("round-robin", PolicyParameters.DEFAULTS, new double[3]), SEED,
                RetrySettings.OFF);
        Bench bench = new Bench(b, 2);
        bench.on(new BalancerMessage.LoadReport(load(0, 0, 0.90, 0)));
        bench.on(new BalancerMessage.LoadReport(load(1, 0, 0.20, 0)));
        bench.on(new BalancerMessage.LoadReport(load(2, 0, 0.95, 0)));
        for (int i = 0; i < 4; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1, bench.now()));
        }
        assertEquals(List.of(1, 1, 1, 1), routed(bench), "CPU > 85 % masks nodes 0 and 2 for round robin too");
        assertEquals(4, mode(bench, "round_robin"));
        bench.on(new BalancerMessage.LoadReport(load(1, 0, 0.97, 0.1)));
        assertEquals(0, b.poolSize(), "every node is masked");
        for (int i = 4; i < 6; i++) {
            bench.on(new BalancerMessage.Arrival(i, 1, bench.now()));
        }
        List<Integer> r = routed(bench);
        assertEquals(2, r.size(), "fail open: nothing is refused");
        assertTrue(!r.contains(1), "least connections avoids node 1 with 4 in flight: " + r);
        assertEquals(2, mode(bench, BalancerLogic.MODE_ALL_MASKED));
        assertEquals(0, bench.metrics().rejected().size());
    }

    @Test
    void lowPriorityRequestsAreShedWhileTheMeanCpuIsAboveEightyPercent() {
        BalancerLogic b = balancer(2, PolicyCatalog.create("least-connections", PolicyParameters.DEFAULTS, new double[2]),
                Guardrails.OFF, RetrySettings.OFF).shedding(new QosShedding(true, 0.80, Endpoints.LOW));
        Bench bench = new Bench(b, 3);
        bench.on(new BalancerMessage.LoadReport(load(0, 3, 0.90, 0)));
        bench.on(new BalancerMessage.LoadReport(load(1, 3, 0.75, 0)));
        int analytics = Endpoints.indexOf("analytics");
        int video = Endpoints.indexOf("play-video");
        int auth = Endpoints.indexOf("auth");
        bench.on(new BalancerMessage.Arrival(0, 1, 0, -1, analytics));
        bench.on(new BalancerMessage.Arrival(1, 1, 0, -1, video));
        bench.on(new BalancerMessage.Arrival(2, 1, 0, -1, auth));
        bench.on(new BalancerMessage.Arrival(3, 1, 0, -1, BalancerMessage.Arrival.NO_ENDPOINT));
        assertEquals(3, routed(bench).size(), "mean CPU 0.825 > 0.80: only the low-priority request is shed");
        assertEquals(1, bench.metrics().counter(BalancerLogic.SHED));
        assertEquals(1, bench.metrics().rejected().size(), "a shed request is refused (HTTP 429)");
        bench.on(new BalancerMessage.LoadReport(load(0, 3, 0.84, 0.1)));
        bench.on(new BalancerMessage.Arrival(4, 1, 0.1, -1, analytics));
        assertEquals(1, routed(bench).size(), "mean CPU 0.795: nothing is shed");
    }

    @Test
    void aTimedOutForwardIsRetriedOnceOnTheUnmaskedNodeWithTheSmallestQueueThenFails() {
        RetrySettings failover = new RetrySettings(1, EnumSet.of(ResponseStatus.TIMEOUT, ResponseStatus.RESET), 4.0, 0, 0,
                false, 20, 3, "least-queue");
        BalancerLogic b = balancer(4, PolicyCatalog.create("round-robin", PolicyParameters.DEFAULTS, new double[4]), SEED,
                failover);
        b.retryPolicy(PolicyCatalog.instantiate("least-queue", PolicyParameters.DEFAULTS, new double[4]));
        Bench bench = new Bench(b, 4);
        bench.on(new BalancerMessage.LoadReport(load(0, 5, 0.30, 0)));
        bench.on(new BalancerMessage.LoadReport(load(1, 4, 0.30, 0)));
        bench.on(new BalancerMessage.LoadReport(load(2, 1, 0.99, 0)));
        bench.on(new BalancerMessage.LoadReport(load(3, 2, 0.30, 0)));
        bench.on(new BalancerMessage.Arrival(0, 1, 0));
        int first = routed(bench).get(0);
        bench.at(4.01);
        List<Integer> retry = routed(bench);
        int expected = first == 3 ? 1 : 3; // node 2 (queue 1) is masked at CPU 0.99; node 3 has the next smallest queue
        assertEquals(List.of(expected), retry, "the failover goes to the unmasked node with the smallest queue, not " + first);
        assertEquals(1, mode(bench, BalancerLogic.MODE_FAILOVER));
        bench.at(8.02);
        assertEquals(List.of(), routed(bench), "only one retry");
        assertEquals(1, bench.metrics().rejected().size(), "then the request fails");
        assertEquals(1, bench.metrics().counter(BalancerLogic.RETRIES_EXHAUSTED));
    }
}

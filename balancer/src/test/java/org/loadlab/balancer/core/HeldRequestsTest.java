package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.retry.RetrySettings;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * The balancer's census ({@link BalancerLogic#held()}), which a cluster run's books rely on:
 * every request it holds counted once — deciding, in flight, in backoff — and copies of
 * timed-out attempts left at a node not counted at all.
 */
class HeldRequestsTest {
    private static final BalancerId SELF = new BalancerId(0);

    @Test
    void withoutRetriesDecidingAndInFlightAreCountedOnce() {
        BalancerLogic b = new BalancerLogic(SELF, BalancerLogicProbeTest.iota(4), 4, BalancerLogicProbeTest.policy("p2c", 4),
                new ProbeModel(0.05));
        Bench env = new Bench(b, 3);
        env.on(new BalancerMessage.Arrival(0, 1.0, 0));
        env.on(new BalancerMessage.Arrival(1, 1.0, 0));
        assertEquals(new BalancerLogic.HeldRequests(2, 0, 0, 0), b.held());
        for (Bench.Sent s : env.drainSent()) {
            NodeMessage.Probe p = (NodeMessage.Probe) s.message();
            if (p.probeId() == 0) {
                env.on(new BalancerMessage.ProbeReply(0, BalancerLogicProbeTest.load(((org.loadlab.kernel.NodeId) s.to()).index(), 0, 0)));
            }
        }
        assertEquals(new BalancerLogic.HeldRequests(1, 0, 0, 1), b.held(), "request 0 routed, request 1 still deciding");
    }

    @Test
    void withRetriesARetryInBackoffIsHeldAndCountedOnce() {
        int n = 4;
        BalancerLogic b = new BalancerLogic(SELF, BalancerLogicProbeTest.iota(n), n,
                PolicyCatalog.instantiate("round-robin", PolicyParameters.DEFAULTS, new double[n]), new ProbeModel(0.05),
                BalancerSettings.DEFAULT.withRetry(new RetrySettings(2, EnumSet.of(ResponseStatus.ERROR), 0, 10, 10, false, 20,
                        3, "same")));
        Bench env = new Bench(b, 4);
        for (int i = 0; i < 3; i++) {
            env.on(new BalancerMessage.Arrival(i, 1.0, 0));
        }
        assertEquals(new BalancerLogic.HeldRequests(0, 0, 0, 3), b.held(), "round robin reads nothing: three in flight");
        NodeMessage.Request first = env.sentOfType(NodeMessage.Request.class).get(0);
        int node = 0;
        for (Bench.Sent s : env.drainSent()) {
            if (s.message().equals(first)) {
                node = ((org.loadlab.kernel.NodeId) s.to()).index();
            }
        }
        env.on(BalancerMessage.Response.to(first, node, ResponseStatus.ERROR)); // retried after a 10 s backoff
        assertEquals(new BalancerLogic.HeldRequests(0, 0, 1, 2), b.held());
    }
}

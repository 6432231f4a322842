package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.information.OracleModel;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.balancer.policy.AsmfSettings;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** Delay mode: a refused request is held back and retried with backoff instead of rejected. */
class DelayModeTest {
    private static final BalancerId SELF = new BalancerId(0);

    /** Oracle view whose nodes all score 1/(1+q)/(1+L) with a mutable queue length. */
    private static final class Queues implements ClusterView {
        int q;

        @Override
        public int nodeCount() {
            return 4;
        }

        @Override
        public LoadSnapshot load(int index, double now) {
            return new LoadSnapshot(index, q, 0, 1.0, 0, 0, 0, 0, 1.0, 0, true);
        }
    }

    private static BalancerLogic asmf(RejectionSettings rejection, Queues view) {
        // tau 0.2 with mu 1 and L 0: a node is acceptable while 1/(1+q) >= 0.2, i.e. q <= 4.
        AsmfSettings a = new AsmfSettings(2, 0, 0, 0, 0, 0.2, false, true, false);
        return new BalancerLogic(SELF, new int[] {0, 1, 2, 3}, 4, PolicyCatalog.create("asmf", new PolicyParameters(2, a), new double[4]),
                new OracleModel(view), rejection);
    }

    @Test
    void retriesWithGrowingBackoffThenRoutesWhenTheClusterRecovers() {
        Queues view = new Queues();
        view.q = 9;
        BalancerLogic b = asmf(new RejectionSettings(true, 8, 0.1, 2.0, 4), view);
        Bench env = new Bench(b, 1);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0.0));
        assertEquals(0, env.metrics().rejected().size(), "held back, not rejected");
        SimHarness.Timer first = env.timersOf(BalancerMessage.RetryDue.class).get(0);
        assertEquals(0.1, first.delay(), 1e-12);
        env.fire(first.key());
        SimHarness.Timer second = env.timersOf(BalancerMessage.RetryDue.class).get(0);
        assertEquals(0.2, second.delay(), 1e-12, "backoff doubles");
        view.q = 1;
        env.fire(second.key());
        assertEquals(1, env.sentOfType(NodeMessage.Request.class).size(), "routed on the retry that found room");
        assertEquals(0, env.metrics().rejected().size());
        assertEquals(2, env.metrics().counter("delayed_retries"));
        assertEquals(1, env.metrics().arrived(), "a retry is not a new arrival");
    }

    @Test
    void rejectsWhenAttemptsAreUsedUpOrTheBufferIsFull() {
        Queues view = new Queues();
        view.q = 9;
        BalancerLogic b = asmf(new RejectionSettings(true, 2, 0.1, 1.0, 2), view);
        Bench env = new Bench(b, 2);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0.0));
        env.on(new BalancerMessage.Arrival(2, 1.0, 0.0));
        env.on(new BalancerMessage.Arrival(3, 1.0, 0.0));
        assertEquals(1, env.metrics().rejected().size(), "the third finds the buffer of 2 full");
        env.runUntil(10.0);
        assertEquals(3, env.metrics().rejected().size(), "after 2 attempts each, the held requests are rejected");
        assertEquals(3, env.metrics().counter("delay_rejections"));
        assertTrue(env.timersOf(BalancerMessage.RetryDue.class).isEmpty());
    }

    @Test
    void rejectModeRejectsAtOnce() {
        Queues view = new Queues();
        view.q = 9;
        BalancerLogic b = asmf(RejectionSettings.REJECT, view);
        Bench env = new Bench(b, 3);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0.0));
        assertEquals(1, env.metrics().rejected().size());
        assertTrue(env.timersOf(BalancerMessage.RetryDue.class).isEmpty());
    }
}

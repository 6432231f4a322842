package org.loadlab.balancer.policy;

import org.loadlab.balancer.pipeline.Picker;

import org.loadlab.balancer.pipeline.PipelinePolicy;

import org.loadlab.balancer.decision.Candidates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.loadlab.balancer.policy.Snapshots.down;
import static org.loadlab.balancer.policy.Snapshots.muQ;
import static org.loadlab.balancer.policy.Snapshots.q;
import static org.loadlab.balancer.policy.Snapshots.set;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.node.protocol.LoadSnapshot;

/** least-connections, least-queue, power-of-k / p2c and gmsr on hand-built loads. */
class LoadAwarePoliciesTest {
    private final SplittableRandom rng = new SplittableRandom(5);

    @Test
    void leastConnectionsPicksFewestInFlightFromTheLiveCounts() {
        int[] inFlight = {3, 1, 2, 5};
        Candidates cs = new Candidates(inFlight).reset(new int[] {0, 1, 2, 3}, null, null, 4);
        PipelinePolicy p = PolicyCatalog.create("least-connections", PolicyParameters.DEFAULTS, new double[64]);
        assertEquals(0, p.reads(4));
        for (int i = 0; i < 50; i++) {
            assertEquals(1, p.choose(cs, rng));
        }
        inFlight[1] = 7; // the array is shared and live
        assertEquals(2, p.choose(cs, rng));
        // Positions map to node indices.
        Candidates sub = new Candidates(inFlight).reset(new int[] {3, 0}, null, null, 2);
        assertEquals(1, p.choose(sub, rng));
    }

    @Test
    void leastQueuePicksMinQueueSkippingUnknownAndFailedNodes() {
        PipelinePolicy p = PolicyCatalog.create("least-queue", PolicyParameters.DEFAULTS, new double[64]);
        assertEquals("least-queue", p.name());
        assertEquals(7, p.reads(7));
        LoadSnapshot[] loads = {null, down(1, 0), q(2, 5), q(3, 3), q(4, 4)};
        for (int i = 0; i < 50; i++) {
            assertEquals(3, p.choose(set(loads), rng));
        }
        assertEquals(Picker.REJECT, p.choose(set(null, down(1, 0), null), rng));
        assertEquals(Picker.REJECT,
                p.choose(new Candidates(new int[3]).reset(new int[] {0, 1, 2}, null, null, 3), rng));
    }

    @Test
    void powerOfKSampleSizesAndChoice() {
        PipelinePolicy p2c = PolicyCatalog.create("p2c", PolicyParameters.DEFAULTS, new double[64]);
        assertEquals("p2c", p2c.name());
        assertEquals(2, p2c.reads(10));
        assertEquals(1, p2c.reads(1));
        PipelinePolicy p4 = PolicyCatalog.create("power-of-k", new PolicyParameters(4, AsmfSettings.DEFAULT), new double[64]);
        assertEquals(4, p4.reads(10));
        assertEquals(3, p4.reads(3));
        assertEquals(1, p2c.choose(set(q(7, 4), q(2, 1)), rng));
        assertEquals(0, p2c.choose(set(q(7, 4), down(2, 1)), rng));
        assertThrows(IllegalArgumentException.class,
                () -> PolicyCatalog.create("power-of-k", new PolicyParameters(0, AsmfSettings.DEFAULT), new double[64]));
    }

    @Test
    void gmsrPicksArgmaxMuOverOnePlusQ() {
        PipelinePolicy p = PolicyCatalog.create("gmsr", PolicyParameters.DEFAULTS, new double[64]);
        assertEquals("gmsr", p.name());
        assertEquals(6, p.reads(6));
        // μ=20,q=3 -> 5.0; μ=10,q=0 -> 10.0; μ=30,q=5 -> 5.0; a failed μ=100 node is skipped.
        LoadSnapshot[] loads = {muQ(0, 20, 3), muQ(1, 10, 0), muQ(2, 30, 5), down(3, 0)};
        for (int i = 0; i < 50; i++) {
            assertEquals(1, p.choose(set(loads), rng));
        }
        // μ=30,q=1 -> 15.0 beats μ=10,q=0 (10.0) although its queue is longer.
        assertEquals(2, p.choose(set(muQ(0, 20, 3), muQ(1, 10, 0), muQ(2, 30, 1)), rng));
        // Heterogeneous case where gmsr and JSQ disagree: μ=50,q=2 (16.7) vs μ=10,q=0 (10).
        assertEquals(0, p.choose(set(muQ(0, 50, 2), muQ(1, 10, 0)), rng));
        assertEquals(1, PolicyCatalog.create("least-queue", PolicyParameters.DEFAULTS, new double[64]).choose(set(muQ(0, 50, 2), muQ(1, 10, 0)), rng));
        assertEquals(Picker.REJECT, p.choose(set(null, down(1, 0)), rng));
    }
}

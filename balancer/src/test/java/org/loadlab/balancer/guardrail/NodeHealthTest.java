package org.loadlab.balancer.guardrail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.node.protocol.LoadSnapshot;

/** The guardrails' conditions and ejection ledger on hand-built states (seed 003, Envoy). */
class NodeHealthTest {
    private static final Guardrails ON = Guardrails.OFF.on();

    private static LoadSnapshot cpu(int node, double cpu, double at) {
        return new LoadSnapshot(node, 1, 1, 1.0, cpu, 0.3, 0.2, 0.1, 1.0, at, true);
    }

    @Test
    void ejectionCapUsesTheFloorOfTheShare() {
        assertEquals(1, ON.ejectionCap(3), "3 nodes and 50%: at most 1");
        assertEquals(0, ON.ejectionCap(1), "1 node: never excluded");
        assertEquals(10, ON.ejectionCap(20));
        assertEquals(0, new NodeHealth(Guardrails.OFF, 3, 3).cap(), "off: nothing is ever masked");
    }

    @Test
    void cpuAboveTheThresholdMasksUpToTheCapAndRestoresWhenItDrops() {
        NodeHealth h = new NodeHealth(ON, 3, 3);
        assertEquals(1, h.update(0, cpu(0, 0.90, 1), 1));
        assertTrue(h.ejected(0).startsWith("cpu 0.90 > 0.85"), h.ejected(0));
        assertEquals(0, h.update(1, cpu(1, 0.95, 1), 1), "the cap of 1 is used up: node 1 stays in");
        assertNull(h.ejected(1));
        assertEquals(-1, h.update(0, cpu(0, 0.50, 2), 2), "back below the threshold: restored");
        assertEquals(1, h.update(1, cpu(1, 0.95, 2), 2), "the freed place goes to the next hot node");
        assertEquals(1, h.ejectedCount());
    }

    @Test
    void aSingleNodeIsNeverMasked() {
        NodeHealth h = new NodeHealth(ON, 1, 1);
        assertEquals(0, h.update(0, cpu(0, 0.99, 1), 1));
        assertNull(h.ejected(0));
        assertNotNull(h.condition(0, cpu(0, 0.99, 1), 1), "the condition holds; the cap keeps it in");
    }

    @Test
    void missedProbesMakeANodeOfflineAndAReplyBringsItBack() {
        NodeHealth h = new NodeHealth(ON, 4, 4);
        h.missedProbe(2);
        assertNull(h.condition(2, null, 1));
        h.missedProbe(2);
        assertEquals("offline: 2 probes unanswered", h.condition(2, null, 1));
        assertEquals(1, h.update(2, null, 1));
        h.seen(cpu(2, 0.4, 1.5), 1.5);
        assertEquals(-1, h.update(2, null, 1.5));
    }

    @Test
    void silenceAndStaleReportsCountOnlyWhereNodesReport() {
        NodeHealth h = new NodeHealth(ON, 4, 4);
        h.seen(cpu(1, 0.4, 0.5), 0.5); // a probe reply: no promise of more
        assertNull(h.condition(1, null, 100), "in the probe model an idle node says nothing: not offline");
        NodeHealth reporting = new NodeHealth(ON, 4, 4);
        reporting.reported(cpu(1, 0.4, 0.5), 0.5);
        assertNull(reporting.condition(1, null, 2.0));
        assertTrue(reporting.condition(1, null, 2.6).startsWith("offline: silent for 2.10 s"));
        reporting.heard(1, 2.6);
        assertTrue(reporting.condition(1, null, 2.6).startsWith("stale: last report 2.10 s old"),
                "heard from (a heartbeat), but its load is old");
    }

    @Test
    void membershipOverridesAndFreesTheCap() {
        NodeHealth h = new NodeHealth(ON, 3, 3);
        assertEquals(1, h.update(0, cpu(0, 0.99, 1), 1));
        assertTrue(h.membership(0, NodeHealth.Membership.UNREACHABLE));
        assertTrue(h.gone(0));
        assertEquals(0, h.ejectedCount(), "a gone node does not use up the cap");
        assertEquals("unreachable", h.membershipReason(0));
        assertTrue(h.membership(0, NodeHealth.Membership.REMOVED));
        assertTrue(!h.membership(0, NodeHealth.Membership.UNREACHABLE), "removed stays removed");
        assertEquals("removed from the cluster", h.membershipReason(0));
        assertEquals(0, h.update(0, cpu(0, 0.99, 2), 2), "gone nodes are not masked, they are out");
    }

    @Test
    void settingsNameTheKeyTheValueAndWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Guardrails(true, 1.5, 2, 2, 2, 0.5, 0.5, 3));
        assertEquals("guardrails.cpu-mask-above = 1.5: allowed a CPU share in [0, 1]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Guardrails(true, 0.8, -1, 2, 2, 0.5, 0.5, 3));
        assertThrows(IllegalArgumentException.class, () -> new Guardrails(true, 0.8, 2, 2, 2, 1.5, 0.5, 3));
        assertThrows(IllegalArgumentException.class, () -> new Guardrails(true, 0.8, 2, 2, 2, 0.5, -0.1, 3));
    }

    /**
     * gone() and removed() skip the per-node read while every node is reachable (resp. none
     * is removed); over random membership changes they must agree with the state itself.
     */
    @Test
    void goneAndRemovedAgreeWithMembershipOverRandomChanges() {
        int n = 6;
        NodeHealth h = new NodeHealth(ON, n, n);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(5);
        NodeHealth.Membership[] states = NodeHealth.Membership.values();
        for (int step = 0; step < 5_000; step++) {
            h.membership(rng.nextInt(n), states[rng.nextInt(states.length)]);
            for (int node = 0; node < n; node++) {
                NodeHealth.Membership m = h.membership(node);
                assertEquals(m != NodeHealth.Membership.REACHABLE, h.gone(node), "gone, step " + step + ", node " + node);
                assertEquals(m == NodeHealth.Membership.REMOVED, h.removed(node), "removed, step " + step + ", node " + node);
            }
        }
    }
}

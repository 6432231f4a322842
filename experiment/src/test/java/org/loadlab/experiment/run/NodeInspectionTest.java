package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.experiment.scenario.Scenario;

/** nodes.csv's source: each node's correction C_j and ASMF score when the arrivals end. */
class NodeInspectionTest {

    @Test
    void asmfRunsExposeEachNodesCorrectionAndScore() {
        Scenario s = TestScenarios.load("quickstart", "arrivals.utilisation = 0.9", "duration = 200");
        SimulationRunner.Outcome o = SimulationRunner.runCounted(new RunSpec(s, "asmf", 101));
        assertEquals(20, o.nodes().size());
        Scenario.Asmf a = s.policy().asmf();
        boolean corrected = false;
        for (NodeInspection n : o.nodes()) {
            LoadSnapshot l = n.load();
            assertTrue(l.correction() >= a.cMin() && l.correction() <= a.cMax(), "C clipped to [Cmin, Cmax]: " + l.correction());
            corrected |= l.correction() != 1.0;
            double load = a.alpha() * l.cpu() + a.beta() * l.mem() + a.gamma() * l.io() + a.delta() * l.net();
            double expected = l.serviceRate() / ((1 + l.queueLength()) * (1 + load)) * l.correction();
            assertEquals(expected, n.score(), 1e-12, "S'_j = mu/((1+q)(1+L)) * C");
        }
        assertTrue(corrected, "the feedback moved some correction away from 1");
    }

    @Test
    void otherPoliciesHaveNoScore() {
        Scenario s = TestScenarios.load("quickstart", "duration = 100");
        SimulationRunner.Outcome o = SimulationRunner.runCounted(new RunSpec(s, "p2c", 101));
        assertEquals(20, o.nodes().size());
        assertTrue(o.nodes().stream().allMatch(n -> Double.isNaN(n.score()) && n.load().correction() == 1.0));
    }

    @Test
    void loadSharingRunsExposeEachPeersRateAndQueue() {
        // Peers have no balancer and no backend nodes, but each has its mu_j and q_j (nodes.csv's rows).
        Scenario s = TestScenarios.load("quickstart", "policies = [receiver]", "nodes.count = 8", "network.latency = 0",
                "arrivals.utilisation = 0.9", "duration = 300", "warmup = 0");
        SimulationRunner.Outcome o = SimulationRunner.runCounted(new RunSpec(s, "receiver", 101));
        assertEquals(8, o.nodes().size());
        for (int j = 0; j < 8; j++) {
            NodeInspection n = o.nodes().get(j);
            assertEquals(j, n.node());
            assertTrue(n.load().serviceRate() > 0, "mu_" + j);
            assertTrue(n.load().inService() <= n.load().queueLength(), "in service within q_" + j);
            assertTrue(Double.isNaN(n.load().cpu()) && Double.isNaN(n.load().correction()) && Double.isNaN(n.score()),
                    "a peer has no resources, correction or score");
        }
        assertTrue(o.nodes().stream().anyMatch(n -> n.load().queueLength() > 0), "some peer is loaded at rho 0.9");
    }
}

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
}

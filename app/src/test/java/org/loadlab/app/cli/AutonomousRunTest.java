package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.autoscale.Autoscaler;
import org.loadlab.balancer.lints.LinTsControlPlane;
import org.loadlab.balancer.policy.LinTsPolicy;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.shell.live.LiveRunner;

/**
 * Seed 003's autonomous balancer end to end, the same cores in the simulation and live as
 * Pekko actors: the control plane publishes, lin-ts routes by its weights, the chaos node is
 * avoided, the autoscaler adds nodes under load, and a simulated run is deterministic.
 */
class AutonomousRunTest {
    private static RunMetrics sim(String scenario, String policy, String... set) {
        Scenario s = TestScenarios.load(scenario, set);
        return SimulationRunner.run(new RunSpec(s, policy, 101)).metrics();
    }

    @Test
    void linTsRoutesByThePublishedWeightsAfterTheFirstControlStepAndIsDeterministic() throws Exception {
        String[] set = {"arrivals.rate = 100", "duration = 6", "warmup = 1"};
        RunMetrics a = sim("autonomous", "lin-ts", set);
        RunMetrics b = sim("autonomous", "lin-ts", set);
        ObjectMapper json = new ObjectMapper();
        assertEquals(json.writeValueAsString(a), json.writeValueAsString(b), "same seed, same bytes");
        long updates = a.counter(LinTsControlPlane.UPDATES);
        assertTrue(updates >= 38 && updates <= 41, "a control step every 0.15 s of the run: " + updates);
        long byWeights = a.routingMode(LinTsPolicy.MODE);
        long breaker = a.routingMode(LinTsPolicy.BREAKER);
        assertTrue(breaker > 0 && breaker <= 16, "the breaker is open only until the first weights (0.15 s at 100/s): " + breaker);
        assertTrue(byWeights > 0.95 * a.decisions(), "lin_ts decides the rest: " + a.routingModes());
        assertTrue(a.slaBreaches() < 0.01 * a.requestsCompleted(), "100 requests/s are easy for the five nodes: "
                + a.slaBreaches() + " breaches");
    }

    @Test
    void theCpuMaskKeepsEveryPolicyOffTheSpikedNodeAndLinTsLearnsToAvoidTheSlowOne() {
        RunMetrics lints = sim("autonomous-chaos", "lin-ts", "arrivals.rate = 100", "duration = 10");
        RunMetrics rr = sim("autonomous-chaos", "round-robin", "arrivals.rate = 100", "duration = 10");
        assertEquals(0.0, lints.nodeRequestShare().get(0), 0.005, "node 0 at CPU 95 % is masked for lin-ts");
        assertEquals(0.0, rr.nodeRequestShare().get(0), 0.005, "and for round robin: the guardrail is the policy's filter");
        assertTrue(lints.nodeRequestShare().get(4) < 0.5 * rr.nodeRequestShare().get(4),
                "lin-ts learns to send slow-legacy little: " + lints.nodeRequestShare() + " vs " + rr.nodeRequestShare());
        assertTrue(lints.responseP99() < rr.responseP99(), "p99 " + lints.responseP99() + " vs " + rr.responseP99());
    }

    @Test
    void theAutoscalerAddsNodesWhenTheClusterIsHot() {
        RunMetrics m = sim("autonomous", "least-connections", "arrivals.rate = 1000", "duration = 10");
        assertTrue(m.counter(Autoscaler.SCALE_UPS) >= 1, "scale-ups: " + m.counters());
        double added = 0;
        for (int j = 5; j < 10; j++) {
            added += m.nodeRequestShare().get(j);
        }
        assertTrue(added > 0, "the added nodes took requests");
    }

    @Test
    void theSameControlPlaneRunsLiveAsItsOwnActor() {
        Scenario s = TestScenarios.load("autonomous", "arrivals.rate = 100", "duration = 3", "warmup = 0.5",
                "autoscaler.enabled = false", "nodes.count = 5");
        SimulationRunner.Outcome live = LiveRunner.run(new RunSpec(s, "lin-ts", 101), 1.0);
        RunMetrics m = live.result().metrics();
        long updates = m.counter(LinTsControlPlane.UPDATES);
        assertTrue(updates >= 15, "the control plane actor published on its own timer: " + updates);
        assertTrue(m.routingMode(LinTsPolicy.MODE) > 0.8 * m.decisions(), "lin_ts decides live too: " + m.routingModes());
        assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsRejected(), "every request resolved");
    }
}

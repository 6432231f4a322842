package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.experiment.scenario.ScenarioException;

/**
 * The admission bound ({@code balancers.max-decisions-in-flight}) runs in the simulation as
 * on the cluster: the balancer core refuses, at once, an arrival that finds the bound of
 * decisions in flight reached; every refusal is a counted rejection.
 */
class AdmissionScenarioTest {
    private static RunMetrics run(String... overrides) {
        String[] base = {"nodes.count = 10", "duration = 60", "warmup = 0", "arrivals.utilisation = 0.8",
                "demand.mean = 0.1", "network.latency = 0.02"};
        String[] all = java.util.Arrays.copyOf(base, base.length + overrides.length);
        System.arraycopy(overrides, 0, all, base.length, overrides.length);
        return SimulationRunner.run(new RunSpec(TestScenarios.load("quickstart", all), "p2c", 3)).metrics();
    }

    @Test
    void aTightBoundShedsArrivalsAtOnceAndEveryOneIsCounted() {
        RunMetrics open = run();
        assertEquals(0, open.counters().getOrDefault(BalancerLogic.ADMISSION_SHED, 0L), "no bound, nothing shed");
        // λ = 0.8 · 10 / 0.1 = 80/s; a decision takes a 40 ms probe round trip, so ~3.2 are in flight on average.
        RunMetrics bounded = run("balancers.max-decisions-in-flight = 2");
        long shed = bounded.counters().getOrDefault(BalancerLogic.ADMISSION_SHED, 0L);
        assertTrue(shed > bounded.requestsArrived() / 10, "many arrivals find 2 decisions in flight: " + shed);
        assertEquals(shed, bounded.requestsRejected(), "a shed arrival is a rejection, and nothing else rejects here");
        assertEquals(bounded.requestsArrived(), bounded.requestsCompleted() + bounded.requestsRejected());
        assertEquals(bounded.requestsArrived() - shed, bounded.decisions(), "a shed arrival is not a decision");
        RunMetrics roomy = run("balancers.max-decisions-in-flight = 64");
        assertEquals(open, roomy, "a bound never reached changes nothing, bit for bit");
    }

    @Test
    void theBoundIsValidatedAndRefusedByTheReferenceModel() {
        ScenarioException neg = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("quickstart", "balancers.max-decisions-in-flight = -1"));
        assertTrue(String.join("\n", neg.problems()).contains("balancers.max-decisions-in-flight"), neg.problems().toString());
        ScenarioException ref = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart",
                "model = reference", "balancers.max-decisions-in-flight = 8"));
        assertTrue(String.join("\n", ref.problems()).contains("model = reference decides at once"), ref.problems().toString());
    }
}

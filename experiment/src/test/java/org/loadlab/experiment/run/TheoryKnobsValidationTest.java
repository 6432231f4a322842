package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;

/** Every new key of issue 12 is validated with its key, the value and what is allowed. */
class TheoryKnobsValidationTest {

    private static String problems(String scenario, String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load(scenario, overrides));
        return String.join("\n", e.problems());
    }

    /** Problems of quickstart with seed 001's diurnal arrivals over the request horizon, plus {@code extra}. */
    private static String diurnal(String... extra) {
        java.util.List<String> o = new java.util.ArrayList<>(java.util.List.of("arrivals.process = diurnal",
                "arrivals.diurnal.period = horizon", "requests = 3000"));
        o.addAll(java.util.List.of(extra));
        return problems("quickstart", o.toArray(String[]::new));
    }

    private static void has(String problems, String... parts) {
        for (String p : parts) {
            assertTrue(problems.contains(p), "'" + p + "' in: " + problems);
        }
    }

    @Test
    void defaultsKeepTodaysBehaviour() {
        Scenario s = TestScenarios.load("quickstart");
        assertEquals(0, s.warmupRequests());
        assertTrue(!s.nodes().speedsPerSeed() && !s.policy().kWithReplacement());
        assertEquals("T-q", s.policy().stickyLazy().credit());
        assertEquals("components", s.demand().mixtureScaling());
        assertTrue(s.arrivals().diurnal().burstStarts().isEmpty() && !s.arrivals().diurnal().periodIsHorizon());
        assertEquals("message", s.model());
    }

    @Test
    void samplingAndCredit() {
        has(problems("quickstart", "policy.k-sampling = iid"), "policy.k-sampling = 'iid'", "allowed: distinct, with-replacement");
        has(problems("quickstart", "policy.sticky-lazy.credit = T-1"), "policy.sticky-lazy.credit = 'T-1'", "allowed: T-q, T-q-1");
        assertTrue(TestScenarios.load("quickstart", "policy.k-sampling = with-replacement").policy().kWithReplacement());
        assertEquals("T-q-1", TestScenarios.load("quickstart", "policy.sticky-lazy.credit = T-q-1").policy().stickyLazy().credit());
    }

    @Test
    void warmupRequests() {
        has(problems("quickstart", "warmup-requests = -1"), "warmup-requests", "-1");
        has(problems("quickstart", "requests = 100", "warmup-requests = 100"), "warmup-requests = 100",
                "not below requests = 100");
    }

    @Test
    void speedsPerSeedAndMixtureScaling() {
        has(problems("quickstart", "nodes.speeds-per-seed = often"), "nodes.speeds-per-seed", "true or false");
        has(problems("quickstart", "demand.mixture-scaling = both"), "demand.mixture-scaling = 'both'",
                "allowed: components, mixture");
        has(problems("quickstart", "demand.distribution = mixture", "demand.mixture-scaling = mixture",
                "demand.components = [{ weight = 1, distribution = lognormal, mean = 2 }]"),
                "demand.components[0].mean", "mixture-scaling = mixture", "standard form");
    }

    @Test
    void diurnalPeriodAndBurstStarts() {
        has(diurnal("arrivals.diurnal.period = soon"), "arrivals.diurnal.period = 'soon'",
                "seconds (0 = the duration) or horizon");
        has(diurnal("requests = 0", "duration = 100"), "arrivals.diurnal.period = horizon",
                "requests = 0");
        has(diurnal("arrivals.diurnal.burst-starts = [0.1, 0.5]"), "arrivals.diurnal.burst-starts",
                "lists 2 window(s) but burst-windows = 3", "set burst-windows = 2");
        has(diurnal("arrivals.diurnal.burst-starts = [0.5, 0.1]", "arrivals.diurnal.burst-windows = 2"),
                "arrivals.diurnal.burst-starts[1] = 0.1", "increasing order");
        has(diurnal("arrivals.diurnal.burst-starts = [0.99]", "arrivals.diurnal.burst-windows = 1"),
                "arrivals.diurnal.burst-starts[0] = 0.99", "end within the period");
        has(diurnal("arrivals.diurnal.burst-starts = [1.2]", "arrivals.diurnal.burst-windows = 1"),
                "arrivals.diurnal.burst-starts[0] = 1.2", "[0, 1)");
        has(diurnal("arrivals.diurnal.burst-starts = [a]"), "arrivals.diurnal.burst-starts",
                "list of numbers");
    }

    @Test
    void ballsIntoBins() {
        has(problems("quickstart", "model = balls-into-bins"), "requests = 0", "model = balls-into-bins", "number of balls");
        has(problems("quickstart", "model = bins"), "model = 'bins'", "allowed: message, reference, balls-into-bins");
        has(problems("quickstart", "model = balls-into-bins", "requests = 100", "policies = [random, receiver]"), "policies[1]",
                "load-sharing protocol");
        // No service, so utilisation >= 1 is no instability there.
        Scenario s = TestScenarios.load("quickstart", "model = balls-into-bins", "requests = 100", "arrivals.utilisation = 2");
        assertTrue(s.isBallsIntoBins());
    }
}

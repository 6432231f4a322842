package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.experiment.scenario.BuiltIns;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;

/** Scenario validation names the key, the bad value and what is allowed, before anything runs. */
class ScenarioValidationTest {

    private static String problems(String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart", overrides));
        return String.join("\n", e.problems());
    }

    @Test
    void theSeriesIntervalIsCheckedOverARunThatLastsUntilItsRequestsEnd() {
        // duration = 0: the run lasts until its 10^7 requests end, 625,000 s at quickstart's 16 requests/s.
        String p = problems("duration = 0", "requests = 10000000", "series-interval = 0.001");
        assertEquals("series-interval = 0.001: gives more than 1.0E7 points over the run: duration = 0 runs until its requests"
                + " end, and requests = 10000000 at 16.00 requests/s take about 625000 s; use a longer interval (at least 0.0625 s)", p);
        String trace = problems("duration = 0", "arrivals.process = trace", "arrivals.trace.file = azure-llm-code",
                "series-interval = 0.0000001");
        assertTrue(trace.startsWith("series-interval = 1.0E-7: gives more than 1.0E7 points over the run: duration = 0 runs until"
                + " its requests end, and the trace's "), trace);
        // The interval that message asks for is accepted, and so is the default.
        assertEquals(0.0625, TestScenarios.load("quickstart", "duration = 0", "requests = 10000000", "series-interval = 0.0625")
                .seriesInterval());
        Scenario s = TestScenarios.load("quickstart", "duration = 0", "requests = 10000000");
        assertEquals(625000, RunEstimate.seriesPoints(s), 1e-6, "the run's length over the interval, not 0");
        assertTrue(RunEstimate.seriesDominates(s), "625,000 points (31 MB) outweigh 20 nodes (22 kB)");
        assertTrue(!RunEstimate.seriesDominates(TestScenarios.load("quickstart", "nodes.count = 100000")),
                "300 points (15 kB) do not outweigh 10^5 nodes (110 MB)");
    }

    @Test
    void aFailedNodeThatIsAlsoRemovedIsRefusedItsLossesWouldCountTwice() {
        // Without the check the run stopped at its end on "request conservation violated".
        String p = problems("events = [{ type = fail, at = 20, nodes = [3, 7] }, { type = crash, at = 30, nodes = [3] }]");
        assertTrue(p.startsWith("events: 'fail' at 20.0 s and 'crash' at 30.0 s hit the same node [3]: a failed node counts"
                + " the requests it loses"), p);
        String byFraction = problems("events = [{ type = chaos, at = 20, fault = crash, fraction = 1.0 },"
                + " { type = partition, at = 30, until = 45, nodes = [1] }]");
        assertTrue(byFraction.contains("'chaos crash' at 20.0 s and 'partition' at 30.0 s hit the same node [1]: a chaos crashed"
                + " node counts"), byFraction);
        // Different nodes: both kinds of failure in one run are fine.
        assertEquals(2, TestScenarios.load("quickstart", "events = [{ type = fail, at = 20, nodes = [3] },"
                + " { type = crash, at = 30, nodes = [4] }]").events().size());
    }

    @Test
    void negativeRate() {
        String p = problems("arrivals.rate = -3");
        assertTrue(p.contains("arrivals.rate = -3.0: must be >= 0 (requests/s)"), p);
    }

    @Test
    void kLargerThanTheAllowedSet() {
        String p = problems("policies = [power-of-k]", "policy.k = 30");
        assertTrue(p.contains("policy.k") && p.contains("30") && p.contains("allowed: 1..20"), p);
        String q = problems("policies = [power-of-k]", "policy.k = 5", "balancers.allowed = fraction",
                "balancers.allowed-fraction = 0.1", "balancers.allowed-min = 4");
        assertTrue(q.contains("policy.k = 5") || q.contains("policy.k") && q.contains("allowed: 1..4"), q);
    }

    @Test
    void unknownPolicy() {
        String p = problems("policies = [random, jsq]");
        assertTrue(p.contains("policies[1]") && p.contains("'jsq'") && p.contains("least-queue"), p);
    }

    @Test
    void missingTraceFile() {
        String p = problems("arrivals.process = trace", "arrivals.trace.file = /no/such/trace.csv");
        assertTrue(p.contains("arrivals.trace.file") && p.contains("no such file") && p.contains("azure-llm-code"), p);
    }

    @Test
    void utilisationAtOrAboveOneWithoutRejection() {
        String p = problems("arrivals.utilisation = 1.2");
        assertTrue(p.contains("arrivals.utilisation = 1.2") && p.contains("unstable") && p.contains("queue-capacity"), p);
        String q = problems("arrivals.rate = 25");
        assertTrue(q.contains("arrivals.rate") && q.contains("1.250") && q.contains("unstable"), q);
        // With bounded queues an overloaded open system is allowed (requests are rejected).
        Scenario ok = TestScenarios.load("quickstart", "arrivals.utilisation = 1.2", "nodes.queue-capacity = 10");
        assertEquals(10, ok.nodes().queueCapacity());
    }

    @Test
    void unknownKeysAndWrongTypesAreNamed() {
        String p = problems("nodes.cuont = 3", "demand.mean = fast", "information.model = psychic");
        assertTrue(p.contains("nodes.cuont: unknown key; allowed here: count"), p);
        assertTrue(p.contains("demand.mean = \"fast\": must be a number"), p);
        assertTrue(p.contains("information.model = 'psychic'") && p.contains("probe, cached, oracle"), p);
    }

    @Test
    void allProblemsAreReportedTogether() {
        String p = problems("nodes.count = 0", "warmup = -1", "policies = [nope]");
        assertEquals(3, p.lines().count(), p);
    }

    @Test
    void everyBuiltInScenarioIsValid() {
        for (String name : BuiltIns.SCENARIOS.keySet()) {
            Scenario s = TestScenarios.load(name);
            assertEquals(name, s.name());
            assertTrue(!s.description().isBlank(), name + " has a description");
        }
    }

    @Test
    void aMisspeltKeyDoesNotHoldBackTheChecksAcrossKeys() {
        String p = problems("nodes.cuont = 3", "arrivals.utilisation = 1.2");
        assertTrue(p.contains("nodes.cuont: unknown key") && p.contains("arrivals.utilisation = 1.2: an open system"), p);
        // A bad value does: the checks across keys would read a value that is not the user's.
        String q = problems("demand.mean = fast", "arrivals.utilisation = 1.2");
        assertTrue(q.contains("demand.mean") && !q.contains("unstable"), q);
    }

    @Test
    void theChecksOfAPolicyApplyToThePolicyThatRunsNotOnlyToTheListedOnes() {
        // quickstart does not list power-of-k: its k is not checked when the scenario loads...
        Scenario s = TestScenarios.load("quickstart", "nodes.count = 3", "policy.k = 5");
        assertEquals(3, s.nodes().count());
        // ...so a run of power-of-k on it (an experiment's or a live switch's policy) checks it.
        String p = String.join("\n", org.loadlab.experiment.scenario.ScenarioLoader.allowedSetProblems(s, "power-of-k"));
        assertTrue(p.contains("policy.k: 5 is larger than the allowed set (3 nodes); allowed: 1..3"), p);
        assertTrue(org.loadlab.experiment.scenario.ScenarioLoader.allowedSetProblems(s, "p2c").isEmpty());
        assertTrue(org.loadlab.experiment.scenario.ScenarioLoader.allowedSetProblems(
                TestScenarios.load("quickstart", "nodes.count = 1", "policies = [random]"), "p2c").toString().contains("p2c samples 2"));
        // Loaded with it as its policy, as the cluster gateway and the CLI load it, the scenario is refused.
        String q = problems("nodes.count = 3", "policy.k = 5", "policies = [power-of-k]");
        assertTrue(q.contains("policy.k: 5 is larger than the allowed set"), q);
    }
}

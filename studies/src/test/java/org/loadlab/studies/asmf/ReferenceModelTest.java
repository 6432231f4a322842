package org.loadlab.studies.asmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;

/**
 * The ASMF seed's reference model: its topology, the figures SPEC.md §4 publishes (means
 * of the seed's own code over seeds 101–103), determinism, and the scenario checks.
 * {@link SeedReproductionTest} compares whole runs with the seed's simulator bit for bit.
 */
class ReferenceModelTest {

    private static double meanOver101To103(Scenario s, String policy, String metric) {
        double sum = 0;
        for (long seed = 101; seed <= 103; seed++) {
            sum += ReferenceModel.run(new RunSpec(s, policy, seed)).metrics().extras().get(metric);
        }
        return sum / 3;
    }

    @Test
    void theTopologyIsTheSeedsOwnDrawnFromGeneratorSeven() {
        SeedTopology medium = SeedTopology.draw(TestScenarios.load("asmf-poisson-medium"));
        // build_default_topology(8, 50): b1 has queue 6 and mu 19.47865360609063, b2 1 and 19.09704063143102.
        assertArrayEquals(new long[] {6, 1}, Arrays.copyOf(medium.initialQueue(), 2));
        assertEquals(19.47865360609063, medium.mu()[0]);
        assertEquals(19.09704063143102, medium.mu()[1]);
        assertEquals(0.36844704892695207, medium.cpu()[0]);
        assertEquals(0.1829455146788889, medium.net()[0]);
        assertArrayEquals(new int[] {7, 9, 45, 41, 42}, Arrays.copyOf(medium.allowed()[0], 5), "f1: b8, b10, b46, b42, b43, ...");
        assertEquals(33, medium.allowed()[0].length, "max(4, floor(0.66 * 50))");
        assertEquals(11, Arrays.stream(medium.mu()).filter(mu -> Math.floor(mu * 0.7 * 0.1) == 0).count(),
                "backends that stop serving after the x0.7 degradation");
        SeedTopology small = SeedTopology.draw(TestScenarios.load("asmf-poisson-small"));
        int[][] expected = {{1, 8, 5, 2, 7, 6}, {9, 7, 8, 0, 6, 2}, {7, 1, 0, 5, 6, 2}, {9, 7, 4, 5, 3, 2}};
        assertArrayEquals(expected, small.allowed(), "b4 and b5 are reachable only from f4");
    }

    @Test
    void theMeansOfSeeds101To103AreThePublishedOnes() {
        Scenario medium = TestScenarios.load("asmf-poisson-medium");
        String[] policies = {"asmf", "p2c", "least-queue", "random"};
        double[] published = {0.172, 0.109, 0.106, 0.194};
        for (int i = 0; i < policies.length; i++) {
            assertEquals(published[i], meanOver101To103(medium, policies[i], "avg_wait_time"), 0.0005, policies[i]);
            assertEquals(2.056, meanOver101To103(medium, policies[i], "throughput"), 0.001, policies[i] + " units per job");
        }
        Scenario failure = TestScenarios.load("asmf-failure-medium");
        double[] failurePublished = {0.221, 1.045, 0.174, 26.4};
        for (int i = 0; i < policies.length; i++) {
            assertEquals(failurePublished[i], meanOver101To103(failure, policies[i], "avg_wait_time"),
                    i == 3 ? 0.05 : 0.0005, "failure_medium " + policies[i]);
        }
    }

    @Test
    void theQueryCostsAreTheSeeds() {
        Scenario s = TestScenarios.load("asmf-poisson-medium");
        assertEquals(3.0, SimulationRunner.run(new RunSpec(s, "asmf", 101)).metrics().queriesPerDecision(), "k sampled nodes");
        assertEquals(33.0, SimulationRunner.run(new RunSpec(s, "least-queue", 101)).metrics().queriesPerDecision(),
                "global policies read the allowed set");
        assertEquals(1.0, SimulationRunner.run(new RunSpec(s, "random", 101)).metrics().queriesPerDecision());
    }

    @Test
    void sameSeedSameResultsAndTheFailedBackendsChangeWithTheSeed() {
        Scenario s = TestScenarios.load("asmf-failure-medium");
        RunMetrics a = ReferenceModel.run(new RunSpec(s, "p2c", 101)).metrics();
        assertEquals(a, ReferenceModel.run(new RunSpec(s, "p2c", 101)).metrics());
        assertNotEquals(a.extras().get("avg_wait_time"), ReferenceModel.run(new RunSpec(s, "p2c", 102)).metrics().extras().get("avg_wait_time"));
        assertEquals(50, a.nodeRequestShare().size());
        assertEquals(600, a.series().size(), "trace points after the arrivals of steps 0, 10, ..., 5990");
        assertEquals(0.0, a.series().get(0).timeSeconds());
        assertEquals(599.0, a.series().get(599).timeSeconds());
        int[] first = new int[10];
        int[] second = new int[10];
        SeedWorkload.failureTargets(new PythonRandom(101), 0.2, new boolean[50], first);
        SeedWorkload.failureTargets(new PythonRandom(102), 0.2, new boolean[50], second);
        assertFalse(Arrays.equals(first, second), "each run seed fails its own 10 backends");
    }

    @Test
    void aSharedGeneratorDiffersFromAFreshOneOnlyAfterTheFirstPolicy() {
        Scenario fresh = TestScenarios.load("asmf-spike-medium");
        Scenario shared = TestScenarios.load("asmf-spike-medium", "reference.simulator-generator = shared");
        assertTrue(shared.reference().sharedGenerator());
        assertEquals(ReferenceModel.run(new RunSpec(fresh, "asmf", 101)).metrics(), ReferenceModel.run(new RunSpec(shared, "asmf", 101)).metrics(),
                "asmf runs first in the seed's order");
        assertNotEquals(ReferenceModel.run(new RunSpec(fresh, "p2c", 101)).metrics().extras(),
                ReferenceModel.run(new RunSpec(shared, "p2c", 101)).metrics().extras());
    }

    @Test
    void theStepLoopDoesNotAllocate() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        long thread = Thread.currentThread().getId();
        Scenario shorter = TestScenarios.load("asmf-failure-medium", "duration = 300");
        Scenario longer = TestScenarios.load("asmf-failure-medium", "duration = 600");
        long[] bytes = new long[2];
        for (int repetition = 0; repetition < 3; repetition++) { // the last repetition counts: classes loaded, JIT done
            for (int i = 0; i < 2; i++) {
                long before = threads.getThreadAllocatedBytes(thread);
                ReferenceModel.run(new RunSpec(i == 0 ? shorter : longer, "asmf", 101));
                bytes[i] = threads.getThreadAllocatedBytes(thread) - before;
            }
        }
        // 3,000 more steps and about 24,000 more jobs; what grows is the result's 300 more trace points
        // (a SeriesPoint and a few array slots each, about 27 KB), not the steps (one 16-byte object per
        // step would add 48 KB) or the jobs.
        long extra = bytes[1] - bytes[0];
        assertTrue(extra < 64 * 1024, "300 s more allocated " + extra + " bytes (" + bytes[0] + " for 300 s)");
    }

    @Test
    void badReferenceKeysAreNamedWithWhatIsAllowed() {
        ScenarioException lifetime = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("asmf-poisson-medium", "reference.simulator-generator = sometimes"));
        assertTrue(lifetime.getMessage().contains("reference.simulator-generator = 'sometimes': unknown value; allowed: fresh, shared"),
                lifetime.getMessage());
        ScenarioException policy = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("asmf-poisson-medium", "policies = [round-robin]"));
        assertTrue(policy.getMessage().contains("'round-robin' is not one of the reference model's policies"), policy.getMessage());
        ScenarioException arrivals = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("asmf-poisson-medium", "arrivals.process = mmpp"));
        assertTrue(arrivals.getMessage().contains("allowed: poisson, on-off"), arrivals.getMessage());
        ScenarioException between = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("asmf-failure-medium", "events = [ { type = fail, at = 240.05, fraction = 0.2 } ]"));
        assertTrue(between.getMessage().contains("events[0].at = 240.05: model = reference fires an event only at a step, when"
                + " its clock equals the event's time; use a multiple of reference.step = 0.1 s"), between.getMessage());
        TestScenarios.load("asmf-failure-medium", "events = [ { type = fail, at = 240.3, fraction = 0.2 } ]"); // on a step
        ScenarioException step = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("asmf-poisson-medium", "reference.step = 0.0005"));
        assertTrue(step.getMessage().contains("whole number of milliseconds"), step.getMessage());
        assertEquals(List.of("asmf", "asmf-no-feedback", "asmf-no-sampling", "asmf-no-multiresource", "gmsr-reference", "p2c",
                "least-queue", "random"), Arrays.stream(SeedPolicy.values()).map(SeedPolicy::policyName).toList(),
                "the model's policies are the scenario loader's, in the seed's order");
        assertEquals(Scenario.Reference.POLICIES, Arrays.stream(SeedPolicy.values()).map(SeedPolicy::policyName).toList());
    }

    @Test
    void theReferenceP2cKIsCheckedAgainstTheAllowedSetNotCapped() {
        // The seed's p2c samples policy.k nodes; k above the allowed list (6 of the 10 backends) is refused
        // as power-of-k's and policy.asmf.k are, not capped at 6 queries per decision.
        ScenarioException p2c = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("asmf-poisson-small", "policies = [p2c]", "policy.k = 50"));
        assertTrue(p2c.getMessage().contains("policy.k: 50 is larger than the allowed set (6 nodes); allowed: 1..6"),
                p2c.getMessage());
        assertEquals(6, TestScenarios.load("asmf-poisson-small", "policies = [p2c]", "policy.k = 6").policy().k());
        // The policies that do not read policy.k leave it alone.
        assertEquals(50, TestScenarios.load("asmf-poisson-small", "policies = [asmf]", "policy.k = 50").policy().k());
    }

    @Test
    void eachBackendsEndStateIsInspectedForNodesCsv() {
        Scenario s = TestScenarios.load("asmf-poisson-small", "duration = 30");
        for (String policy : List.of("asmf", "p2c")) {
            java.util.List<org.loadlab.experiment.run.NodeInspection> nodes = new java.util.ArrayList<>();
            ReferenceModel.run(new RunSpec(s, policy, 101), nodes);
            assertEquals(10, nodes.size(), policy);
            for (var n : nodes) {
                assertTrue(n.load().serviceRate() >= 10 && n.load().serviceRate() <= 20, "mu_j ~ U(10, 20): " + n.load());
                assertTrue(n.load().queueLength() > 0, "overloaded: " + n.load());
                // Only the cache-reading policies update the resources and score S'_j = max(S * C, 0).
                assertEquals(policy.equals("p2c"), Double.isNaN(n.score()), policy + ": " + n.score());
                assertEquals(policy.equals("p2c"), Double.isNaN(n.load().cpu()), policy + ": " + n.load());
            }
        }
    }

    @Test
    void poissonSmallIsOverloadedInTheModelsOwnUnits() {
        // docs/asmf.md: 60 jobs/s x 2.05 units = 123 units/s against 10 nodes x 10 units/s.
        ReferenceLoad load = ReferenceLoad.of(TestScenarios.load("asmf-poisson-small"));
        assertEquals(60, load.jobsPerSecond(), 1e-9);
        assertEquals(1 / (1 - Math.exp(-1 / 1.5)), load.unitsPerJob(), 1e-12);
        assertEquals(2.055, load.unitsPerJob(), 0.001);
        assertEquals(100, load.capacityUnitsPerSecond(), 1e-9, "mu_j in [10, 20) serves 1 unit per 0.1 s step");
        assertEquals(1.23, load.utilisation(), 0.005);
    }
}

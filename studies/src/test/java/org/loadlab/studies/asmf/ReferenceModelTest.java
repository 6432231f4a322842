package org.loadlab.studies.asmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.stats.Summary;
import org.loadlab.experiment.run.RunExecutor;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The ASMF seed's reference model against the figures SPEC.md §4 publishes (means of the
 * seed's own code over seeds 101–103).
 */
class ReferenceModelTest {

    private static double[] waits(Scenario s, String policy, long from, long to) {
        List<RunSpec> specs = new ArrayList<>();
        for (long seed = from; seed <= to; seed++) {
            specs.add(new RunSpec(s, policy, seed));
        }
        return RunExecutor.runAll(specs, 2, spec -> SimulationRunner.run(spec).metrics(), m -> { }).stream()
                .mapToDouble(m -> m.extras().get("avg_wait_time")).toArray();
    }

    @Test
    void poissonMediumMatchesThePublishedFigures() {
        Scenario s = TestScenarios.load("asmf-poisson-medium");
        String[] policies = {"asmf", "p2c", "least-queue", "random"};
        double[] published = {0.172, 0.109, 0.106, 0.194};
        for (int i = 0; i < policies.length; i++) {
            Summary w = Summary.of(waits(s, policies[i], 101, 110));
            assertEquals(published[i], w.mean(), 0.03 * published[i],
                    policies[i] + ": simulated " + w.mean() + " ± " + w.ci95() + " vs published " + published[i]);
        }
        RunMetrics m = SimulationRunner.run(new RunSpec(s, "asmf", 101)).metrics();
        assertEquals(2.056, m.extras().get("throughput"), 0.02, "completed units per job");
        assertEquals(3.0, m.extras().get("queries_per_decision"), 1e-12, "sampled policies read k nodes");
        assertEquals(33.0, SimulationRunner.run(new RunSpec(s, "least-queue", 101)).metrics().extras().get("queries_per_decision"),
                1e-12, "global policies read the allowed set, max(4, floor(0.66 * 50)) = 33");
        assertEquals(1.0, SimulationRunner.run(new RunSpec(s, "random", 101)).metrics().extras().get("queries_per_decision"), 1e-12);
    }

    @Test
    void failureMediumAsmfAndLeastQueueMatchAndTheOthersLieWithinTheTopologySpread() {
        Scenario s = TestScenarios.load("asmf-failure-medium");
        assertEquals(0.221, Summary.of(waits(s, "asmf", 101, 110)).mean(), 0.05 * 0.221);
        assertEquals(0.174, Summary.of(waits(s, "least-queue", 101, 110)).mean(), 0.05 * 0.174);
        // p2c and random depend strongly on which nodes fail and how many allowed sets hold
        // them: the seed's topology cannot be reproduced, so its figure must lie within the
        // spread over topologies.
        double p2cLow = Double.MAX_VALUE;
        double p2cHigh = 0;
        double randomLow = Double.MAX_VALUE;
        double randomHigh = 0;
        for (int topology = 1; topology <= 8; topology++) {
            Scenario t = TestScenarios.load("asmf-failure-medium", "topology-seed = " + topology);
            double p2c = Summary.of(waits(t, "p2c", 101, 104)).mean();
            double random = Summary.of(waits(t, "random", 101, 104)).mean();
            p2cLow = Math.min(p2cLow, p2c);
            p2cHigh = Math.max(p2cHigh, p2c);
            randomLow = Math.min(randomLow, random);
            randomHigh = Math.max(randomHigh, random);
        }
        assertTrue(p2cLow <= 1.045 && 1.045 <= p2cHigh, "p2c over topologies: " + p2cLow + " .. " + p2cHigh);
        assertTrue(randomLow <= 26.4 && 26.4 <= randomHigh, "random over topologies: " + randomLow + " .. " + randomHigh);
    }

    @Test
    void sameSeedSameResultsAndTheTopologyIsFixedAcrossSeeds() {
        Scenario s = TestScenarios.load("asmf-bursty-medium");
        assertArrayEquals(waits(s, "asmf", 101, 102), waits(s, "asmf", 101, 102));
        RunMetrics a = SimulationRunner.run(new RunSpec(s, "p2c", 101)).metrics();
        RunMetrics b = SimulationRunner.run(new RunSpec(s, "p2c", 102)).metrics();
        assertTrue(a.extras().get("avg_wait_time") != b.extras().get("avg_wait_time").doubleValue());
        assertEquals(a.nodeRequestShare().size(), 50);
    }
}

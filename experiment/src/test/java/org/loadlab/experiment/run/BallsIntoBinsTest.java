package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.stats.BallsIntoBinsTheory;
import org.loadlab.experiment.scenario.Scenario;

/**
 * {@code model = balls-into-bins}: {@code requests} balls land in {@code nodes.count} bins
 * that never serve; the loads match the exact binomial tails (one random choice) and the
 * fluid limit (two i.i.d. choices).
 */
class BallsIntoBinsTest {
    private static final int N = 10_000;

    private static Scenario bins(String... extra) {
        List<String> o = new java.util.ArrayList<>(List.of("model = balls-into-bins", "requests = " + N, "nodes.count = " + N,
                "information.model = oracle"));
        o.addAll(List.of(extra));
        return TestScenarios.load("quickstart", o.toArray(String[]::new));
    }

    /** Fraction of bins with at least k balls, k = 0..max, from the final loads. */
    private static double[] tail(RunMetrics m, int max) {
        double[] s = new double[max + 1];
        for (int load : m.nodeMaxQueue()) {
            for (int k = 0; k <= Math.min(load, max); k++) {
                s[k] += 1.0 / m.nodeMaxQueue().size();
            }
        }
        return s;
    }

    @Test
    void everyBallStaysWhereItLandsAndTheRunEndsWithTheLast() {
        SimulationRunner.Outcome o = SimulationRunner.runCounted(new RunSpec(bins(), "p2c", 101));
        RunMetrics m = o.result().metrics();
        assertEquals(N, m.requestsArrived());
        assertEquals(0, m.requestsCompleted(), "no departures");
        assertEquals(N, m.nodeMaxQueue().stream().mapToLong(Integer::longValue).sum(), "the loads add up to the balls");
        assertEquals(m.maxQueue(), m.nodeMaxQueue().stream().mapToInt(Integer::intValue).max().orElseThrow());
        assertEquals(N, o.nodes().size(), "the final loads are inspected");
        assertEquals(N, o.nodes().stream().mapToInt(n -> n.load().queueLength()).sum());
    }

    @Test
    void oneRandomChoiceMatchesTheBinomialTails() {
        double[] theory = BallsIntoBinsTheory.randomTail(N, N, 4);
        double[] measured = new double[5];
        long[] seeds = {101, 102, 103};
        for (long seed : seeds) {
            double[] s = tail(SimulationRunner.run(new RunSpec(bins(), "random", seed)).metrics(), 4);
            for (int k = 0; k <= 4; k++) {
                measured[k] += s[k] / seeds.length;
            }
        }
        for (int k = 1; k <= 4; k++) {
            // sd of a mean of 3 fractions of 10^4 bins: sqrt(s(1 - s) / (3 * 10^4)), at most 0.0029
            double sd = Math.sqrt(theory[k] * (1 - theory[k]) / (seeds.length * N));
            assertEquals(theory[k], measured[k], 4 * sd + 1e-4, "fraction of bins with load >= " + k);
        }
    }

    @Test
    void twoChoicesWithReplacementMatchTheFluidLimitAndCapTheMaxLoad() {
        double[] theory = BallsIntoBinsTheory.fluidTail(1.0, 2, 4);
        Scenario s = bins("policy.k-sampling = with-replacement", "policy.k = 2");
        double[] measured = new double[5];
        int maxLoad = 0;
        long[] seeds = {101, 102, 103};
        for (long seed : seeds) {
            RunMetrics m = SimulationRunner.run(new RunSpec(s, "power-of-k", seed)).metrics();
            double[] f = tail(m, 4);
            for (int k = 0; k <= 4; k++) {
                measured[k] += f[k] / seeds.length;
            }
            maxLoad = Math.max(maxLoad, m.maxQueue());
        }
        for (int k = 1; k <= 3; k++) {
            // The fluid limit is exact as n -> infinity; at n = 10^4 the fractions spread by about
            // sqrt(s / n) <= 0.009 per run (and less for two choices), plus an O(1/n) bias.
            double sd = Math.sqrt(theory[k] * (1 - theory[k]) / (seeds.length * N));
            assertEquals(theory[k], measured[k], 4 * sd + 1e-3, "fraction of bins with load >= " + k);
        }
        // ln ln n / ln 2 + O(1): 3 (rarely 4) for 10^4 balls, against 6 to 8 with one choice.
        assertTrue(maxLoad >= 3 && maxLoad <= 4, "max load " + maxLoad);
    }
}

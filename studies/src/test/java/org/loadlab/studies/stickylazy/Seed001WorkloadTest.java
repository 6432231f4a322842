package org.loadlab.studies.stickylazy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.WorkloadBuilder;
import org.loadlab.experiment.run.Topology;
import org.loadlab.workload.arrival.DiurnalRate;
import org.loadlab.workload.demand.DemandDistribution;
import org.loadlab.workload.demand.SizeMixes;

/**
 * Seed 001's experiment as its text defines it (SPEC.md §5): the size mixture scaled as a
 * whole, speeds redrawn per seed, the diurnal period tied to the request horizon, burst
 * windows where the scenario puts them.
 */
class Seed001WorkloadTest {

    @Test
    void theBuiltInMixtureIsSizeMixesSeed001DrawForDraw() {
        Scenario s = TestScenarios.load("sticky-lazy-seed");
        assertTrue(s.demand().scalesMixture());
        DemandDistribution scenario = WorkloadBuilder.demand(s.demand(), new SplittableRandom(42));
        DemandDistribution text = SizeMixes.seed001(1.0, new SplittableRandom(42));
        for (int i = 0; i < 10_000; i++) {
            assertEquals(Double.doubleToLongBits(text.sample()), Double.doubleToLongBits(scenario.sample()), "draw " + i);
        }
        assertEquals(1.0, scenario.mean(), 1e-12);
    }

    @Test
    void scalingEachComponentIsStillTheDefaultAndDiffers() {
        Scenario each = TestScenarios.load("sticky-lazy-seed", "demand.mixture-scaling = components");
        assertFalse(each.demand().scalesMixture());
        DemandDistribution a = WorkloadBuilder.demand(each.demand(), new SplittableRandom(1));
        // Per-component scaling gives the Pareto tail 10% of the work; the mixture scaled as a
        // whole gives it 0.1 * 3 / (0.9 e^0.5 + 0.3) = 16.8%, so its requests are bigger.
        double paretoShare = 0.1 * 3 / (0.9 * Math.exp(0.5) + 0.3);
        assertEquals(0.168, paretoShare, 5e-4);
        assertEquals(1.0, a.mean(), 1e-12);
        Scenario defaults = TestScenarios.load("quickstart");
        assertEquals("components", defaults.demand().mixtureScaling());
    }

    @Test
    void speedsAreRedrawnPerSeedOnlyWhenAsked() {
        Scenario perSeed = TestScenarios.load("sticky-lazy-seed");
        assertTrue(perSeed.nodes().speedsPerSeed());
        double[] a = Topology.of(perSeed, 101).serviceRates();
        double[] b = Topology.of(perSeed, 102).serviceRates();
        assertFalse(java.util.Arrays.equals(a, b), "each seed its own cluster");
        assertArrayEquals(a, Topology.of(perSeed, 101).serviceRates(), "the same seed, the same speeds");
        assertArrayEquals(Topology.of(perSeed).serviceRates(), Topology.of(perSeed, perSeed.topologySeed()).serviceRates(),
                "the run seed takes the topology seed's place");
        for (double mu : a) {
            assertTrue(mu >= 0.5 && mu <= 1.5, "mu_j ~ U(0.5, 1.5): " + mu);
        }
        Scenario fixed = TestScenarios.load("sticky-lazy-seed", "nodes.speeds-per-seed = false");
        assertArrayEquals(Topology.of(fixed, 101).serviceRates(), Topology.of(fixed, 102).serviceRates());
        assertArrayEquals(Topology.of(fixed).serviceRates(), Topology.of(fixed, 103).serviceRates());
    }

    @Test
    void theDiurnalPeriodIsTheHorizonOfEachRun() {
        Scenario s = TestScenarios.load("sticky-lazy-seed");
        assertTrue(s.arrivals().diurnal().periodIsHorizon());
        for (long seed : new long[] {101, 102}) {
            double capacity = Topology.of(s, seed).capacity(1);
            double lambda = 0.75 * capacity; // E[D] = 1
            assertEquals(30_000 / lambda, WorkloadBuilder.diurnalPeriod(s, lambda), 1e-9);
            DiurnalRate rate = (DiurnalRate) WorkloadBuilder.rate(s, lambda);
            assertEquals(30_000 / lambda, rate.periodSeconds(), 1e-9);
            assertEquals(lambda, rate.meanRate(), 1e-9 * lambda, "normalised to the mean rate");
        }
        Scenario seconds = TestScenarios.load("sticky-lazy-seed", "arrivals.diurnal.period = 813.8");
        assertEquals(813.8, WorkloadBuilder.diurnalPeriod(seconds, 36.0), 0);
    }

    @Test
    void burstWindowsStartWhereTheScenarioSays() {
        Scenario even = TestScenarios.load("sticky-lazy-seed");
        DiurnalRate r = (DiurnalRate) WorkloadBuilder.rate(even, 30);
        assertArrayEquals(DiurnalRate.evenWindows(3, 0.02), r.windowStartFractions(), "default: evenly spaced, as before");
        Scenario listed = TestScenarios.load("sticky-lazy-seed", "arrivals.diurnal.burst-starts = [0.05, 0.5]",
                "arrivals.diurnal.burst-windows = 2");
        DiurnalRate q = (DiurnalRate) WorkloadBuilder.rate(listed, 30);
        assertArrayEquals(new double[] {0.05, 0.5}, q.windowStartFractions());
        double h = q.periodSeconds();
        assertTrue(q.inBurst(0.06 * h) && !q.inBurst(0.08 * h) && q.inBurst(0.51 * h));
    }
}

package org.loadlab.studies.stickylazy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.RunsFile;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.policy.StickyLazyPolicy;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;

/**
 * Sticky-Lazy and strict Po2C end to end in the simulator (the seed 001 scenario, shortened),
 * the scenario key {@code policy.sticky-lazy.threshold}, and the theory check on the results.
 */
class StickyLazyRunTest {
    /** The seed's scenario with 3,000 requests: the diurnal period follows (period = horizon). */
    private static final String[] SHORT = {"requests = 3000"};

    private static RunMetrics run(String policy, long seed, String... extra) {
        List<String> o = new ArrayList<>(List.of(SHORT));
        o.addAll(List.of(extra));
        Scenario s = TestScenarios.load("sticky-lazy-seed", o.toArray(String[]::new));
        return SimulationRunner.run(new RunSpec(s, policy, seed)).metrics();
    }

    @Test
    void everyProbeIsAMessageAndCountedAndTheCountersAddUp() {
        for (String balancers : new String[] {"1", "3"}) {
            RunMetrics m = run("sticky-lazy", 101, "balancers.count = " + balancers);
            Map<String, Long> c = m.counters();
            long probes = m.messagesByKind().getOrDefault("Probe", 0L);
            long first = c.get(StickyLazyPolicy.FIRST_PROBES);
            long fallback = c.get(StickyLazyPolicy.FALLBACK_PROBES);
            assertEquals(3000, m.requestsArrived());
            assertEquals(3000, m.decisions());
            assertEquals(m.decisions(), c.get(StickyLazyPolicy.BLIND_ROUTES) + first, "blind + probed = requests");
            assertEquals(probes, first + fallback, "every Probe message is a counted probe");
            assertEquals((double) probes / m.decisions(), m.queriesPerDecision(), 1e-12);
            assertEquals(first - c.get(StickyLazyPolicy.FIRST_PROBE_HITS), fallback);
            assertEquals(probes, m.messagesByKind().get("ProbeReply"));
            assertTrue(c.get(StickyLazyPolicy.BLIND_ROUTES) <= c.get(StickyLazyPolicy.CREDIT_GRANTED));
            assertTrue(m.queriesPerDecision() < 2 && m.queriesPerDecision() >= 1.0 / 4);
            assertEquals(3000, m.requestsCompleted());
        }
        RunMetrics po2c = run("strict-po2c", 101);
        assertEquals(2.0, po2c.queriesPerDecision(), 1e-12);
        assertEquals(6000L, po2c.messagesByKind().get("Probe"));
    }

    @Test
    void withIdleServersTheCreditRuleSetsTheProbeRateExactly() {
        // Service takes 0.1 ms and requests come once a second: every probe finds q = 0, so one
        // probe buys 1 + T requests under T - q (the floor 1/(T + 1)) and T under T - q - 1 (the
        // seed's floor 1/T, which that rule guarantees).
        for (int t : new int[] {1, 3}) {
            for (String credit : new String[] {"T-q", "T-q-1"}) {
                Scenario s = TestScenarios.load("quickstart", "policies = [sticky-lazy]", "nodes.service-rate.value = 10000",
                        "arrivals.rate = 1", "warmup = 0", "duration = 0", "requests = 1200",
                        "policy.sticky-lazy.threshold = " + t, "policy.sticky-lazy.credit = " + credit);
                RunMetrics m = SimulationRunner.run(new RunSpec(s, "sticky-lazy", 101)).metrics();
                int perProbe = credit.equals("T-q") ? t + 1 : t;
                assertEquals(Math.ceil(1200.0 / perProbe) / 1200, m.queriesPerDecision(), 1e-12, "T " + t + ", " + credit);
                assertEquals(0, m.counters().getOrDefault(StickyLazyPolicy.FALLBACK_PROBES, 0L));
                assertEquals(m.counters().get(StickyLazyPolicy.FIRST_PROBES) * (perProbe - 1),
                        (long) m.counters().get(StickyLazyPolicy.CREDIT_GRANTED));
            }
        }
    }

    @Test
    void bothCreditRulesKeepTheCountersConsistentOnTheSeedsWorkload() {
        RunMetrics m = run("sticky-lazy", 101, "policy.sticky-lazy.credit = T-q-1");
        Map<String, Long> c = m.counters();
        assertEquals(m.decisions(), c.get(StickyLazyPolicy.BLIND_ROUTES) + c.get(StickyLazyPolicy.FIRST_PROBES));
        assertTrue(c.get(StickyLazyPolicy.BLIND_ROUTES) <= c.get(StickyLazyPolicy.CREDIT_GRANTED));
        // One credit less per cache: more probes than under T - q on the same arrivals and sizes.
        assertTrue(m.queriesPerDecision() > run("sticky-lazy", 101).queriesPerDecision());
    }

    @Test
    void aLargerThresholdProbesLess() {
        double t1 = run("sticky-lazy", 102, "policy.sticky-lazy.threshold = 1").queriesPerDecision();
        double t8 = run("sticky-lazy", 102, "policy.sticky-lazy.threshold = 8").queriesPerDecision();
        assertTrue(t8 < t1, "T 8: " + t8 + " probes/request, T 1: " + t1);
    }

    @Test
    void scenarioValidation() {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> TestScenarios.load("sticky-lazy-seed", "policy.sticky-lazy.threshold = 0"));
        assertTrue(e.getMessage().contains("policy.sticky-lazy.threshold"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart", "nodes.count = 1",
                "policies = [strict-po2c]"));
        assertTrue(e.getMessage().contains("strict-po2c"), e.getMessage());
        assertEquals(3, TestScenarios.load("sticky-lazy-seed").policy().stickyLazy().threshold());
        assertEquals(8, TestScenarios.load("quickstart", "policy.sticky-lazy.threshold = 8").policy().stickyLazy().threshold());
    }

    @Test
    void theoryCheckPairsRunsBySeedAndWritesItsFiles(@TempDir Path dir) throws Exception {
        List<CampaignRun> runs = new ArrayList<>();
        for (long seed : new long[] {101, 102}) {
            for (String policy : new String[] {"strict-po2c", "sticky-lazy", "random"}) {
                runs.add(new CampaignRun("sticky-lazy-seed", new TreeMap<>(), policy, seed, run(policy, seed)));
            }
        }
        RunsFile.write(dir.resolve(RunsFile.FILE_NAME), runs);
        StickyLazyAnalysis.Result r = StickyLazyAnalysis.writeAll(dir);
        assertEquals(2, r.runs().size());
        assertEquals(2, r.pairs().size());
        for (StickyLazyAnalysis.RunCheck c : r.runs()) {
            assertEquals(3, c.threshold());
            assertEquals((double) c.firstProbeHits() / c.firstProbes(), c.t(), 1e-12);
            assertEquals((2 - c.t()) / (1 + c.t()), c.seedFormula(), 1e-12);
            assertEquals((2 - c.t()) / (1 + 2 * c.t()), c.cycleModel(), 1e-12);
            assertEquals(org.loadlab.balancer.policy.StickyCache.Credit.HEADROOM, c.credit());
            assertTrue(c.holdsOneOverTPlusOne());
            // The credit model only misses credit that was granted but never spent.
            assertEquals(c.probesPerRequest(), c.creditModel(), 0.05);
        }
        for (StickyLazyAnalysis.PeakPair p : r.pairs()) {
            CampaignRun po2c = runs.stream().filter(x -> x.seed() == p.seed() && x.policy().equals("strict-po2c"))
                    .findFirst().orElseThrow();
            assertEquals(po2c.metrics().maxQueue(), p.po2cMaxQueue());
            assertEquals(p.stickyMaxQueue() - p.po2cMaxQueue(), p.excess());
            assertEquals(p.excess() <= 3, p.holds());
        }
        for (String f : new String[] {"theory.csv", "peak-bound.csv", "sticky-lazy.md", "plots/sticky-lazy-probes.png",
                "plots/sticky-lazy-peak-queue.svg"}) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        assertEquals(3, Files.readAllLines(dir.resolve("theory.csv")).size());
        String md = Files.readString(dir.resolve("sticky-lazy.md"));
        assertTrue(md.contains("Sticky-Lazy theory check") && md.contains("paired runs"), md);
    }

    @Test
    void thresholdSweepIsReadFromTheParameters() {
        RunMetrics m = run("sticky-lazy", 103, "policy.sticky-lazy.threshold = 8");
        TreeMap<String, String> p = new TreeMap<>(Map.of(StickyLazyAnalysis.THRESHOLD_KEY, "8"));
        StickyLazyAnalysis.Result r = StickyLazyAnalysis.analyse(
                List.of(new CampaignRun("s", p, "sticky-lazy", 103, m)), Map.of(), List.of());
        assertEquals(8, r.runs().get(0).threshold());
        assertTrue(r.pairs().isEmpty());
    }

    @Test
    void theCreditRuleIsReadFromTheParametersAndChangesTheCycleModel() {
        RunMetrics m = run("sticky-lazy", 103, "policy.sticky-lazy.credit = T-q-1");
        TreeMap<String, String> p = new TreeMap<>(Map.of(StickyLazyAnalysis.CREDIT_KEY, "T-q-1"));
        StickyLazyAnalysis.RunCheck c = StickyLazyAnalysis.analyse(
                List.of(new CampaignRun("s", p, "sticky-lazy", 103, m)), Map.of(), List.of()).runs().get(0);
        assertEquals(org.loadlab.balancer.policy.StickyCache.Credit.HEADROOM_MINUS_ONE, c.credit());
        assertEquals(c.seedFormula(), c.cycleModel(), 0, "under T - q - 1 a cycle sends T - L requests, as the seed counts");
        assertTrue(c.holdsOneOverT(), "and the floor 1/T is guaranteed");
        assertEquals(c.probesPerRequest(), c.creditModel(), 0.05);
    }
}

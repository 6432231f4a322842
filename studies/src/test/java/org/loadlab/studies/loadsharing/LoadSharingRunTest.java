package org.loadlab.studies.loadsharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.node.sharing.PeerNode;
import org.loadlab.analysis.stats.QueueingFormulas;
import org.loadlab.node.sharing.SharingProtocol;
import org.loadlab.experiment.campaign.CampaignLoader;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.run.RunExecutor;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;

/**
 * Load-sharing runs end to end (SPEC.md §7, issue 6): the slides' ordering against the
 * analytic bounds, task conservation under crashes, determinism, validation, and the built-in
 * campaign (the live run is in the shell's LiveModeTest).
 */
class LoadSharingRunTest {
    /** Student t quantile t(0.975, 2): 95% intervals over three seeds. */
    private static final double T_975_2 = 4.302652729911275;
    private static final long[] SEEDS = {101, 102, 103};

    private static Map<String, double[]> meanResponses(double rho, List<String> protocols) {
        Scenario s = TestScenarios.load("load-sharing", "arrivals.utilisation = " + rho, "duration = 3000", "warmup = 300");
        List<RunSpec> specs = new ArrayList<>();
        for (String p : protocols) {
            for (long seed : SEEDS) {
                specs.add(new RunSpec(s, p, seed));
            }
        }
        List<RunResult> results = RunExecutor.runAll(specs, 2, SimulationRunner::run, r -> { });
        Map<String, double[]> out = new LinkedHashMap<>();
        for (int i = 0; i < results.size(); i++) {
            out.computeIfAbsent(specs.get(i).policy(), k -> new double[SEEDS.length])[i % SEEDS.length] =
                    results.get(i).metrics().responseMean();
        }
        return out;
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    private static double halfWidth(double[] x) {
        double m = mean(x);
        double ss = 0;
        for (double v : x) {
            ss += (v - m) * (v - m);
        }
        return T_975_2 * Math.sqrt(ss / (x.length - 1) / x.length);
    }

    private static double[] minus(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    /** a ≤ b within the 95% interval of the paired difference (same seeds: same arrivals and demands). */
    private static void assertNotAbove(String a, String b, Map<String, double[]> m, double rho) {
        double[] d = minus(m.get(a), m.get(b));
        assertTrue(mean(d) <= halfWidth(d), String.format("at rho %.2f: %s (%.4f s) is above %s (%.4f s) by %.4f s > CI %.4f s",
                rho, a, mean(m.get(a)), b, mean(m.get(b)), mean(d), halfWidth(d)));
    }

    @Test
    void thresholdLiesBetweenTheBoundsAndTheSlidesOrderingHolds() {
        for (double rho : new double[] {0.5, 0.7, 0.9}) {
            List<String> protocols = rho >= 0.7
                    ? List.of("sender-shortest", "sender-threshold", "sender-random")
                    : List.of("sender-threshold");
            Map<String, double[]> m = meanResponses(rho, protocols);
            double mm1 = QueueingFormulas.mm1Response(rho, 1.0);
            double mmn = QueueingFormulas.mmnResponse(40, rho, 1.0);
            double[] thr = m.get("sender-threshold");
            System.out.printf("rho %.2f: M/M/40 %.4f  %s  M/M/1 %.4f%n", rho, mmn,
                    String.join("  ", m.keySet().stream().map(k -> String.format("%s %.4f ± %.4f", k, mean(m.get(k)),
                            halfWidth(m.get(k)))).toList()), mm1);
            assertTrue(mean(thr) - halfWidth(thr) > mmn && mean(thr) + halfWidth(thr) < mm1,
                    "threshold " + mean(thr) + " ± " + halfWidth(thr) + " s is not strictly between M/M/40 " + mmn
                            + " s and M/M/1 " + mm1 + " s at rho " + rho);
            if (rho >= 0.7) {
                double[] shortest = m.get("sender-shortest");
                double[] random = m.get("sender-random");
                assertTrue(mmn <= mean(shortest) + halfWidth(shortest), "shortest below M/M/40 at rho " + rho);
                assertNotAbove("sender-shortest", "sender-threshold", m, rho);
                assertNotAbove("sender-threshold", "sender-random", m, rho);
                assertTrue(mean(random) - halfWidth(random) <= mm1, "random above M/M/1 at rho " + rho);
            }
        }
    }

    @Test
    void everyProtocolConservesTasksThroughCrashesLatencyAndCosts() {
        for (SharingProtocol p : SharingProtocol.values()) {
            Scenario s = TestScenarios.load("load-sharing", "nodes.count = 10", "duration = 300", "warmup = 0",
                    "arrivals.utilisation = 0.85", "network.latency = 0.001", "load-sharing.poll-latency = 0.001",
                    "load-sharing.transfer-delay = 0.01", "load-sharing.transfer-cost = 0.05", "load-sharing.poll-cost = 0.01",
                    "events = [{ type = fail, at = 100, fraction = 0.2 }, { type = recover, at = 200, fraction = 0.2 }]");
            // SimulationRunner checks arrived = completed + rejected + lost + queued + in transit and throws otherwise.
            RunMetrics m = SimulationRunner.run(new RunSpec(s, p.label(), 101)).metrics();
            assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsLost(), p + ": every task resolved once");
            assertTrue(m.requestsLost() > 0, p + ": the crash lost the failed nodes' tasks");
            if (p != SharingProtocol.NONE) {
                assertTrue(m.counters().getOrDefault(PeerNode.TRANSFERS, 0L) > 0, p + " transferred nothing");
            }
            assertEquals(m.requestsArrived(), m.decisions(), "one placement decision per task");
        }
    }

    @Test
    void aRunIsDeterministicAndSeesTheSameWorkloadAsABalancerRun() {
        Scenario s = TestScenarios.load("load-sharing", "nodes.count = 10", "duration = 200", "warmup = 0",
                "network.latency = 0.0005", "load-sharing.poll-latency = 0.001");
        RunMetrics a = SimulationRunner.run(new RunSpec(s, "stable-symmetric", 7)).metrics();
        RunMetrics b = SimulationRunner.run(new RunSpec(s, "stable-symmetric", 7)).metrics();
        assertEquals(a, b);
        Scenario mixed = TestScenarios.load("load-sharing", "nodes.count = 10", "duration = 200", "warmup = 0",
                "policies = [random, none]");
        RunMetrics balanced = SimulationRunner.run(new RunSpec(mixed, "random", 7)).metrics();
        RunMetrics none = SimulationRunner.run(new RunSpec(mixed, "none", 7)).metrics();
        assertEquals(balanced.requestsArrived(), none.requestsArrived(), "same arrival stream in both modes");
        assertTrue(none.messagesByKind().keySet().stream().allMatch(k -> k.equals("Arrival")), "no sharing, no messages");
    }

    @Test
    void validationNamesTheKeyTheValueAndWhatIsAllowed() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load("load-sharing",
                "policies = [sender-thresold]", "load-sharing.threshold = 0", "load-sharing.poll-limt = 2"));
        String all = String.join("\n", e.problems());
        assertTrue(all.contains("policies[0]") && all.contains("load-sharing protocols (no balancer): none, sender-random"), all);
        assertTrue(all.contains("load-sharing.threshold = 0: must be in [1, 1000000]"), all);
        assertTrue(all.contains("load-sharing.poll-limt: unknown key; allowed here: ") && all.contains("poll-limit"), all);

        e = assertThrows(ScenarioException.class, () -> TestScenarios.load("load-sharing", "nodes.queue-capacity = 5",
                "network.latency = 0.03", "load-sharing.poll-latency = 0"));
        all = String.join("\n", e.problems());
        assertTrue(all.contains("nodes.queue-capacity = 5") && all.contains("no rejection"), all);
        assertTrue(all.contains("load-sharing.poll-timeout = 0.05") && all.contains("round trip"), all);

        // Overload: the advice is only what works for the protocols, which take no queue bound.
        e = assertThrows(ScenarioException.class, () -> TestScenarios.load("load-sharing", "arrivals.utilisation = 1.2"));
        all = String.join("\n", e.problems());
        assertTrue(all.contains("arrivals.utilisation = 1.2") && all.contains("use a value below 1 (the load-sharing protocols keep every task")
                && !all.contains("bound the queues"), all);

        // A balancer-only scenario does not care about load sharing.
        TestScenarios.load("quickstart", "nodes.queue-capacity = 5");
        e = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart", "arrivals.utilisation = 1.2"));
        assertTrue(String.join("\n", e.problems()).contains("bound the queues with nodes.queue-capacity > 0"), e.getMessage());
    }

    @Test
    void theBuiltInCampaignComparesEveryProtocolWithTheAnalyticLines() {
        CampaignLoader loader = new CampaignLoader(TestScenarios.loader());
        CampaignPlan plan = loader.load("load-sharing", null);
        assertEquals(7 * 12 * 10, plan.runs().size());
        assertEquals(List.of("mm1", "mmn"), plan.analytic());
        assertEquals("sender-threshold", plan.reference());
        assertTrue(plan.runs().stream().map(CampaignPlan.PlannedRun::variant).distinct().toList()
                .containsAll(SharingProtocol.names()));
        CampaignPlan.PlannedRun costly = plan.runs().stream().filter(r -> r.variant().equals("receiver-cost")).findFirst().orElseThrow();
        assertEquals("receiver", costly.spec().policy());
        assertEquals(0.2, costly.spec().scenario().loadSharing().transferCost());
        assertEquals(7 * 12, loader.load("load-sharing", "101").runs().size());
    }
}

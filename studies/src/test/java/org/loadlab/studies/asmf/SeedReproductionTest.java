package org.loadlab.studies.asmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The reference model against the ASMF seed's own simulator, run by hand (CPython 3.11.7,
 * the seed's {@code src/asmf_lb} at commit d202c4b) for seed 101 of its 8 scenarios × 8
 * policies, once with a fresh simulator generator per run and once with one shared across
 * the policies as in its {@code run_rigorous_testing}. The seed's numbers are in
 * {@code asmf/seed000-runs-seed101.csv} at full precision; every one must come out
 * identical, doubles to the last bit.
 */
class SeedReproductionTest {
    private static final String[] METRICS = {"throughput", "avg_wait_time", "backlog_area", "max_queue_observed",
        "queries_per_decision", "state_updates_sent", "bytes_transferred_est", "convergence_time_ms",
        "mean_queue_variance", "oscillation_index"};

    private record SeedRun(String generator, String scenario, String policy, long seed, Map<String, Double> values) {
    }

    private static List<SeedRun> seedRuns() throws IOException {
        List<SeedRun> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                SeedReproductionTest.class.getResourceAsStream("/asmf/seed000-runs-seed101.csv"), StandardCharsets.UTF_8))) {
            String[] header = in.readLine().split(",");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split(",");
                Map<String, Double> values = new HashMap<>();
                for (int i = 4; i < f.length; i++) {
                    values.put(header[i], Double.parseDouble(f[i]));
                }
                out.add(new SeedRun(f[0], f[1], f[2], Long.parseLong(f[3]), values));
            }
        }
        return out;
    }

    private static List<String> differences(SeedRun expected, RunMetrics m) {
        List<String> out = new ArrayList<>();
        for (String metric : METRICS) {
            double want = expected.values().get(metric);
            double got = m.extras().get(metric);
            if (Double.doubleToLongBits(want) != Double.doubleToLongBits(got)) {
                out.add(metric + " " + got + " (seed: " + want + ")");
            }
        }
        if (m.requestsArrived() != expected.values().get("jobs_generated")) {
            out.add("jobs " + m.requestsArrived() + " (seed: " + expected.values().get("jobs_generated") + ")");
        }
        if (m.requestsRejected() != expected.values().get("jobs_rejected")) {
            out.add("rejected " + m.requestsRejected() + " (seed: " + expected.values().get("jobs_rejected") + ")");
        }
        return out;
    }

    private static void reproduces(String generator) throws IOException {
        Map<String, Scenario> scenarios = new HashMap<>();
        List<String> mismatches = new ArrayList<>();
        int cells = 0;
        for (SeedRun run : seedRuns()) {
            if (!run.generator().equals(generator)) {
                continue;
            }
            cells++;
            Scenario s = scenarios.computeIfAbsent(run.scenario(),
                    name -> TestScenarios.load(name, "reference.simulator-generator = " + generator));
            RunMetrics m = ReferenceModel.run(new RunSpec(s, run.policy(), run.seed())).metrics();
            List<String> d = differences(run, m);
            if (!d.isEmpty()) {
                mismatches.add(run.scenario() + " " + run.policy() + " seed " + run.seed() + ": " + String.join(", ", d));
            }
        }
        assertEquals(64, cells, "8 scenarios x 8 policies");
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of 64 cells differ from the seed's simulator:\n"
                + String.join("\n", mismatches));
    }

    @Test
    void everyCellOfSeed101MatchesTheSeedsSimulatorWithFreshGenerators() throws IOException {
        reproduces("fresh");
    }

    @Test
    void everyCellOfSeed101MatchesTheSeedsRigorousCampaignWithASharedGenerator() throws IOException {
        reproduces("shared");
    }
}

package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.analysis.io.ResultsCsv;

/** runs.jsonl, runs.csv, summary.csv and pairwise.csv. */
class RunFilesTest {

    @TempDir
    Path dir;

    private static List<CampaignRun> sample() {
        List<CampaignRun> runs = new ArrayList<>(SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5", "0.9"), 2, 100));
        runs.add(new CampaignRun("plain, scenario", new TreeMap<>(), "p2c", 7,
                SampleCampaign.with(SampleCampaign.metrics("p2c", 0.5, 7, 100), Double.NaN, 3)));
        return runs;
    }

    @Test
    void jsonLinesRoundTripLosslessly() throws IOException {
        List<CampaignRun> runs = sample();
        Path file = dir.resolve("runs.jsonl");
        RunsFile.write(file, runs);
        List<String> lines = Files.readAllLines(file);
        assertEquals(runs.size(), lines.size());
        assertTrue(lines.get(0).startsWith("{\"scenario\":\"poisson_small\",\"parameters\":{\"arrivals.utilisation\":\"0.5\"},"
                + "\"policy\":\"p2c\",\"seed\":1,\"metrics\":{\"requestsArrived\":"), lines.get(0));
        assertEquals(runs, RunsFile.read(file)); // NaN, histogram, series and maps included
        assertTrue(Double.isNaN(RunsFile.read(file).get(runs.size() - 1).metrics().responseMean()));
    }

    @Test
    void appendAddsLinesAndBrokenLinesAreNamed() throws IOException {
        List<CampaignRun> runs = sample();
        Path file = dir.resolve("sub/runs.jsonl");
        RunsFile.append(file, runs.get(0));
        RunsFile.append(file, runs.get(1));
        assertEquals(runs.subList(0, 2), RunsFile.read(file));
        String text = Files.readString(file);
        Files.writeString(file, text + "\n" + text.substring(0, 40), StandardCharsets.UTF_8); // blank + truncated line
        IOException e = assertThrows(IOException.class, () -> RunsFile.read(file));
        assertTrue(e.getMessage().contains("runs.jsonl:4: not a valid campaign run"), e.getMessage());
        RunsFile.write(file, List.of());
        assertEquals(List.of(), RunsFile.read(file));
    }

    @Test
    void runsCsvHasParameterColumnsThenResultsCsvColumns() throws IOException {
        List<CampaignRun> runs = sample();
        Path file = dir.resolve("runs.csv");
        RunsCsv.write(file, runs);
        List<List<String>> rows = CsvFile.read(file);
        List<String> expected = new ArrayList<>(List.of("scenario", "arrivals.utilisation", "policy", "seed"));
        expected.addAll(ResultsCsv.HEADER.subList(3, ResultsCsv.HEADER.size()));
        assertEquals(expected, rows.get(0));
        assertEquals(expected, RunsCsv.header(runs));
        assertEquals("requests_completed", RunsCsv.metricColumns().get(0));
        assertEquals(runs.size() + 1, rows.size());
        assertEquals(List.of("poisson_small", "0.5", "p2c", "1"), rows.get(1).subList(0, 4));
        List<String> last = rows.get(rows.size() - 1);
        assertEquals(List.of("plain, scenario", "", "p2c", "7"), last.subList(0, 4));
        // the same metric cells as ResultsCsv writes for the run
        Path results = dir.resolve("results.csv");
        ResultsCsv.write(results, List.of(runs.get(runs.size() - 1).toRunResult()));
        List<String> resultRow = CsvFile.read(results).get(1);
        assertEquals(resultRow.subList(3, resultRow.size()), last.subList(4, last.size()));
        assertEquals("NaN", last.get(expected.indexOf("response_mean_s")));
        assertTrue(Files.readString(file).contains("\"plain, scenario\""), "cells with commas are quoted");
    }

    @Test
    void parameterKeysMayNotClashWithColumns() {
        TreeMap<String, String> clash = new TreeMap<>();
        clash.put("policy", "x");
        CampaignRun run = new CampaignRun("s", clash, "p", 1, SampleCampaign.metrics("p", 0.5, 1, 10));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunsCsv.header(List.of(run)));
        assertTrue(e.getMessage().contains("key 'policy' clashes"), e.getMessage());
    }

    @Test
    void summaryAndPairwiseCsvHeaders() throws IOException {
        List<CampaignRun> runs = sample();
        List<Metric> metrics = List.of(Metric.RESPONSE_MEAN, Metric.THROUGHPUT);
        Path summary = dir.resolve("summary.csv");
        SummaryCsv.write(summary, Summaries.compute(runs, metrics, true));
        List<List<String>> rows = CsvFile.read(summary);
        assertEquals(List.of("scenario", "arrivals.utilisation", "policy", "metric", "unit", "n", "n_undefined", "mean",
                "sd", "ci95_low", "ci95_high", "boot_ci95_low", "boot_ci95_high"), rows.get(0));
        assertEquals(1 + 5 * 2, rows.size()); // 2 cells × 2 policies + the plain cell, × 2 metrics
        List<String> plain = rows.stream().filter(r -> r.get(0).equals("plain, scenario")).findFirst().orElseThrow();
        assertEquals(List.of("plain, scenario", "", "p2c", "response_mean_s", "s", "0", "1", "NaN"), plain.subList(0, 8));

        Path pairwise = dir.resolve("pairwise.csv");
        PairwiseCsv.write(pairwise, PairedComparisons.compute(runs, "p2c", metrics));
        List<List<String>> pairs = CsvFile.read(pairwise);
        assertEquals(List.of("scenario", "arrivals.utilisation", "metric", "unit", "lower_is_better", "reference",
                "policy", "pairs", "reference_mean", "policy_mean", "change_pct", "p_t", "p_t_holm", "p_wilcoxon",
                "p_wilcoxon_holm", "wilcoxon_method", "verdict"), pairs.get(0));
        assertEquals(1 + 2 * 2, pairs.size()); // 2 metrics × 2 cells × random vs p2c
        assertEquals(List.of("poisson_small", "0.5", "response_mean_s", "s", "true", "p2c", "random", "2"),
                pairs.get(1).subList(0, 8));
        assertEquals("exact", pairs.get(1).get(15));
    }
}

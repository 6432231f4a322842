package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Summaries and paired comparisons over groups of runs. */
class GroupStatisticsTest {

    private static final String S = "s";

    @Test
    void summaryOfOneToFiveAgainstHandValues() {
        List<CampaignRun> runs = new ArrayList<>();
        for (int seed = 1; seed <= 5; seed++) {
            runs.add(SampleCampaign.run(S, "0.5", "p2c", seed, seed));
        }
        runs.add(SampleCampaign.run(S, "0.5", "p2c", 6, Double.NaN)); // undefined: left out
        List<SummaryRow> rows = Summaries.compute(runs, List.of(Metric.RESPONSE_MEAN), true);
        assertEquals(1, rows.size());
        SummaryRow row = rows.get(0);
        assertEquals(5, row.n());
        assertEquals(1, row.undefined());
        assertEquals(3.0, row.mean(), 1e-12);
        // sd = √(10/4); half-width = t_{0.975,4}·sd/√5 = 2.776445105·1.58113883/2.236067977
        assertEquals(Math.sqrt(2.5), row.sd(), 1e-12);
        assertEquals(3 - 1.9632432, row.ciLow(), 1e-6);
        assertEquals(3 + 1.9632432, row.ciHigh(), 1e-6);
        assertTrue(row.bootLow() < 3 && row.bootHigh() > 3);
        assertTrue(row.bootLow() >= 1 && row.bootHigh() <= 5);
        SummaryRow noBoot = Summaries.compute(runs, List.of(Metric.RESPONSE_MEAN), false).get(0);
        assertTrue(Double.isNaN(noBoot.bootLow()) && Double.isNaN(noBoot.bootHigh()));
    }

    @Test
    void summaryRowsAreOrderedByCellPolicyAndMetricOrder() {
        List<CampaignRun> runs = List.of(
                SampleCampaign.run(S, "10", "b", 1, 1),
                SampleCampaign.run(S, "0.9", "b", 1, 1),
                SampleCampaign.run(S, "0.9", "a", 1, 1));
        List<SummaryRow> rows = Summaries.compute(runs, List.of(Metric.RESPONSE_MEAN, Metric.THROUGHPUT), false);
        List<String> order = rows.stream()
                .map(r -> r.parameters().get(SampleCampaign.KEY) + "/" + r.policy() + "/" + r.metric().columnName())
                .toList();
        assertEquals(List.of("0.9/a/response_mean_s", "0.9/a/throughput_rps", "0.9/b/response_mean_s",
                "0.9/b/throughput_rps", "10/b/response_mean_s", "10/b/throughput_rps"), order);
    }

    @Test
    void pairedComparisonAgainstHandValues() {
        double[] reference = {10, 12, 9, 11, 13};
        double[] policy = {12, 15, 10, 14, 14};
        List<CampaignRun> runs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            runs.add(SampleCampaign.run(S, "0.5", "ref", i + 1, reference[i]));
            runs.add(SampleCampaign.run(S, "0.5", "new", i + 1, policy[i]));
        }
        runs.add(SampleCampaign.run(S, "0.5", "new", 99, 50)); // no reference run with seed 99: unpaired
        List<PairedComparison> comparisons = PairedComparisons.compute(runs, "ref", List.of(Metric.RESPONSE_MEAN));
        assertEquals(1, comparisons.size());
        PairedComparison c = comparisons.get(0);
        assertEquals("new", c.policy());
        assertEquals(5, c.pairs());
        assertEquals(11.0, c.referenceMean(), 1e-12);
        assertEquals(13.0, c.policyMean(), 1e-12);
        assertEquals(200.0 / 11, c.changePercent(), 1e-9);
        assertEquals(1 - Math.sqrt(5.0 / 6.0) * 13.0 / 12.0, c.pT(), 1e-9); // see StatisticsTest
        assertEquals(c.pT(), c.pTHolm(), 1e-15); // a family of one
        assertEquals(PairedTests.WilcoxonMethod.UNDEFINED, c.wilcoxonMethod()); // tied |differences| among 5 pairs: n/a
        assertEquals(PairedComparison.Verdict.WORSE, c.verdict()); // higher response time, p < 0.05
        assertEquals("*", c.significanceMark());
    }

    @Test
    void holmFamilyIsOneMetricAcrossCellsAndPolicies() {
        // two cells × two policies with the same differences: four equal raw p-values
        List<CampaignRun> runs = new ArrayList<>();
        double[] reference = {10, 12, 9, 11, 13};
        double[] policy = {12, 15, 10, 14, 14};
        for (String rho : List.of("0.5", "0.7")) {
            for (int i = 0; i < 5; i++) {
                runs.add(SampleCampaign.run(S, rho, "ref", i + 1, reference[i]));
                runs.add(SampleCampaign.run(S, rho, "a", i + 1, policy[i]));
                runs.add(SampleCampaign.run(S, rho, "b", i + 1, policy[i]));
            }
        }
        List<PairedComparison> comparisons =
                PairedComparisons.compute(runs, "ref", List.of(Metric.RESPONSE_MEAN, Metric.REQUESTS_REJECTED));
        List<PairedComparison> response = comparisons.stream().filter(c -> c.metric() == Metric.RESPONSE_MEAN).toList();
        assertEquals(4, response.size());
        double p = response.get(0).pT();
        // equal p-values: Holm gives 4p, 3p, 2p, p, then the running maximum makes all 4p
        for (PairedComparison c : response) {
            assertEquals(p, c.pT(), 1e-15);
            assertEquals(Math.min(1, 4 * p), c.pTHolm(), 1e-12);
        }
        // rejected requests are all 0: identical, p = 1 (Holm too), verdict same
        for (PairedComparison c : comparisons.stream().filter(c -> c.metric() == Metric.REQUESTS_REJECTED).toList()) {
            assertTrue(c.identical());
            assertEquals(1.0, c.pT(), 0.0);
            assertEquals(1.0, c.pTHolm(), 0.0);
            assertEquals(1.0, c.pWilcoxon(), 0.0);
            assertEquals(1.0, c.pWilcoxonHolm(), 0.0);
            assertEquals(PairedComparison.Verdict.SAME, c.verdict());
            assertEquals("same", c.verdict().text());
            assertEquals("", c.significanceMark());
            assertTrue(Double.isNaN(c.changePercent()), "reference mean 0: relative change undefined");
        }
        assertEquals(List.of("0.5/a", "0.5/b", "0.7/a", "0.7/b"), response.stream()
                .map(c -> c.parameters().get(SampleCampaign.KEY) + "/" + c.policy()).toList());
    }

    @Test
    void zeroVarianceDifferencesGetAVerdictAndLeaveTheOtherHolmValuesAlone() {
        // one cell: "slower" is a real test (p from StatisticsTest), "plus" = ref + 1 and "minus" =
        // ref - 0.5 in every seed (exact differences), "twin" = ref in every seed (identical)
        double[] reference = {10, 12, 9, 11, 13};
        double[] slower = {12, 15, 10, 14, 14};
        List<CampaignRun> runs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            runs.add(SampleCampaign.run(S, "0.5", "ref", i + 1, reference[i]));
            runs.add(SampleCampaign.run(S, "0.5", "slower", i + 1, slower[i]));
            runs.add(SampleCampaign.run(S, "0.5", "plus", i + 1, reference[i] + 1));
            runs.add(SampleCampaign.run(S, "0.5", "minus", i + 1, reference[i] - 0.5));
            runs.add(SampleCampaign.run(S, "0.5", "twin", i + 1, reference[i]));
        }
        java.util.Map<String, PairedComparison> by = new java.util.HashMap<>();
        PairedComparisons.compute(runs, "ref", List.of(Metric.RESPONSE_MEAN)).forEach(c -> by.put(c.policy(), c));
        double p = 1 - Math.sqrt(5.0 / 6.0) * 13.0 / 12.0;
        // equal differences over 5 seeds: the exact sign-flip p 2^-4, no evidence on its own
        for (String policy : List.of("plus", "minus")) {
            PairedComparison c = by.get(policy);
            assertEquals(0.0625, c.pT(), 0.0, policy);
            assertEquals(0.125, c.pTHolm(), 1e-15, policy); // Holm over {p, 0.0625, 0.0625}: 2 x 0.0625
            assertEquals(PairedComparison.Verdict.NOT_SIGNIFICANT, c.verdict(), policy);
            assertTrue(!c.identical(), policy);
        }
        // identical: p = 1, verdict same, not in the family
        PairedComparison twin = by.get("twin");
        assertEquals(PairedComparison.Verdict.SAME, twin.verdict());
        assertEquals(1.0, twin.pT(), 0.0);
        assertEquals(1.0, twin.pTHolm(), 0.0);
        assertEquals(1.0, twin.pWilcoxonHolm(), 0.0);
        // family {p, 0.0625, 0.0625}: Holm gives 3p (with the twin's 1 counted it would be 4p)
        assertEquals(3 * p, by.get("slower").pTHolm(), 1e-12);
        assertEquals(PairedComparison.Verdict.WORSE, by.get("slower").verdict());
    }

    @Test
    void equalDifferencesOverEnoughSeedsGetAVerdictByTheirSign() {
        // 8 seeds, "plus" = ref + 1 and "minus" = ref - 1 every time: sign-flip p 2^-7 each, Holm 2 x 2^-7
        List<CampaignRun> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            runs.add(SampleCampaign.run(S, "0.5", "ref", i + 1, 10 + i));
            runs.add(SampleCampaign.run(S, "0.5", "plus", i + 1, 11 + i));
            runs.add(SampleCampaign.run(S, "0.5", "minus", i + 1, 9 + i));
        }
        java.util.Map<String, PairedComparison> by = new java.util.HashMap<>();
        PairedComparisons.compute(runs, "ref", List.of(Metric.RESPONSE_MEAN)).forEach(c -> by.put(c.policy(), c));
        assertEquals(1.0 / 128, by.get("plus").pT(), 0.0);
        assertEquals(2.0 / 128, by.get("plus").pTHolm(), 1e-15);
        assertEquals("*", by.get("plus").significanceMark());
        assertEquals(PairedComparison.Verdict.WORSE, by.get("plus").verdict()); // lower response time is better
        assertEquals(PairedComparison.Verdict.BETTER, by.get("minus").verdict());
    }

    @Test
    void missingReferenceAndDuplicatesAreClearErrors() {
        List<CampaignRun> runs = List.of(SampleCampaign.run(S, "0.5", "a", 1, 1), SampleCampaign.run(S, "0.5", "b", 1, 2));
        IllegalArgumentException noReference = assertThrows(IllegalArgumentException.class,
                () -> PairedComparisons.compute(runs, "ref", List.of(Metric.RESPONSE_MEAN)));
        assertTrue(noReference.getMessage().contains("'ref' did not run; policies in the runs: [a, b]"),
                noReference.getMessage());
        List<CampaignRun> duplicate = List.of(SampleCampaign.run(S, "0.5", "a", 1, 1), SampleCampaign.run(S, "0.5", "a", 1, 2));
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class,
                () -> Summaries.compute(duplicate, List.of(Metric.RESPONSE_MEAN), false));
        assertTrue(dup.getMessage().contains("duplicate run s {arrivals.utilisation=0.5} a seed 1"), dup.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Summaries.compute(runs, List.of(), false));
    }

    @Test
    void parameterValuesSortAsNumbersThenText() {
        List<String> values = new ArrayList<>(List.of("10", "abc", "0.9", "0.70", "0.7", "-1"));
        values.sort(ParameterOrder.VALUES);
        assertEquals(List.of("-1", "0.7", "0.70", "0.9", "10", "abc"), values);
        assertEquals(Metric.RESPONSE_P99, Metric.byColumnName("response_p99_s"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Metric.byColumnName("x"));
        assertTrue(unknown.getMessage().contains("'x' is not known; allowed: throughput_rps,"), unknown.getMessage());
    }
}

package org.loadlab.studies.stickylazy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.series.Series;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.PolicyColours;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.balancer.policy.StickyCache;

/**
 * The threshold sweep's charts name every series once: one strict Po2C reference per workload;
 * the bar charts draw each policy in its campaign-report colour, error bars included.
 */
class StickyLazyPlotsTest {

    @Test
    void strictPo2cIsOneLegendEntryPerWorkloadWhateverTheCreditRules() {
        List<StickyLazyAnalysis.RunCheck> runs = new ArrayList<>();
        List<StickyLazyAnalysis.PeakPair> pairs = new ArrayList<>();
        for (String scenario : List.of("sticky-lazy-light", "sticky-lazy-heavy")) {
            for (StickyCache.Credit credit : StickyCache.Credit.values()) {
                for (int threshold : new int[] {1, 2, 4}) {
                    for (long seed = 1; seed <= 2; seed++) {
                        TreeMap<String, String> parameters = new TreeMap<>(Map.of(StickyLazyAnalysis.THRESHOLD_KEY,
                                Integer.toString(threshold), StickyLazyAnalysis.CREDIT_KEY, credit.key()));
                        runs.add(new StickyLazyAnalysis.RunCheck(scenario, parameters, "sticky-lazy", seed, threshold, credit,
                                1000, 800, 0.8, 200, 500, 300, 100, 50, 400, 0.6, 0.9, 0.85, 0.8, true, true, 20 + threshold));
                        pairs.add(new StickyLazyAnalysis.PeakPair(scenario, parameters, "sticky-lazy", seed, threshold,
                                20 + threshold, 19, 1 + threshold, true));
                    }
                }
            }
        }
        StickyLazyAnalysis.Result result = new StickyLazyAnalysis.Result(runs, pairs, List.of(), List.of(), Map.of());
        List<XYChart> charts = StickyLazyPlots.thresholdCharts(result);
        XYChart peak = charts.get(1);
        XYChart trade = charts.get(2);
        assertEquals(List.of("light credit T-q sticky-lazy", "light credit T-q-1 sticky-lazy", "heavy credit T-q sticky-lazy",
                "heavy credit T-q-1 sticky-lazy", "light strict-po2c", "heavy strict-po2c"), legend(trade));
        assertEquals(List.of("light credit T-q sticky-lazy", "light credit T-q-1 sticky-lazy", "heavy credit T-q sticky-lazy",
                "heavy credit T-q-1 sticky-lazy", "light strict-po2c", "light strict-po2c + T", "heavy strict-po2c",
                "heavy strict-po2c + T"), legend(peak));
    }

    @Test
    void barsHaveEachPolicysReportColourAndErrorBarsOfNoOtherPolicy() {
        List<String> policies = List.of("random", "round-robin", "strict-po2c", "sticky-lazy", "sticky-lazy-T-q-1");
        List<CampaignRun> runs = new ArrayList<>();
        for (String scenario : List.of("sticky-lazy-light", "sticky-lazy-heavy")) {
            for (String policy : policies) {
                for (long seed = 1; seed <= 3; seed++) {
                    runs.add(new CampaignRun(scenario, new TreeMap<>(), policy, seed, metrics(0.1 * seed)));
                }
            }
        }
        StickyLazyAnalysis.Result result = new StickyLazyAnalysis.Result(List.of(), List.of(),
                List.of("sticky-lazy-light", "sticky-lazy-heavy"), runs, Map.of());
        Map<String, Color> report = PolicyColours.of(policies);
        for (StickyLazyPlots.MetricSpec m : StickyLazyPlots.METRICS) {
            CategoryChart chart = StickyLazyPlots.barChart(result, m);
            assertEquals(policies, List.copyOf(chart.getSeriesMap().keySet()), m.file());
            assertFalse(chart.getStyler().isErrorBarsColorSeriesColor(), m.file());
            for (String policy : policies) {
                CategorySeries s = chart.getSeriesMap().get(policy);
                assertEquals(report.get(policy), s.getFillColor(), m.file() + " " + policy);
                assertEquals(report.get(policy), s.getLineColor(), m.file() + " " + policy);
                assertNotEquals(chart.getStyler().getErrorBarsColor(), report.get(policy), m.file() + " " + policy);
            }
        }
    }

    /** A run of three completions with response time {@code response} and half of it waited. */
    private static RunMetrics metrics(double response) {
        RunRecorder recorder = new RunRecorder(2, 0.0);
        for (int i = 0; i < 3; i++) {
            recorder.arrived(0.5);
            recorder.decision(0.5, 1);
        }
        for (int i = 0; i < 3; i++) {
            double now = 1.0 + i * 0.01;
            recorder.serviceStarted(now, 0, response / 2);
            recorder.completed(now, now - response, 0);
        }
        return recorder.finish(3.0);
    }

    private static List<String> legend(XYChart chart) {
        return chart.getSeriesMap().values().stream().filter(Series::isShowInLegend).map(Series::getName).toList();
    }
}

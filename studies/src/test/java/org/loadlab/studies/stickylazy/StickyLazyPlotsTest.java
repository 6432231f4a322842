package org.loadlab.studies.stickylazy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.series.Series;
import org.loadlab.balancer.policy.StickyCache;

/** The threshold sweep's charts name every series once: one strict Po2C reference per workload. */
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

    private static List<String> legend(XYChart chart) {
        return chart.getSeriesMap().values().stream().filter(Series::isShowInLegend).map(Series::getName).toList();
    }
}

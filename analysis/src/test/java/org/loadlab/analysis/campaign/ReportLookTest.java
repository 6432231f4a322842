package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a reader sees: a policy keeps its look in every chart whatever ran beside it; metrics
 * that are zero in every run get no chart; long comparison tables fold; intervals stop at 0;
 * the charts of a {@code simulate} directory and of a comparison hold the expected series.
 */
class ReportLookTest {
    @TempDir
    Path tmp;

    @Test
    void aPolicyHasOneLookInEveryChartAndKnownPoliciesAllDiffer() {
        assertEquals(ChartStyle.look("p2c"), ChartStyle.look("p2c"));
        Set<String> seen = new HashSet<>();
        for (String p : ChartStyle.KNOWN_POLICIES) {
            ChartStyle.Look look = ChartStyle.look(p);
            assertTrue(seen.add(look.colour() + "/" + look.dash()), "two known policies look alike: " + p);
        }
        assertEquals(ChartStyle.look("my-variant"), ChartStyle.look("my-variant"), "unknown names: stable too");
        assertTrue(ChartStyle.width(0, 3) > ChartStyle.width(2, 3), "the first-drawn line is widest");
    }

    @Test
    void zeroMetricsAreNotPlottedAndLongComparisonsFold() throws IOException {
        List<CampaignRun> runs = new ArrayList<>();
        List<String> utilisations = List.of("0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7");
        for (CampaignRun r : SampleCampaign.runs(List.of("p2c", "random", "jsq"), utilisations, 3, 50)) {
            runs.add(new CampaignRun(r.scenario(), r.parameters(), r.policy(), r.seed(),
                    SampleCampaign.with(r.metrics(), r.metrics().responseMean(), 0)));
        }
        ReportMeta meta = new ReportMeta("look", "", "p2c", List.of(SampleCampaign.KEY), List.of(),
                List.of(Metric.RESPONSE_MEAN, Metric.REQUESTS_REJECTED), false);
        Path dir = tmp.resolve("c");
        CampaignReport.write(dir, meta, runs);
        try (var files = Files.list(dir.resolve("plots"))) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertTrue(names.stream().noneMatch(n -> n.contains("requests_rejected")), "no chart of a metric zero everywhere: " + names);
            assertTrue(names.stream().anyMatch(n -> n.startsWith("box-response_mean_s")), names.toString());
            assertTrue(names.stream().noneMatch(n -> n.endsWith(".svg")), "SVG is opt-in");
        }
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("Zero in every run of poisson_small, so not plotted: rejected requests."), "said instead");
        // 7 cells x 2 other policies = 14 rows > 12: the comparison table folds
        assertTrue(html.contains("<details><summary>Show the table (14 rows)</summary>"), "long tables fold");
    }

    @Test
    void sweepIntervalsStopAtZero() throws IOException {
        List<CampaignRun> runs = new ArrayList<>();
        // widely spread values near 0: the t interval reaches below 0
        double[] values = {0.01, 0.5, 0.02};
        for (String rho : List.of("0.5", "0.9")) {
            for (int s = 0; s < 3; s++) {
                runs.add(SampleCampaign.run(SampleCampaign.SCENARIO, rho, "random", s + 1, values[s]));
            }
        }
        Plot plot = SweepPlot.write(tmp, runs, SampleCampaign.SCENARIO, SampleCampaign.KEY, new java.util.TreeMap<>(),
                Metric.RESPONSE_MEAN, List.of()).orElseThrow();
        BufferedImage image = ImageIO.read(plot.png().toFile());
        assertTrue(image.getWidth() > 0);
        assertEquals(List.of("random"), plot.legend(), "the interval bars are not legend entries");
        assertEquals(0.0, SweepPlot.interval(0.177, 0.6)[0], "cut at 0");
        assertEquals(0.777, SweepPlot.interval(0.177, 0.6)[1], 1e-12);
        assertEquals(0.1, SweepPlot.interval(0.3, 0.2)[0], 1e-12, "not cut when above 0");
    }

    @Test
    void plotsOfASimulateDirectoryHoldOneSeriesPerPolicy() throws IOException {
        List<CampaignRun> runs = new ArrayList<>();
        for (CampaignRun r : SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5"), 2, 50)) {
            runs.add(new CampaignRun(r.scenario(), new java.util.TreeMap<>(), r.policy(), r.seed(), r.metrics()));
        }
        List<Plot> plots = ResultPlots.write(tmp.resolve("plots"), runs, false);
        List<String> names = plots.stream().map(p -> p.png().getFileName().toString()).toList();
        assertEquals(List.of("cdf-poisson_small.png", "queue-poisson_small.png", "share-poisson_small.png"), names);
        for (Plot p : plots) {
            assertTrue(ImageIO.read(p.png().toFile()).getWidth() == ChartStyle.WIDTH, p.png().toString());
        }
        assertEquals(List.of("p2c (100 req.)", "random (100 req.)"), plots.get(0).legend());
        assertEquals(List.of("p2c (seed 1)", "random (seed 1)"), plots.get(1).legend().subList(0, 2));
        assertEquals(List.of("p2c", "random", "equal share 1/n"), plots.get(2).legend());
    }

    @Test
    void aComparisonPairsTheSameSeedsAndDrawsBothSides() throws IOException {
        List<CampaignRun> a = SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5"), 6, 50);
        List<CampaignRun> b = new ArrayList<>();
        for (CampaignRun r : a) {
            b.add(new CampaignRun(r.scenario(), r.parameters(), r.policy(), r.seed(),
                    SampleCampaign.with(r.metrics(), r.metrics().responseMean() * 1.5, 0)));
        }
        Comparison c = Comparison.of(a, b, List.of(Metric.RESPONSE_MEAN));
        assertEquals(2, c.rows().size());
        Comparison.Row p2c = c.rows().stream().filter(r -> r.policy().equals("p2c")).findFirst().orElseThrow();
        assertEquals(6, p2c.pairs());
        assertEquals(50.0, p2c.changePercent(), 1e-9);
        assertTrue(p2c.pT() < 0.001, "every pair 50% worse: " + p2c.pT());
        assertEquals(PairedTests.WilcoxonMethod.EXACT, p2c.wilcoxon().method());
        assertEquals(2.0 / 64, p2c.wilcoxon().p(), 1e-12);
        String table = c.table("base", "slow");
        assertTrue(table.contains("+50.0%") && table.contains("A = base"), table);
        List<Plot> plots = c.plots(tmp, "base", "slow", true);
        assertEquals(1, plots.size());
        assertEquals(List.of("A: base", "B: slow"), plots.get(0).legend());
        assertTrue(Files.size(plots.get(0).svg()) > 0 && ImageIO.read(plots.get(0).png().toFile()) != null);
        c.writeCsv(tmp.resolve("compare.csv"));
        assertTrue(Files.readString(tmp.resolve("compare.csv")).startsWith("group,policy,metric,a_n,a_mean"));
    }
}

package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * What a fresh reader needs to tell a chart's series apart: no two series of one chart share
 * colour, marker and line pattern; a policy that dwarfs the others puts the axis on a log scale
 * (and the axis title says so); every policy of a queue chart stays visible.
 */
class ChartLegibilityTest {
    @TempDir
    Path tmp;

    /** The load-sharing campaign's twelve variants: nine protocols and three with a transfer cost. */
    private static final List<String> LOAD_SHARING = List.of("above-average", "none", "receiver", "receiver-cost",
            "sender-random", "sender-shortest", "sender-threshold", "sender-threshold-cost", "stable-sender",
            "stable-symmetric", "symmetric", "symmetric-cost");

    @Test
    void upToTwelveSeriesHaveTwelveColoursAndNoLookRepeats() {
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(LOAD_SHARING, true);
        assertEquals(LOAD_SHARING, new ArrayList<>(looks.keySet()), "in the order given");
        assertEquals(12, looks.values().stream().map(ChartStyle.Look::colour).distinct().count(), looks.toString());
        // the cost variants' hashes collided with stable-sender and none before: now each is unique
        assertEquals(12, looks.values().stream().map(l -> List.of(l.colour(), l.marker(), l.dash())).distinct().count());
        // a marker drawn twice is drawn with two line patterns
        Set<List<Object>> markerDash = new HashSet<>();
        for (ChartStyle.Look l : looks.values()) {
            assertTrue(markerDash.add(List.of(l.marker(), l.dash())), "marker and pattern repeat: " + looks);
        }
    }

    @Test
    void knownPoliciesKeepTheirLookBesideVariants() {
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(List.of("p3c", "p2c", "my-variant", "random"), true);
        assertEquals(ChartStyle.look("p2c"), looks.get("p2c"));
        assertEquals(ChartStyle.look("random"), looks.get("random"));
        assertEquals(4, looks.values().stream().map(ChartStyle.Look::colour).distinct().count());
    }

    @Test
    void manySeriesNeverRepeatALook() {
        List<String> names = new ArrayList<>(ChartStyle.KNOWN_POLICIES);
        for (int i = 0; i < 16; i++) {
            names.add("variant-" + i);
        }
        Map<String, ChartStyle.Look> withMarkers = ChartStyle.looks(names, true);
        assertEquals(names.size(), withMarkers.values().stream().map(l -> List.of(l.colour(), l.marker(), l.dash()))
                .distinct().count());
        // without markers (CDF, queue), colour and line pattern alone tell the series apart
        Map<String, ChartStyle.Look> lines = ChartStyle.looks(names, false);
        assertEquals(names.size(), lines.values().stream().map(l -> List.of(l.colour(), l.dash())).distinct().count());
        // known policies sharing a preferred colour (random and asmf-no-multiresource) differ in one chart
        Map<String, ChartStyle.Look> pair = ChartStyle.looks(List.of("random", "asmf-no-multiresource"), true);
        assertFalse(pair.get("random").colour().equals(pair.get("asmf-no-multiresource").colour()));
    }

    @Test
    void sweepSeriesOfOneChartAllLookDifferent() {
        List<CampaignRun> runs = new ArrayList<>();
        for (String policy : LOAD_SHARING) {
            for (String rho : List.of("0.5", "0.9")) {
                runs.add(SampleCampaign.run(SampleCampaign.SCENARIO, rho, policy, 1, rho.equals("0.5") ? 1.5 : 2.5));
            }
        }
        XYChart chart = SweepPlot.chart(runs, SampleCampaign.SCENARIO, SampleCampaign.KEY, new TreeMap<>(),
                Metric.RESPONSE_MEAN, List.of()).orElseThrow();
        Set<List<Object>> seen = new HashSet<>();
        int inLegend = 0;
        for (XYSeries s : chart.getSeriesMap().values()) {
            if (s.isShowInLegend()) {
                inLegend++;
                float[] dash = s.getLineStyle().getDashArray();
                assertTrue(seen.add(List.of(s.getLineColor(), s.getMarker().getClass(), Arrays.toString(dash))),
                        s.getName() + " looks like an earlier series");
            }
        }
        assertEquals(12, inLegend);
        assertFalse(chart.getStyler().isYAxisLogarithmic(), "1.5 to 2.5: a linear axis");
    }

    @Test
    void aSweepSpanningMoreThanADecadeIsDrawnOnALogAxis() {
        List<CampaignRun> runs = new ArrayList<>();
        for (String rho : List.of("0.5", "0.9")) {
            runs.add(SampleCampaign.run(SampleCampaign.SCENARIO, rho, "none", 1, rho.equals("0.5") ? 2 : 20));
            runs.add(SampleCampaign.run(SampleCampaign.SCENARIO, rho, "symmetric", 1, rho.equals("0.5") ? 1.4 : 1.9));
        }
        XYChart chart = SweepPlot.chart(runs, SampleCampaign.SCENARIO, SampleCampaign.KEY, new TreeMap<>(),
                Metric.RESPONSE_MEAN, List.of(new AnalyticCurve("M/M/1", r -> 1 / (1 - r)))).orElseThrow();
        assertTrue(chart.getStyler().isYAxisLogarithmic(), "20 / 1.4 > 10");
        assertTrue(chart.getYAxisTitle().endsWith("(log scale)"), chart.getYAxisTitle());
    }

    @Test
    void zerosBesideASeriesThatDwarfsTheOthersStillGiveALogAxisWithTheZerosOnItsBottomLine() throws IOException {
        // The load-sharing campaign's polls per task: none and sender-random never poll (0),
        // above-average polls over 100 times per task, sender-threshold 0.25 to 2. On a linear axis
        // (which the zeros used to force) every protocol but above-average lay flat on 0.
        // (The metric is only the runs' carrier here: the chart treats every metric alike.)
        Map<String, double[]> means = new TreeMap<>(Map.of("none", new double[] {0, 0, 0}, "sender-random",
                new double[] {0, 0, 0}, "above-average", new double[] {140, 110, 85}, "sender-threshold",
                new double[] {0.25, 0.9, 2.0}, "receiver-cost", new double[] {6, 2.5, 0}));
        List<String> rhos = List.of("0.5", "0.8", "0.95");
        List<CampaignRun> runs = new ArrayList<>();
        means.forEach((policy, y) -> {
            for (int i = 0; i < rhos.size(); i++) {
                runs.add(SampleCampaign.run(SampleCampaign.SCENARIO, rhos.get(i), policy, 1, y[i]));
            }
        });
        XYChart chart = SweepPlot.chart(runs, SampleCampaign.SCENARIO, SampleCampaign.KEY, new TreeMap<>(),
                Metric.RESPONSE_MEAN, List.of()).orElseThrow();
        assertTrue(chart.getStyler().isYAxisLogarithmic(), "140 against 0.25: the zeros do not decide the scale");
        assertTrue(chart.getYAxisTitle().endsWith("(log scale)"), chart.getYAxisTitle());
        double zeroLine = chart.getStyler().getYAxisMin();
        assertEquals(0.075, zeroLine, 1e-12, "below 0.1, the power of 10 under half the lowest positive mean, and no tick");
        // Every policy is named in the legend once: the all-zero ones as "(0)".
        List<String> legend = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend).map(XYSeries::getName).toList();
        assertEquals(List.of("above-average", "none (0)", "receiver-cost", "sender-random (0)", "sender-threshold"), legend);
        // The zeros are markers on the bottom line, without a line; the ones of one x stand apart.
        XYSeries none = chart.getSeriesMap().get("none (0)");
        XYSeries random = chart.getSeriesMap().get("sender-random (0)");
        XYSeries costZero = chart.getSeriesMap().get("receiver-cost = 0");
        for (XYSeries z : List.of(none, random, costZero)) {
            assertEquals(XYSeries.XYSeriesRenderStyle.Scatter, z.getXYSeriesRenderStyle(), z.getName());
            assertTrue(Arrays.stream(z.getYData()).allMatch(y -> y == zeroLine), z.getName());
        }
        assertEquals(3, none.getXData().length);
        assertEquals(1, costZero.getXData().length, "receiver-cost is 0 at 0.95 only");
        assertEquals(2, chart.getSeriesMap().get("receiver-cost").getXData().length, "its line runs through its positive means");
        for (int k = 0; k < 3; k++) {
            double rho = Double.parseDouble(rhos.get(k));
            assertTrue(none.getXData()[k] != random.getXData()[k] && Math.abs(none.getXData()[k] - rho) < 0.02
                    && Math.abs(random.getXData()[k] - rho) < 0.02, "coinciding zeros are moved a little apart: "
                    + Arrays.toString(none.getXData()) + " " + Arrays.toString(random.getXData()));
        }
        // (The note on the bottom line, SweepPlot.ZERO_NOTE, is an annotation XChart does not read back.)
        Plot plot = SweepPlot.write(tmp, runs, SampleCampaign.SCENARIO, SampleCampaign.KEY, new TreeMap<>(), Metric.RESPONSE_MEAN,
                List.of()).orElseThrow();
        assertTrue(ImageIO.read(plot.png().toFile()).getWidth() > 0);
    }

    @Test
    void aBoxThatDwarfsTheOthersPutsTheAxisOnALogScale() throws IOException {
        List<CampaignRun> runs = new ArrayList<>();
        double[][] values = {{0.2, 0.22, 0.25}, {1.0, 1.1, 1.2}, {25, 26, 29}};
        List<String> policies = List.of("asmf", "p2c", "random");
        for (int p = 0; p < 3; p++) {
            for (int s = 0; s < 3; s++) {
                runs.add(SampleCampaign.run(SampleCampaign.SCENARIO, null, policies.get(p), s + 1, values[p][s]));
            }
        }
        CellRuns cell = CellRuns.select(runs, SampleCampaign.SCENARIO, new TreeMap<>());
        XYChart chart = BoxPlot.chart(cell, Metric.RESPONSE_MEAN).orElseThrow();
        assertTrue(chart.getStyler().isYAxisLogarithmic(), "26 s against 0.22 s");
        assertTrue(chart.getYAxisTitle().endsWith("(log scale)"), chart.getYAxisTitle());
        Plot plot = BoxPlot.write(tmp, runs, SampleCampaign.SCENARIO, new TreeMap<>(), Metric.RESPONSE_MEAN).orElseThrow();
        assertTrue(ImageIO.read(plot.png().toFile()).getWidth() > 0);
        // comparable values stay on a linear axis
        List<CampaignRun> close = runs.stream().filter(r -> !r.policy().equals("random")).toList();
        XYChart linear = BoxPlot.chart(CellRuns.select(close, SampleCampaign.SCENARIO, new TreeMap<>()), Metric.RESPONSE_MEAN)
                .orElseThrow();
        assertFalse(linear.getStyler().isYAxisLogarithmic(), "1.1 s against 0.22 s");
        assertFalse(linear.getYAxisTitle().contains("log"), linear.getYAxisTitle());
    }

    @Test
    void everyPolicyOfAQueueChartHasItsOwnPanelAndShows() throws IOException {
        List<String> policies = List.of("asmf", "gmsr", "least-queue", "p2c", "random");
        List<CampaignRun> runs = new ArrayList<>();
        for (String p : policies) {
            // identical traces: overlaid in one chart, the last drawn would hide all the others
            CampaignRun r = SampleCampaign.runs(List.of("p2c"), List.of("0.5"), 1, 50).get(0);
            runs.add(new CampaignRun(r.scenario(), new TreeMap<>(), p, r.seed(), r.metrics()));
        }
        Plot plot = QueuePlot.write(tmp, runs, SampleCampaign.SCENARIO, new TreeMap<>()).orElseThrow();
        BufferedImage image = ImageIO.read(plot.png().toFile());
        assertEquals(ChartStyle.WIDTH, image.getWidth());
        assertEquals(ChartFiles.PANEL_TITLE_HEIGHT + 3 * QueuePlot.PANEL_HEIGHT, image.getHeight(), "5 panels, 2 per row");
        assertEquals(List.of("asmf (seed 1)", "gmsr (seed 1)", "least-queue (seed 1)", "p2c (seed 1)", "random (seed 1)",
                "end of warm-up"), plot.legend());
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(policies, false);
        for (int i = 0; i < policies.size(); i++) {
            Color colour = looks.get(policies.get(i)).colour();
            int left = (i % 2) * QueuePlot.PANEL_WIDTH;
            int top = ChartFiles.PANEL_TITLE_HEIGHT + (i / 2) * QueuePlot.PANEL_HEIGHT;
            assertTrue(pixels(image, colour, left, top, QueuePlot.PANEL_WIDTH, QueuePlot.PANEL_HEIGHT) > 100,
                    policies.get(i) + "'s line shows in its panel");
        }
    }

    /** Pixels of exactly this colour in a rectangle of the image. */
    private static int pixels(BufferedImage image, Color colour, int left, int top, int width, int height) {
        int count = 0;
        for (int y = top; y < Math.min(image.getHeight(), top + height); y++) {
            for (int x = left; x < Math.min(image.getWidth(), left + width); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == (colour.getRGB() & 0xFFFFFF)) {
                    count++;
                }
            }
        }
        return count;
    }
}

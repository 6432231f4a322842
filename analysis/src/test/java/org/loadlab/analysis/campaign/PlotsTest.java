package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every chart kind writes a valid PNG and SVG; charts without data are skipped. */
class PlotsTest {

    private static List<CampaignRun> runs;

    @TempDir
    Path dir;

    @BeforeAll
    static void sample() {
        runs = SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5", "0.9"), 3, 200);
    }

    private static SortedMap<String, String> rho(String value) {
        SortedMap<String, String> parameters = new TreeMap<>();
        parameters.put(SampleCampaign.KEY, value);
        return parameters;
    }

    /** Checks both files and returns the decoded PNG. */
    static BufferedImage check(Plot plot) throws IOException {
        assertTrue(Files.size(plot.png()) > 1000, plot.png() + " is too small");
        BufferedImage image = ImageIO.read(plot.png().toFile());
        assertNotNull(image, plot.png() + " is not a readable image");
        assertEquals(ChartStyle.WIDTH, image.getWidth());
        assertEquals(ChartStyle.HEIGHT, image.getHeight());
        String svg = Files.readString(plot.svg());
        assertTrue(svg.startsWith("<?xml") && svg.contains("<svg") && svg.strip().endsWith("</svg>"), plot.svg().toString());
        return image;
    }

    @Test
    void boxPlotPerMetricAndCell() throws IOException {
        Plot plot = BoxPlot.write(dir, runs, SampleCampaign.SCENARIO, rho("0.9"), Metric.RESPONSE_MEAN).orElseThrow();
        assertEquals(dir.resolve("box-response_mean_s-poisson_small_arrivals.utilisation-0.9.png"), plot.png());
        assertEquals("mean response time by policy — poisson_small, arrivals.utilisation=0.9", plot.title());
        check(plot);
        assertEquals(Optional.empty(), BoxPlot.write(dir, runs, "no-such-scenario", rho("0.9"), Metric.RESPONSE_MEAN));
    }

    @Test
    void boxPlotDrawsEachPolicyInItsOwnColour() throws IOException {
        BufferedImage image = check(BoxPlot.write(dir, runs, SampleCampaign.SCENARIO, rho("0.9"), Metric.RESPONSE_MEAN)
                .orElseThrow());
        // policies left to right in name order (p2c, random), each in the colour it has in every chart
        double p2c = meanX(image, ChartStyle.look("p2c").colour());
        double random = meanX(image, ChartStyle.look("random").colour());
        assertTrue(p2c > 0 && random > p2c, "p2c's box left of random's: " + p2c + ", " + random);
        assertTrue(meanX(image, java.awt.Color.BLUE) < 0 && meanX(image, java.awt.Color.RED) < 0,
                "no box in XChart's fixed blue and red");
    }

    @Test
    void boxNumbersAgainstHandValues() {
        // R-7 quartiles of 1, 2, 3, 4, 100: 2, 3, 4; IQR 2, so the whiskers end at max(2 - 3, 1) = 1
        // and min(4 + 3, 100) = 7, and 100 is an outlier
        BoxPlot.Box box = BoxPlot.Box.of(new double[] {100, 3, 1, 4, 2});
        assertEquals(2, box.q1(), 1e-12);
        assertEquals(3, box.median(), 1e-12);
        assertEquals(4, box.q3(), 1e-12);
        assertEquals(1, box.lower(), 1e-12);
        assertEquals(7, box.upper(), 1e-12);
        assertEquals(List.of(100.0), java.util.Arrays.stream(box.outliers()).boxed().toList());
        // interpolated: 1..4 has Q1 = 1 + 0.75 = 1.75 and Q3 = 3.25 (R's quantile(type = 7))
        BoxPlot.Box even = BoxPlot.Box.of(new double[] {1, 2, 3, 4});
        assertEquals(1.75, even.q1(), 1e-12);
        assertEquals(2.5, even.median(), 1e-12);
        assertEquals(3.25, even.q3(), 1e-12);
        assertEquals(0, even.outliers().length);
    }

    /** Mean x of the pixels of exactly this colour, or -1 when there is none. */
    private static double meanX(BufferedImage image, java.awt.Color colour) {
        long sum = 0;
        long count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == (colour.getRGB() & 0xFFFFFF)) {
                    sum += x;
                    count++;
                }
            }
        }
        return count == 0 ? -1 : (double) sum / count;
    }

    @Test
    void sweepPlotWithAnalyticCurve() throws IOException {
        AnalyticCurve mm1 = new AnalyticCurve("M/M/1", r -> 0.1 / (1 - r));
        Plot plot = SweepPlot.write(dir, runs, SampleCampaign.SCENARIO, SampleCampaign.KEY, new TreeMap<>(),
                Metric.RESPONSE_MEAN, List.of(mm1)).orElseThrow();
        assertEquals("sweep-response_mean_s-poisson_small-vs-arrivals.utilisation.png", plot.png().getFileName().toString());
        check(plot);
        assertTrue(Files.readString(plot.svg()).length() > 0);
        assertEquals(List.of(new TreeMap<String, String>()),
                new ArrayList<>(SweepPlot.fixedCombinations(runs, SampleCampaign.SCENARIO, SampleCampaign.KEY)));
        // one value only, or a non-numeric value: no chart
        List<CampaignRun> one = runs.stream().filter(r -> r.parameters().get(SampleCampaign.KEY).equals("0.5")).toList();
        assertEquals(Optional.empty(), SweepPlot.write(dir, one, SampleCampaign.SCENARIO, SampleCampaign.KEY,
                new TreeMap<>(), Metric.RESPONSE_MEAN, List.of()));
        List<CampaignRun> text = new ArrayList<>(runs);
        text.add(SampleCampaign.run(SampleCampaign.SCENARIO, "high", "p2c", 1, 1.0));
        assertEquals(Optional.empty(), SweepPlot.write(dir, text, SampleCampaign.SCENARIO, SampleCampaign.KEY,
                new TreeMap<>(), Metric.RESPONSE_MEAN, List.of()));
    }

    @Test
    void cdfAndQueuePlots() throws IOException {
        Plot cdf = CdfPlot.write(dir, runs, SampleCampaign.SCENARIO, rho("0.5")).orElseThrow();
        assertEquals("cdf-poisson_small_arrivals.utilisation-0.5.png", cdf.png().getFileName().toString());
        check(cdf);
        Plot queue = QueuePlot.write(dir, runs, SampleCampaign.SCENARIO, rho("0.5")).orElseThrow();
        assertEquals("queue-poisson_small_arrivals.utilisation-0.5.png", queue.png().getFileName().toString());
        BufferedImage image = check(queue);
        assertTrue(distinctColours(image) > 5, "a chart with coloured lines");
        assertEquals(Optional.empty(), CdfPlot.write(dir, runs, SampleCampaign.SCENARIO, rho("0.6")));
        assertEquals(Optional.empty(), QueuePlot.write(dir, runs, SampleCampaign.SCENARIO, rho("0.6")));
    }

    @Test
    void plotNamesAreSafeAndDistinct() {
        assertEquals("poisson_small", PlotNames.part("poisson_small"));
        String spaced = PlotNames.part("bursty, medium");
        assertTrue(spaced.matches("bursty--medium-[0-9a-f]{8}"), spaced);
        assertTrue(!PlotNames.part("a b").equals(PlotNames.part("a-b")));
        assertTrue(!PlotNames.part("a/b").contains("/"));
    }

    private static int distinctColours(BufferedImage image) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}

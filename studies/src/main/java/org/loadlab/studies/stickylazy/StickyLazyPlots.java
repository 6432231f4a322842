package org.loadlab.studies.stickylazy;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.PolicyColours;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.stats.Summary;

/**
 * The seed 001 figures of a campaign, as PNG and SVG under {@code DIR/plots/}:
 * <ul>
 *   <li>without a threshold sweep: one grouped bar chart per metric (probes per request, peak
 *       queue depth, mean wait, mean and p99 response time), workloads on the x axis, one bar
 *       per policy in its own colour (mean over seeds, 95% CI error bars): the seed's four figures;</li>
 *   <li>with a sweep over {@code policy.sticky-lazy.threshold}: probes per request against T
 *       (with the seed's formula at the measured t and the 1/T floor), peak queue against T
 *       (with strict Po2C and strict Po2C + T), and the trade-off probes per request against
 *       peak queue.</li>
 * </ul>
 * Source: XChart 3.8.8; Okabe–Ito palette.
 */
final class StickyLazyPlots {
    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private static final List<Color> PALETTE = List.of(new Color(0x00, 0x72, 0xB2), new Color(0xD5, 0x5E, 0x00),
            new Color(0x00, 0x9E, 0x73), new Color(0xCC, 0x79, 0xA7), new Color(0xE6, 0x9F, 0x00),
            new Color(0x56, 0xB4, 0xE9), new Color(0x00, 0x00, 0x00), new Color(0x99, 0x88, 0x33));
    /** Colour of the bar charts' 95% CI bars, visible on every policy's fill. */
    private static final Color ERROR_BARS = new Color(0x33, 0x33, 0x33);
    /** Colour of the strict Po2C references (one per workload, told apart by marker). */
    private static final Color REFERENCE = new Color(0x55, 0x55, 0x55);
    private static final List<Marker> REFERENCE_MARKERS = List.of(SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS);
    private static final BasicStroke SOLID = new BasicStroke(2f);
    private static final BasicStroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {8f, 5f}, 0f);
    private static final BasicStroke DOTTED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {2f, 4f}, 0f);

    record MetricSpec(String file, String title, String axis, ToDoubleFunction<RunMetrics> value) {
    }

    static final List<MetricSpec> METRICS = List.of(
            new MetricSpec("probes", "Probes per request", "probes / request", RunMetrics::queriesPerDecision),
            new MetricSpec("peak-queue", "Peak queue depth (largest q_j)", "requests", m -> m.maxQueue()),
            new MetricSpec("wait", "Mean waiting time", "seconds", RunMetrics::waitMean),
            new MetricSpec("response", "Mean response time", "seconds", RunMetrics::responseMean),
            new MetricSpec("response-p99", "p99 response time", "seconds", RunMetrics::responseP99));

    private StickyLazyPlots() {
    }

    /**
     * @param plotsDir {@code DIR/plots}
     * @param r the analysis result
     * @return the written PNG files relative to DIR, e.g. {@code plots/sticky-lazy-probes.png}
     * @throws IOException if a file cannot be written
     */
    static List<String> write(Path plotsDir, StickyLazyAnalysis.Result r) throws IOException {
        List<String> out = new ArrayList<>();
        boolean sweep = r.campaignRuns().stream().anyMatch(c -> c.parameters().containsKey(StickyLazyAnalysis.THRESHOLD_KEY));
        if (sweep) {
            out.addAll(thresholdPlots(plotsDir, r));
        } else {
            for (MetricSpec m : METRICS) {
                out.add(bars(plotsDir, r, m));
            }
        }
        return out;
    }

    private static String bars(Path dir, StickyLazyAnalysis.Result r, MetricSpec m) throws IOException {
        return save(barChart(r, m), dir, "sticky-lazy-" + m.file());
    }

    /**
     * One of the seed's bar charts: a bar per policy in the policy's own colour
     * ({@link PolicyColours}, as in the campaign report beside it), its 95% CI bar in dark grey
     * (XChart draws a series-coloured error bar in the series' line colour, which a bar's fill
     * colour does not set: the bars got another policy's colour).
     */
    static CategoryChart barChart(StickyLazyAnalysis.Result r, MetricSpec m) {
        CategoryChart chart = new CategoryChartBuilder().width(960).height(540)
                .title(m.title() + " by workload (mean over seeds, 95% CI)").xAxisTitle("workload").yAxisTitle(m.axis()).build();
        style(chart.getStyler());
        chart.getStyler().setErrorBarsColorSeriesColor(false);
        chart.getStyler().setErrorBarsColor(ERROR_BARS);
        chart.getStyler().setOverlapped(false);
        List<String> categories = new ArrayList<>();
        Map<String, Map<String, List<Double>>> byPolicy = new LinkedHashMap<>();
        for (String scenario : r.scenarioOrder()) {
            for (CampaignRun c : r.campaignRuns()) {
                if (!c.scenario().equals(scenario)) {
                    continue;
                }
                String cat = label(c);
                if (!categories.contains(cat)) {
                    categories.add(cat);
                }
                byPolicy.computeIfAbsent(c.policy(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(cat, k -> new ArrayList<>()).add(m.value().applyAsDouble(c.metrics()));
            }
        }
        Map<String, Color> colours = PolicyColours.of(byPolicy.keySet());
        for (Map.Entry<String, Map<String, List<Double>>> p : byPolicy.entrySet()) {
            List<Double> y = new ArrayList<>();
            List<Double> err = new ArrayList<>();
            for (String cat : categories) {
                Summary s = summary(p.getValue().getOrDefault(cat, List.of()));
                y.add(Double.isFinite(s.mean()) ? s.mean() : 0.0);
                err.add(Double.isFinite(s.ci95()) ? s.ci95() : 0.0);
            }
            Color c = colours.get(p.getKey());
            CategorySeries series = chart.addSeries(p.getKey(), categories, y, err);
            series.setFillColor(c);
            series.setLineColor(c);
            series.setMarkerColor(c);
        }
        return chart;
    }

    private static List<String> thresholdPlots(Path dir, StickyLazyAnalysis.Result r) throws IOException {
        List<XYChart> charts = thresholdCharts(r);
        return List.of(save(charts.get(0), dir, "sticky-lazy-threshold-probes"),
                save(charts.get(1), dir, "sticky-lazy-threshold-peak"),
                save(charts.get(2), dir, "sticky-lazy-threshold-tradeoff"));
    }

    /**
     * The three charts of a threshold sweep: probes per request against T, peak queue against T,
     * and the trade-off. Strict Po2C has one series (peak, peak + T, trade-off point) per
     * workload, however many Sticky-Lazy variants or credit rules ran on it.
     *
     * @param r the analysis result (its runs and pairs)
     * @return probes, peak and trade-off chart, in that order
     */
    static List<XYChart> thresholdCharts(StickyLazyAnalysis.Result r) {
        // scenario -> T -> runs (Sticky-Lazy) and scenario -> T -> strict-po2c runs.
        Map<String, TreeMap<Integer, List<StickyLazyAnalysis.RunCheck>>> sticky = new LinkedHashMap<>();
        boolean bothRules = r.runs().stream().map(StickyLazyAnalysis.RunCheck::credit).distinct().count() > 1;
        for (StickyLazyAnalysis.RunCheck c : r.runs()) {
            String series = shortName(c.scenario()) + (bothRules ? " credit " + c.credit().key() : variantSuffix(c));
            sticky.computeIfAbsent(series, k -> new TreeMap<>())
                    .computeIfAbsent(c.threshold(), k -> new ArrayList<>()).add(c);
        }
        Map<String, TreeMap<Integer, List<Double>>> po2c = new LinkedHashMap<>();
        for (StickyLazyAnalysis.PeakPair p : r.pairs()) {
            po2c.computeIfAbsent(shortName(p.scenario()), k -> new TreeMap<>()).computeIfAbsent(p.threshold(), k -> new ArrayList<>())
                    .add((double) p.po2cMaxQueue());
        }
        XYChart probes = xy("Sticky-Lazy probes per request against T (seed formula dashed, 1/T dotted)", "threshold T",
                "probes / request");
        XYChart peak = xy("Peak queue depth against T (strict Po2C grey dashed, Po2C + T grey dotted)", "threshold T",
                "largest q_j (requests)");
        XYChart trade = xy("Trade-off: probes / request against peak queue (T = 1, 2, 3, 4, 8; grey: strict Po2C)",
                "probes / request", "largest q_j (requests)");
        TreeSet<Integer> allT = new TreeSet<>();
        int colour = 0;
        for (Map.Entry<String, TreeMap<Integer, List<StickyLazyAnalysis.RunCheck>>> e : sticky.entrySet()) {
            Color c = PALETTE.get(colour++ % PALETTE.size());
            TreeMap<Integer, List<StickyLazyAnalysis.RunCheck>> byT = e.getValue();
            allT.addAll(byT.keySet());
            double[] x = byT.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] p = new double[x.length];
            double[] pErr = new double[x.length];
            double[] f = new double[x.length];
            double[] q = new double[x.length];
            double[] qErr = new double[x.length];
            int i = 0;
            for (List<StickyLazyAnalysis.RunCheck> g : byT.values()) {
                Summary sp = summary(g.stream().map(StickyLazyAnalysis.RunCheck::probesPerRequest).toList());
                Summary sq = summary(g.stream().map(k -> (double) k.maxQueue()).toList());
                p[i] = sp.mean();
                pErr[i] = finite(sp.ci95());
                f[i] = StickyLazyAnalysis.mean(g.stream().mapToDouble(StickyLazyAnalysis.RunCheck::seedFormula).toArray());
                q[i] = sq.mean();
                qErr[i] = finite(sq.ci95());
                i++;
            }
            line(probes.addSeries(e.getKey(), x, p, pErr), c, SOLID, true);
            line(probes.addSeries(e.getKey() + " seed formula", x, f), c, DASHED, false);
            line(peak.addSeries(e.getKey() + " sticky-lazy", x, q, qErr), c, SOLID, true);
            XYSeries t = trade.addSeries(e.getKey() + " sticky-lazy", p, q);
            line(t, c, SOLID, true);
        }
        // Strict Po2C is one reference per workload, whatever the credit rules beside it: one
        // legend entry each, in grey, with a marker per workload.
        int workload = 0;
        for (Map.Entry<String, TreeMap<Integer, List<Double>>> e : po2c.entrySet()) {
            TreeMap<Integer, List<Double>> ref = e.getValue();
            String name = e.getKey();
            if (ref.isEmpty() || sticky.keySet().stream().noneMatch(k -> k.split(" ")[0].equals(name))) {
                continue;
            }
            Marker marker = REFERENCE_MARKERS.get(workload++ % REFERENCE_MARKERS.size());
            double[] rx = ref.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
            double[] ry = ref.values().stream().mapToDouble(v -> StickyLazyAnalysis.mean(
                    v.stream().mapToDouble(Double::doubleValue).toArray())).toArray();
            double[] bound = new double[rx.length];
            for (int k = 0; k < rx.length; k++) {
                bound[k] = ry[k] + rx[k];
            }
            line(peak.addSeries(name + " strict-po2c", rx, ry), REFERENCE, DASHED, false).setMarker(marker);
            line(peak.addSeries(name + " strict-po2c + T", rx, bound), REFERENCE, DOTTED, false).setMarker(marker);
            double all = StickyLazyAnalysis.mean(ref.values().stream().flatMap(List::stream)
                    .mapToDouble(Double::doubleValue).toArray());
            XYSeries s = trade.addSeries(name + " strict-po2c", new double[] {2.0}, new double[] {all});
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarker(marker);
            s.setMarkerColor(REFERENCE);
        }
        if (!allT.isEmpty()) {
            double[] x = allT.stream().mapToDouble(Integer::doubleValue).toArray();
            double[] floor = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                floor[i] = 1.0 / x[i];
            }
            line(probes.addSeries("1/T floor", x, floor), Color.BLACK, DOTTED, false);
        }
        return List.of(probes, peak, trade);
    }

    private static String variantSuffix(StickyLazyAnalysis.RunCheck c) {
        return c.policy().equals("sticky-lazy") ? "" : " " + c.policy();
    }

    private static String label(CampaignRun c) {
        String p = StickyLazyAnalysis.params(c.parameters());
        String s = shortName(c.scenario());
        return p.isEmpty() ? s : s + " " + p;
    }

    /** {@code sticky-lazy-heavy} → {@code heavy}; other names unchanged. */
    private static String shortName(String scenario) {
        return scenario.startsWith("sticky-lazy-") ? scenario.substring("sticky-lazy-".length()) : scenario;
    }

    private static XYChart xy(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(1040).height(560).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        return chart;
    }

    private static XYSeries line(XYSeries s, Color c, BasicStroke stroke, boolean markers) {
        s.setLineColor(c);
        s.setLineStyle(stroke);
        s.setMarkerColor(c);
        s.setMarker(markers ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
        return s;
    }

    private static void style(AxesChartStyler s) {
        s.setLocale(Locale.ROOT);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        s.setChartTitleBoxVisible(false);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setAntiAlias(true);
        s.setToolTipsEnabled(false);
    }

    private static Summary summary(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).toArray();
        return v.length == 0 ? new Summary(0, Double.NaN, Double.NaN, Double.NaN) : Summary.of(v);
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    private static String save(Chart<?, ?> chart, Path dir, String base) throws IOException {
        Files.createDirectories(dir);
        try (OutputStream out = Files.newOutputStream(dir.resolve(base + ".png"))) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve(base + ".svg"))) {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
        return "plots/" + base + ".png";
    }
}

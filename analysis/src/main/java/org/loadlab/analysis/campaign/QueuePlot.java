package org.loadlab.analysis.campaign;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.SeriesPoint;

/**
 * Mean queue length over time, one panel per policy (small multiples), for one scenario at one
 * combination of parameter values, from each policy's run with the <em>smallest seed</em> (one run, so the
 * lines show real dynamics rather than an average). Points are the run's
 * {@link RunMetrics#series()}: at the end of each interval, the time-averaged queue length
 * per node over that interval. The series covers the whole run; a vertical line marks the end
 * of the warm-up (run end − {@link RunMetrics#durationSeconds()}), when there is one.
 *
 * <p>Files: {@code plots/queue-<scenario>[_<key>-<value>...].png|svg}.
 *
 * <p>Source: SPEC.md §4 (1 s trace of the mean queue); {@link SeriesPoint}; XChart 3.8.8.
 */
public final class QueuePlot {

    private QueuePlot() {
    }

    /** Width of one panel, pixels: two panels side by side make {@value ChartStyle#WIDTH}. */
    static final int PANEL_WIDTH = ChartStyle.WIDTH / 2;

    /** Height of one panel when the panels fill more than one row, pixels. */
    static final int PANEL_HEIGHT = 300;

    /** Colour of the other policies' lines behind a panel's own. */
    private static final Color CONTEXT = new Color(0xDD, 0xDD, 0xDD); // lighter than the palette's grey (0x999999)

    /**
     * Draws and writes the chart: with one policy a single chart; with more, one panel per
     * policy (small multiples, two per row, the same axes in every panel), its own line in its
     * colour on top of the other policies' lines in light grey. Overlaid in one chart, eight
     * noisy queue traces at similar heights hide one another whatever the drawing order.
     *
     * @param plotsDir target directory, e.g. {@code CAMPAIGN_DIR/plots}; created if needed
     * @param runs all runs of the campaign (other cells are ignored)
     * @param scenario the scenario
     * @param parameters the parameter values of the chart's cell (empty when nothing is swept)
     * @return the plot, or empty when no run of the cell has a time series
     * @throws IOException if a file cannot be written
     * @throws NullPointerException if an argument or a run is null
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed
     */
    public static Optional<Plot> write(Path plotsDir, List<CampaignRun> runs, String scenario,
            SortedMap<String, String> parameters) throws IOException {
        Objects.requireNonNull(plotsDir, "plotsDir");
        CellRuns cell = CellRuns.select(runs, scenario, parameters);
        // policy → its trace (the run with the smallest seed)
        Map<String, CampaignRun> traced = new LinkedHashMap<>();
        for (Map.Entry<String, List<CampaignRun>> policy : cell.byPolicy().entrySet()) {
            if (!policy.getValue().get(0).metrics().series().isEmpty()) {
                traced.put(policy.getKey(), policy.getValue().get(0));
            }
        }
        if (traced.isEmpty()) {
            return Optional.empty();
        }
        String title = "Mean queue length over time — " + cell.cell().label();
        String yTitle = "mean queue length (" + (cell.inWorkUnits() ? "work units" : "requests") + " per node)";
        double highest = 0;
        double warmupEnd = Double.NaN;
        for (CampaignRun run : traced.values()) {
            for (SeriesPoint p : run.metrics().series()) {
                highest = Math.max(highest, p.meanQueue());
            }
            if (Double.isNaN(warmupEnd)) {
                List<SeriesPoint> points = run.metrics().series();
                warmupEnd = points.get(points.size() - 1).timeSeconds() - run.metrics().durationSeconds();
            }
        }
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(traced.keySet(), false);
        String base = "queue-" + PlotNames.cell(cell.cell());
        if (traced.size() == 1) {
            String policy = traced.keySet().iterator().next();
            XYChart chart = ChartStyle.xyChart(title, "time since start of run (s)", yTitle);
            draw(chart, traced, policy, looks.get(policy), highest, warmupEnd, true);
            return Optional.of(ChartFiles.save(chart, plotsDir, base));
        }
        List<XYChart> panels = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int rows = (traced.size() + 1) / 2;
        for (String policy : traced.keySet()) {
            String name = label(policy, traced.get(policy));
            XYChart panel = new XYChartBuilder().width(PANEL_WIDTH)
                    .height(rows == 1 ? ChartStyle.HEIGHT - ChartFiles.PANEL_TITLE_HEIGHT : PANEL_HEIGHT)
                    // Panels have no legend: the x-axis title says what the dashed line is.
                    .title(name).xAxisTitle("time since start of run (s)" + (warmupEnd > 0 ? "; dashed: end of warm-up" : ""))
                    .yAxisTitle(yTitle).build();
            ChartStyle.apply(panel.getStyler());
            panel.getStyler().setLegendVisible(false); // the panel's title names its policy
            panel.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            panel.getStyler().setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            panel.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            panel.getStyler().setChartPadding(8);
            draw(panel, traced, policy, looks.get(policy), highest, warmupEnd, false);
            panels.add(panel);
            names.add(name);
        }
        if (warmupEnd > 0) {
            names.add("end of warm-up");
        }
        return Optional.of(ChartFiles.savePanels(title + " (one panel per policy; grey: the other policies)", panels, 2,
                plotsDir, base, names));
    }

    /** A policy's series name: {@code p2c (seed 101)}. */
    private static String label(String policy, CampaignRun run) {
        return policy + " (seed " + run.seed() + ")";
    }

    /**
     * Draws one policy's trace on {@code chart}, over the others' in grey when {@code alone} is
     * false, with the y axis from 0 to {@code highest} (the same in every panel) and a dashed line
     * at the end of the warm-up.
     */
    private static void draw(XYChart chart, Map<String, CampaignRun> traced, String policy, ChartStyle.Look look,
            double highest, double warmupEnd, boolean alone) {
        XYStyler styler = chart.getStyler();
        styler.setYAxisMin(0.0);
        styler.setYAxisMax(highest > 0 ? highest : 1);
        chart.setCustomXAxisTickLabelsFormatter(ChartStyle::tick);
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        if (!alone) {
            for (Map.Entry<String, CampaignRun> other : traced.entrySet()) {
                if (!other.getKey().equals(policy)) {
                    XYSeries series = add(chart, other.getKey(), other.getValue());
                    series.setLineColor(CONTEXT);
                    series.setLineStyle(new BasicStroke(1f));
                    series.setShowInLegend(false);
                }
            }
        }
        XYSeries own = add(chart, label(policy, traced.get(policy)), traced.get(policy));
        ChartStyle.style(own, look, 0, 1, false);
        own.setLineStyle(ChartStyle.stroke(look.dash(), alone ? 2.5f : 2f));
        List<SeriesPoint> points = traced.get(policy).metrics().series();
        if (points.size() >= 2) {
            ChartStyle.roundXTicks(chart, points.get(0).timeSeconds(), points.get(1).timeSeconds() - points.get(0).timeSeconds());
        }
        if (warmupEnd > 0) {
            XYSeries line = chart.addSeries("end of warm-up", new double[] {warmupEnd, warmupEnd},
                    new double[] {0, highest > 0 ? highest : 1});
            line.setLineColor(ChartStyle.THEORY);
            line.setLineStyle(ChartStyle.DASHED);
            line.setMarker(SeriesMarkers.NONE);
        }
    }

    private static XYSeries add(XYChart chart, String name, CampaignRun run) {
        List<SeriesPoint> points = run.metrics().series();
        XYSeries series = chart.addSeries(name, points.stream().mapToDouble(SeriesPoint::timeSeconds).toArray(),
                points.stream().mapToDouble(SeriesPoint::meanQueue).toArray());
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }
}

package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.SeriesPoint;

/**
 * Mean queue length over time, one line per policy, for one scenario at one combination of
 * parameter values, from each policy's run with the <em>smallest seed</em> (one run, so the
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

    /**
     * Draws and writes the chart.
     *
     * @param plotsDir target directory, e.g. {@code CAMPAIGN_DIR/plots}; created if needed
     * @param runs all runs of the campaign (other cells are ignored; all policies fix the colours)
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
        XYChart chart = ChartStyle.xyChart("Mean queue length over time — " + cell.cell().label(),
                "time since start of run (s)",
                "mean queue length (" + (inWorkUnits(cell) ? "work units" : "requests") + " per node)");
        XYStyler styler = chart.getStyler();
        styler.setYAxisMin(0.0);
        chart.setCustomXAxisTickLabelsFormatter(ChartStyle::tick);
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        double warmupEnd = Double.NaN;
        double highest = 0;
        int position = 0;
        int count = cell.byPolicy().size();
        for (Map.Entry<String, List<CampaignRun>> policy : cell.byPolicy().entrySet()) {
            CampaignRun first = policy.getValue().get(0);
            List<SeriesPoint> points = first.metrics().series();
            if (points.isEmpty()) {
                continue;
            }
            double[] x = points.stream().mapToDouble(SeriesPoint::timeSeconds).toArray();
            double[] y = points.stream().mapToDouble(SeriesPoint::meanQueue).toArray();
            XYSeries series = chart.addSeries(policy.getKey() + " (seed " + first.seed() + ")", x, y);
            ChartStyle.style(series, policy.getKey(), position++, count, false);
            for (double v : y) {
                highest = Math.max(highest, v);
            }
            if (Double.isNaN(warmupEnd)) {
                warmupEnd = x[x.length - 1] - first.metrics().durationSeconds();
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            return Optional.empty();
        }
        List<SeriesPoint> some = cell.byPolicy().values().stream().map(r -> r.get(0).metrics().series())
                .filter(p -> p.size() >= 2).findFirst().orElse(List.of());
        if (!some.isEmpty()) {
            ChartStyle.roundXTicks(chart, some.get(0).timeSeconds(), some.get(1).timeSeconds() - some.get(0).timeSeconds());
        }
        if (warmupEnd > 0) {
            XYSeries line = chart.addSeries("end of warm-up", new double[] {warmupEnd, warmupEnd},
                    new double[] {0, highest > 0 ? highest : 1});
            line.setLineColor(ChartStyle.THEORY);
            line.setLineStyle(ChartStyle.DASHED);
            line.setMarker(SeriesMarkers.NONE);
        }
        return Optional.of(ChartFiles.save(chart, plotsDir, "queue-" + PlotNames.cell(cell.cell())));
    }

    /**
     * Whether the cell's queues are counted in work units: runs of the ASMF seed's time-stepped
     * reference model (the only model that reports the seed's own metrics, among them
     * {@code backlog_area}, in {@link org.loadlab.analysis.run.RunMetrics#extras()}) queue work
     * units, every other model requests.
     */
    private static boolean inWorkUnits(CellRuns cell) {
        return cell.byPolicy().values().stream().flatMap(List::stream)
                .anyMatch(r -> r.metrics().extras().containsKey(REFERENCE_MODEL_METRIC));
    }

    /** A metric only the reference model reports (under the seed's name). */
    static final String REFERENCE_MODEL_METRIC = "backlog_area";
}

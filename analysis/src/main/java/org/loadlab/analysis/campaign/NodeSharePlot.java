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

/**
 * Per-node share of the requests, one line per policy (mean over its seeds), against the node
 * index: how evenly (or in proportion to μ_j) a policy spreads the load. A dashed line marks the
 * equal share 1/n.
 *
 * <p>Files: {@code plots/share-<scenario>[_<key>-<value>...].png}.
 */
public final class NodeSharePlot {
    private NodeSharePlot() {
    }

    /**
     * Draws the chart of one cell.
     *
     * @param plotsDir target directory
     * @param runs the runs (any cells)
     * @param scenario the scenario
     * @param parameters the cell's parameter values (empty when nothing is swept)
     * @return the plot, or empty when no run of the cell has per-node shares
     * @throws IOException if a file cannot be written
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed
     */
    public static Optional<Plot> write(Path plotsDir, List<CampaignRun> runs, String scenario,
            SortedMap<String, String> parameters) throws IOException {
        Objects.requireNonNull(plotsDir, "plotsDir");
        CellRuns cell = CellRuns.select(runs, scenario, parameters);
        XYChart chart = ChartStyle.xyChart("Share of requests per node — " + cell.cell().label(),
                "node index j",
                "share of requests (%), mean over seeds");
        XYStyler styler = chart.getStyler();
        styler.setYAxisMin(0.0);
        styler.setMarkerSize(8);
        chart.setCustomXAxisTickLabelsFormatter(ChartStyle::tick);
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        int count = cell.byPolicy().size();
        boolean markers = cell.byPolicy().values().stream()
                .allMatch(r -> r.get(0).metrics().nodeRequestShare().size() <= 64); // else the markers hide the lines
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(cell.byPolicy().keySet(), markers);
        int position = 0;
        int nodes = 0;
        for (Map.Entry<String, List<CampaignRun>> policy : cell.byPolicy().entrySet()) {
            List<CampaignRun> own = policy.getValue();
            int n = own.get(0).metrics().nodeRequestShare().size();
            if (n == 0) {
                continue;
            }
            double[] x = new double[n];
            double[] y = new double[n];
            for (int j = 0; j < n; j++) {
                x[j] = j;
                double sum = 0;
                int defined = 0;
                for (CampaignRun run : own) {
                    List<Double> share = run.metrics().nodeRequestShare();
                    if (j < share.size() && !Double.isNaN(share.get(j))) {
                        sum += share.get(j);
                        defined++;
                    }
                }
                y[j] = defined == 0 ? Double.NaN : 100 * sum / defined;
            }
            XYSeries series = chart.addSeries(policy.getKey(), x, y);
            ChartStyle.style(series, looks.get(policy.getKey()), position++, count, markers);
            nodes = Math.max(nodes, n);
        }
        if (chart.getSeriesMap().isEmpty()) {
            return Optional.empty();
        }
        XYSeries equal = chart.addSeries("equal share 1/n", new double[] {0, nodes - 1},
                new double[] {100.0 / nodes, 100.0 / nodes});
        equal.setLineColor(ChartStyle.THEORY);
        equal.setLineStyle(ChartStyle.DASHED);
        equal.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
        return Optional.of(ChartFiles.save(chart, plotsDir, "share-" + PlotNames.cell(cell.cell())));
    }
}

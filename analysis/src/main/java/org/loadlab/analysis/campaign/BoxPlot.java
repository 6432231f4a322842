package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import org.knowm.xchart.BoxChart;
import org.knowm.xchart.BoxChartBuilder;
import org.knowm.xchart.style.BoxStyler;

/**
 * Box plot of one metric over seeds, one box per policy, for one scenario at one combination
 * of parameter values (a campaign with several parameter values gets one chart per value).
 *
 * <p>Boxes: quartiles by linear interpolation ((n − 1)·p + 1-th order statistic, as R's
 * default), line at the median; whiskers end at Q1 − 1.5 × IQR and Q3 + 1.5 × IQR, or at the
 * smallest / largest value when that is nearer, and values beyond are drawn as crosses (XChart's
 * rule). XChart 3.8.8 draws every box in the same
 * colours (blue box, red median), so the x-axis labels, not colours, name the policies. NaN
 * values are left out; a policy without a defined value gets no box.
 *
 * <p>Files: {@code plots/box-<metric>-<scenario>[_<key>-<value>...].png|svg}.
 *
 * <p>Source: J. W. Tukey, "Exploratory Data Analysis", 1977 (box plots); XChart 3.8.8
 * {@link BoxChart}.
 */
public final class BoxPlot {

    private BoxPlot() {
    }

    /**
     * Draws and writes the chart.
     *
     * @param plotsDir target directory, e.g. {@code CAMPAIGN_DIR/plots}; created if needed
     * @param runs all runs of the campaign (other cells are ignored)
     * @param scenario the scenario
     * @param parameters the parameter values of the chart's cell (empty when nothing is swept)
     * @param metric the metric on the y axis
     * @return the plot, or empty when no run of the cell has a defined value
     * @throws IOException if a file cannot be written
     * @throws NullPointerException if an argument or a run is null
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed
     */
    public static Optional<Plot> write(Path plotsDir, List<CampaignRun> runs, String scenario,
            SortedMap<String, String> parameters, Metric metric) throws IOException {
        Objects.requireNonNull(plotsDir, "plotsDir");
        Objects.requireNonNull(metric, "metric");
        CellRuns cell = CellRuns.select(runs, scenario, parameters);
        ChartStyle.init();
        BoxChart chart = new BoxChartBuilder().width(ChartStyle.WIDTH).height(ChartStyle.HEIGHT)
                .title(metric.label() + " by policy — " + cell.cell().label())
                .xAxisTitle("policy")
                .yAxisTitle(metric.labelWithUnit())
                .build();
        BoxStyler styler = chart.getStyler();
        ChartStyle.apply(styler);
        styler.setBoxplotCalCulationMethod(BoxStyler.BoxplotCalCulationMethod.N_LESS_1_PLUS_1);
        styler.setLegendVisible(false); // the x axis names the policies
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        int labelLength = 0;
        for (Map.Entry<String, List<CampaignRun>> policy : cell.byPolicy().entrySet()) {
            double[] values = Summaries.definedValues(policy.getValue(), metric);
            if (values.length == 0) {
                continue;
            }
            chart.addSeries(policy.getKey(), values); // the x axis names the policy (XChart draws every box alike)
            labelLength += policy.getKey().length() + 2;
        }
        if (chart.getSeriesMap().isEmpty()) {
            return Optional.empty();
        }
        if (labelLength > 70) {
            styler.setXAxisLabelRotation(25);
        }
        String base = "box-" + metric.columnName() + "-" + PlotNames.cell(cell.cell());
        return Optional.of(ChartFiles.save(chart, plotsDir, base));
    }
}

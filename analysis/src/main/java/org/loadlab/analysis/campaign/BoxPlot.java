package org.loadlab.analysis.campaign;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import org.hipparchus.stat.descriptive.rank.Percentile;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Box plot of one metric over seeds, one box per policy, for one scenario at one combination
 * of parameter values (a campaign with several parameter values gets one chart per value).
 *
 * <p>Boxes: quartiles by linear interpolation ((n − 1)·p + 1-th order statistic, as R's
 * default, Hipparchus {@link Percentile.EstimationType#R_7}), a thick line at the median;
 * whiskers end at Q1 − 1.5 × IQR and Q3 + 1.5 × IQR, or at the smallest / largest value when
 * that is nearer, and values beyond are drawn as crosses (the rule of XChart's box chart, which
 * these charts used before). Each policy is drawn in its own colour ({@link ChartStyle#looks}),
 * the same as in every other chart of every report, and named on the x axis. When one policy's
 * values dwarf the others' (more than a decade above the lowest median, {@link #logScale}) and
 * every value is positive, the y axis is logarithmic and its title says so. NaN values are
 * left out; a policy without a defined value gets no box.
 *
 * <p>XChart 3.8.8's {@code BoxChart} paints every box blue with a red median whatever the
 * series' colours, so the boxes are drawn as line series of an {@link XYChart}, policy i at
 * x = i.
 *
 * <p>Files: {@code plots/box-<metric>-<scenario>[_<key>-<value>...].png|svg}.
 *
 * <p>Source: J. W. Tukey, "Exploratory Data Analysis", 1977 (box plots); R. J. Hyndman,
 * Y. Fan, "Sample quantiles in statistical packages", The American Statistician 50(4), 1996
 * (type 7); XChart 3.8.8 {@link XYChart}.
 */
public final class BoxPlot {

    /** Half the width of a box, in x units (one unit per policy). */
    private static final double HALF_WIDTH = 0.3;

    /** A low estimate of the x axis's length in pixels (the chart is {@value ChartStyle#WIDTH} wide). */
    private static final double TICK_SPACE = 740;

    /** Alpha of a box's fill (its outline is opaque). */
    private static final int FILL_ALPHA = 0x38;

    /**
     * A low estimate of the plot area's height, pixels: the chart's height less title, axis title
     * and policy names turned by 90° (about 170 pixels for the longest built-in name).
     */
    private static final double PLOT_HEIGHT = ChartStyle.HEIGHT - 260;

    private BoxPlot() {
    }

    /**
     * The five numbers and the outliers of one box.
     *
     * @param q1 first quartile
     * @param median median
     * @param q3 third quartile
     * @param lower lower whisker end: max(Q1 − 1.5 × IQR, smallest value)
     * @param upper upper whisker end: min(Q3 + 1.5 × IQR, largest value)
     * @param outliers values below {@code lower} or above {@code upper}, ascending
     */
    record Box(double q1, double median, double q3, double lower, double upper, double[] outliers) {

        /**
         * @param values defined values, at least one, any order (not modified)
         * @return the box of these values
         */
        static Box of(double[] values) {
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            Percentile percentile = new Percentile().withEstimationType(Percentile.EstimationType.R_7);
            percentile.setData(sorted);
            double q1 = percentile.evaluate(25);
            double median = percentile.evaluate(50);
            double q3 = percentile.evaluate(75);
            double iqr = q3 - q1;
            double lower = Math.max(q1 - 1.5 * iqr, sorted[0]);
            double upper = Math.min(q3 + 1.5 * iqr, sorted[sorted.length - 1]);
            double[] outliers = Arrays.stream(sorted).filter(v -> v < lower || v > upper).toArray();
            return new Box(q1, median, q3, lower, upper, outliers);
        }
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
        Optional<XYChart> chart = chart(cell, metric);
        if (chart.isEmpty()) {
            return Optional.empty();
        }
        String base = "box-" + metric.columnName() + "-" + PlotNames.cell(cell.cell());
        return Optional.of(ChartFiles.save(chart.get(), plotsDir, base));
    }

    /**
     * The chart {@link #write} saves, or empty when no run of the cell has a defined value.
     *
     * @param cell the runs of the chart's cell
     * @param metric the metric on the y axis
     * @return the chart, styled
     */
    static Optional<XYChart> chart(CellRuns cell, Metric metric) {
        Map<String, Box> boxes = new LinkedHashMap<>();
        for (Map.Entry<String, List<CampaignRun>> policy : cell.byPolicy().entrySet()) {
            double[] values = Summaries.definedValues(policy.getValue(), metric);
            if (values.length > 0) {
                boxes.put(policy.getKey(), Box.of(values));
            }
        }
        if (boxes.isEmpty()) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>(boxes.keySet());
        boolean log = logScale(boxes.values());
        XYChart chart = ChartStyle.xyChart(metric.label() + " by policy — " + cell.cell().label(), "policy",
                metric.labelWithUnit(cell.inWorkUnits())
                        + (log ? " (log scale)" : ""));
        XYStyler styler = chart.getStyler();
        styler.setLegendVisible(false); // the x axis names the policies
        styler.setPlotGridVerticalLinesVisible(false);
        styler.setXAxisMin(0.5);
        styler.setXAxisMax(names.size() + 0.5);
        chart.setCustomXAxisTickLabelsFormatter(x -> policyAt(names, x));
        if (!log) {
            chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        }
        styler.setXAxisLabelRotation(labelRotation(names, styler.getAxisTickLabelsFont()));
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(names, false);
        int position = 1;
        for (Map.Entry<String, Box> box : boxes.entrySet()) {
            draw(chart, box.getKey(), looks.get(box.getKey()).colour(), position++, box.getValue());
        }
        if (log) {
            ChartStyle.logYAxis(chart, PLOT_HEIGHT);
        }
        return Optional.of(chart);
    }

    /**
     * The x tick label at x: the policy drawn there (x = 1, 2, ...). XChart keeps a tick spacing
     * only when all its labels differ, so a value between two policies gets the nearest one's
     * name (a repeat: XChart then spaces the ticks one policy apart), and the whole numbers just
     * off the axis, whose ticks XChart also places (and may draw in the plot's margin), get
     * distinct runs of spaces. (XChart sizes the axis from the labels of its ends, 0.5 and
     * n + 0.5, which must not be blank.)
     */
    private static String policyAt(List<String> names, double x) {
        long i = Math.round(x);
        int n = names.size();
        if (Math.abs(x - i) > 1e-6) {
            return names.get((int) Math.max(0, Math.min(n - 1, i - 1)));
        }
        if (i >= 1 && i <= n) {
            return names.get((int) i - 1);
        }
        return " ".repeat((int) Math.min(64, i < 1 ? 1 - 2 * i : 2 * (i - n))); // 0, -1, ... → 1, 3, ...; n + 1, ... → 2, 4, ...
    }

    /**
     * Degrees to turn the policy names by so that XChart finds room for every one of them (it
     * drops every other tick when the widest label, times 1.1, is wider than the tick spacing):
     * 0 when they fit side by side, else 45, else 90.
     */
    private static int labelRotation(List<String> names, java.awt.Font font) {
        java.awt.font.FontRenderContext context = new java.awt.font.FontRenderContext(null, true, true);
        double width = 0;
        double height = 0;
        for (String name : names) {
            java.awt.geom.Rectangle2D bounds = font.getStringBounds(name, context);
            width = Math.max(width, bounds.getWidth());
            height = Math.max(height, bounds.getHeight());
        }
        double room = TICK_SPACE / names.size() / 1.1;
        if (width < room) {
            return 0;
        }
        return (width + height) * Math.sqrt(0.5) < room ? 45 : 90;
    }

    /**
     * Whether the boxes need a log axis: every value is positive and the largest is more than
     * {@link ChartStyle#LOG_RATIO} times the lowest median, so that on a linear axis the boxes of
     * the lower policies would be flattened against zero by the highest one.
     */
    static boolean logScale(java.util.Collection<Box> boxes) {
        double lowestMedian = Double.POSITIVE_INFINITY;
        double lowestValue = Double.POSITIVE_INFINITY;
        double highest = Double.NEGATIVE_INFINITY;
        for (Box box : boxes) {
            lowestMedian = Math.min(lowestMedian, box.median());
            lowestValue = Math.min(lowestValue, box.outliers().length > 0 ? Math.min(box.lower(), box.outliers()[0]) : box.lower());
            highest = Math.max(highest, box.outliers().length > 0
                    ? Math.max(box.upper(), box.outliers()[box.outliers().length - 1]) : box.upper());
        }
        return lowestValue > 0 && ChartStyle.logScale(highest, lowestMedian);
    }

    private static void draw(XYChart chart, String policy, Color colour, int x, Box box) {
        double left = x - HALF_WIDTH;
        double right = x + HALF_WIDTH;
        XYSeries fill = line(chart, policy + " fill", new double[] {left, right, right, left, left},
                new double[] {box.q1(), box.q1(), box.q3(), box.q3(), box.q1()}, colour, new BasicStroke(1.5f));
        fill.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
        fill.setFillColor(new Color(colour.getRed(), colour.getGreen(), colour.getBlue(), FILL_ALPHA));
        line(chart, policy + " median", new double[] {left, right}, new double[] {box.median(), box.median()}, colour,
                new BasicStroke(3.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER));
        BasicStroke dashed = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                new float[] {5f, 3f}, 0f);
        BasicStroke solid = new BasicStroke(1.5f);
        line(chart, policy + " upper whisker", new double[] {x, x}, new double[] {box.q3(), box.upper()}, colour, dashed);
        line(chart, policy + " lower whisker", new double[] {x, x}, new double[] {box.lower(), box.q1()}, colour, dashed);
        double cap = HALF_WIDTH / 2;
        line(chart, policy + " upper cap", new double[] {x - cap, x + cap}, new double[] {box.upper(), box.upper()},
                colour, solid);
        line(chart, policy + " lower cap", new double[] {x - cap, x + cap}, new double[] {box.lower(), box.lower()},
                colour, solid);
        if (box.outliers().length > 0) {
            double[] xs = new double[box.outliers().length];
            Arrays.fill(xs, x);
            XYSeries outliers = chart.addSeries(policy + " outliers", xs, box.outliers());
            outliers.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            outliers.setMarker(SeriesMarkers.PLUS);
            outliers.setMarkerColor(colour);
            outliers.setShowInLegend(false);
        }
    }

    private static XYSeries line(XYChart chart, String name, double[] x, double[] y, Color colour, BasicStroke stroke) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(colour);
        series.setLineStyle(stroke);
        series.setShowInLegend(false);
        return series;
    }
}

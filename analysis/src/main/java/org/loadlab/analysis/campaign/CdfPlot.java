package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Empirical CDF of response times per policy for one scenario at one combination of parameter
 * values: the response-time histograms of all the policy's seeds are merged (each run's
 * {@link org.loadlab.analysis.run.RunMetrics#decodeResponseHistogram()}, HdrHistogram, 0.1%
 * resolution) and F(x) = fraction of requests with response time ≤ x is drawn at
 * {@value #POINTS} x values from the smallest {@value #LOW_PERCENTILE}th percentile over the
 * policies to the largest response time. The x axis is logarithmic when the largest response time is more
 * than {@value #LOG_RATIO} times the smallest, linear otherwise. Policies without recorded
 * responses get no line.
 *
 * <p>Files: {@code plots/cdf-<scenario>[_<key>-<value>...].png|svg}.
 *
 * <p>Source: HdrHistogram 2.2.2 ({@link Histogram#add}, {@link Histogram#getPercentileAtOrBelowValue});
 * XChart 3.8.8.
 */
public final class CdfPlot {

    /** Number of x values at which each CDF is evaluated. */
    public static final int POINTS = 240;

    /** Range ratio (max / min response time) above which the x axis is logarithmic. */
    public static final double LOG_RATIO = 20;

    /** Percentile whose smallest value over the policies starts the x axis (the rest is ~0). */
    public static final double LOW_PERCENTILE = 0.1;

    private static final double NANOS_PER_SECOND = 1e9;

    private CdfPlot() {
    }

    /**
     * Draws and writes the chart.
     *
     * @param plotsDir target directory, e.g. {@code CAMPAIGN_DIR/plots}; created if needed
     * @param runs all runs of the campaign (other cells are ignored; all policies fix the colours)
     * @param scenario the scenario
     * @param parameters the parameter values of the chart's cell (empty when nothing is swept)
     * @return the plot, or empty when no run of the cell recorded a response time
     * @throws IOException if a file cannot be written
     * @throws NullPointerException if an argument or a run is null
     * @throws IllegalArgumentException if a run's histogram is not a valid encoding, or two runs
     *     share scenario, parameters, policy and seed
     */
    public static Optional<Plot> write(Path plotsDir, List<CampaignRun> runs, String scenario,
            SortedMap<String, String> parameters) throws IOException {
        Objects.requireNonNull(plotsDir, "plotsDir");
        CellRuns cell = CellRuns.select(runs, scenario, parameters);
        SortedMap<String, Histogram> merged = new TreeMap<>();
        for (Map.Entry<String, List<CampaignRun>> policy : cell.byPolicy().entrySet()) {
            Histogram sum = null;
            for (CampaignRun run : policy.getValue()) {
                Histogram h = run.metrics().decodeResponseHistogram().copyOfNanos();
                if (sum == null) {
                    sum = h;
                } else {
                    sum.add(h);
                }
            }
            if (sum != null && sum.getTotalCount() > 0) {
                merged.put(policy.getKey(), sum);
            }
        }
        if (merged.isEmpty()) {
            return Optional.empty();
        }
        long lowNanos = Long.MAX_VALUE;
        long highNanos = 0;
        for (Histogram h : merged.values()) {
            lowNanos = Math.min(lowNanos, Math.max(1, h.getValueAtPercentile(LOW_PERCENTILE)));
            highNanos = Math.max(highNanos, h.getMaxValue());
        }
        double low = lowNanos / NANOS_PER_SECOND;
        double high = Math.max(highNanos / NANOS_PER_SECOND, low * 1.01);
        boolean log = high / low > LOG_RATIO;

        XYChart chart = ChartStyle.xyChart("Response-time CDF — " + cell.cell().label(),
                (log ? "response time (s, log scale)" : "response time (s)") + ", all seeds merged",
                "fraction of requests ≤ x");
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(log);
        styler.setYAxisMin(0.0);
        styler.setYAxisMax(1.0);
        if (log) {
            // XChart ignores the logarithmic scale when a custom formatter is set
            styler.setXAxisDecimalPattern("0.######");
        } else {
            chart.setCustomXAxisTickLabelsFormatter(ChartStyle::tick);
        }
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        double[] x = grid(low, high, log);
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(merged.keySet(), false);
        int position = 0;
        for (Map.Entry<String, Histogram> policy : merged.entrySet()) {
            Histogram h = policy.getValue();
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = h.getPercentileAtOrBelowValue(Math.round(x[i] * NANOS_PER_SECOND)) / 100.0;
            }
            XYSeries series = chart.addSeries(policy.getKey() + " (" + h.getTotalCount() + " req.)", x, y);
            ChartStyle.style(series, looks.get(policy.getKey()), position++, merged.size(), false);
        }
        return Optional.of(ChartFiles.save(chart, plotsDir, "cdf-" + PlotNames.cell(cell.cell())));
    }

    private static double[] grid(double low, double high, boolean log) {
        double[] x = new double[POINTS];
        for (int i = 0; i < POINTS; i++) {
            double f = (double) i / (POINTS - 1);
            x[i] = log ? Math.exp(Math.log(low) + (Math.log(high) - Math.log(low)) * f) : low + (high - low) * f;
        }
        x[0] = low;
        x[POINTS - 1] = high;
        return x;
    }
}

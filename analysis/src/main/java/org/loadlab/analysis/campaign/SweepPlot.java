package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.loadlab.analysis.stats.Summary;

/**
 * A metric against a swept numeric parameter (e.g. mean response time against utilisation ρ),
 * one line per policy through the means over seeds, with error bars of the 95% Student-t
 * confidence interval ({@link Summary}; no bar for a single seed), and optional analytic
 * curves (dashed, evaluated at {@value #CURVE_POINTS} evenly spaced points across the plotted
 * range; non-finite values are skipped).
 *
 * <p>One chart covers one scenario and one combination of the <em>other</em> swept parameters
 * ({@code fixedParameters}); {@link #fixedCombinations} lists those combinations. Values of the
 * swept parameter must be decimal numbers; NaN run values are left out.
 *
 * <p>Files: {@code plots/sweep-<metric>-<scenario>-vs-<parameter>[_<key>-<value>...].png|svg}.
 *
 * <p>Source: XChart 3.8.8 {@link XYChart} (error bars); Hipparchus via {@link Summary}.
 */
public final class SweepPlot {

    /** Number of points at which an analytic curve is evaluated. */
    public static final int CURVE_POINTS = 201;

    private SweepPlot() {
    }

    /**
     * The combinations of the other swept parameters under which {@code parameter} varies in a
     * scenario: one chart each.
     *
     * @param runs all runs of the campaign
     * @param scenario the scenario
     * @param parameter the swept key on the x axis
     * @return each combination of the runs' other keys and values, sorted (numbers as numbers);
     *     empty when no run of the scenario has {@code parameter}
     * @throws NullPointerException if an argument or a run is null
     */
    public static SortedSet<SortedMap<String, String>> fixedCombinations(List<CampaignRun> runs, String scenario,
            String parameter) {
        Objects.requireNonNull(runs, "runs");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(parameter, "parameter");
        SortedSet<SortedMap<String, String>> combinations = new TreeSet<>(ParameterOrder.MAPS);
        for (CampaignRun run : runs) {
            if (run.scenario().equals(scenario) && run.parameters().containsKey(parameter)) {
                combinations.add(others(run, parameter));
            }
        }
        return combinations;
    }

    /**
     * Draws and writes the chart.
     *
     * @param plotsDir target directory, e.g. {@code CAMPAIGN_DIR/plots}; created if needed
     * @param runs all runs of the campaign (only matching runs are drawn; all policies fix the colours)
     * @param scenario the scenario
     * @param parameter the swept key on the x axis, e.g. {@code arrivals.utilisation}
     * @param fixedParameters the values of the scenario's other swept keys for this chart
     *     (empty when only {@code parameter} is swept)
     * @param metric the metric on the y axis
     * @param curves analytic curves to overlay (y in the metric's unit); may be empty
     * @return the plot; empty when fewer than 2 distinct numeric values of {@code parameter}
     *     have defined data, or a value of {@code parameter} is not a number
     * @throws IOException if a file cannot be written
     * @throws NullPointerException if an argument, a run or a curve is null
     */
    public static Optional<Plot> write(Path plotsDir, List<CampaignRun> runs, String scenario, String parameter,
            SortedMap<String, String> fixedParameters, Metric metric, List<AnalyticCurve> curves) throws IOException {
        Objects.requireNonNull(plotsDir, "plotsDir");
        Objects.requireNonNull(runs, "runs");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(fixedParameters, "fixedParameters");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(curves, "curves");
        // policy → x → defined values
        SortedMap<String, SortedMap<BigDecimal, List<Double>>> data = new TreeMap<>();
        for (CampaignRun run : runs) {
            String x = run.parameters().get(parameter);
            if (!run.scenario().equals(scenario) || x == null || !others(run, parameter).equals(fixedParameters)) {
                continue;
            }
            BigDecimal number = ParameterOrder.number(x);
            if (number == null) {
                return Optional.empty();
            }
            double value = metric.value(run.metrics());
            if (!Double.isNaN(value)) {
                data.computeIfAbsent(run.policy(), p -> new TreeMap<>())
                        .computeIfAbsent(number, v -> new ArrayList<>()).add(value);
            }
        }
        SortedSet<BigDecimal> xs = new TreeSet<>();
        data.values().forEach(m -> xs.addAll(m.keySet()));
        if (xs.size() < 2) {
            return Optional.empty();
        }
        String cellText = fixedParameters.isEmpty() ? scenario : new Cell(scenario, fixedParameters).label();
        XYChart chart = ChartStyle.xyChart(metric.label() + " vs " + parameter + " — " + cellText,
                parameter,
                metric.labelWithUnit() + ", mean ± 95% CI");
        XYStyler styler = chart.getStyler();
        styler.setMarkerSize(10); // distinct shapes per policy (ChartStyle.look) keep coinciding points apart
        styler.setYAxisMin(0.0); // every metric is non-negative (Metric), and so are the drawn intervals
        chart.setCustomXAxisTickLabelsFormatter(ChartStyle::tick);
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        int position = 0;
        for (Map.Entry<String, SortedMap<BigDecimal, List<Double>>> policy : data.entrySet()) {
            int n = policy.getValue().size();
            double[] x = new double[n];
            double[] y = new double[n];
            double[] error = new double[n];
            int i = 0;
            for (Map.Entry<BigDecimal, List<Double>> point : policy.getValue().entrySet()) {
                Summary summary = Summary.of(point.getValue().stream().mapToDouble(Double::doubleValue).toArray());
                x[i] = point.getKey().doubleValue();
                y[i] = summary.mean();
                error[i] = Double.isNaN(summary.ci95()) ? 0 : summary.ci95();
                i++;
            }
            XYSeries series = chart.addSeries(policy.getKey(), x, y);
            ChartStyle.style(series, policy.getKey(), position, data.size(), true);
            // The 95% interval as a vertical bar per point, clipped at 0: a negative response time or
            // queue length is impossible, so the symmetric t interval is not drawn below it.
            for (int k = 0; k < n; k++) {
                if (error[k] > 0) {
                    XYSeries bar = chart.addSeries(policy.getKey() + " CI " + k, new double[] {x[k], x[k]},
                            interval(y[k], error[k]));
                    bar.setLineColor(ChartStyle.look(policy.getKey()).colour());
                    bar.setLineStyle(new java.awt.BasicStroke(1.3f));
                    bar.setMarker(SeriesMarkers.NONE);
                    bar.setShowInLegend(false);
                }
            }
            position++;
        }
        addCurves(chart, curves, xs.first().doubleValue(), xs.last().doubleValue());
        String others = PlotNames.parameters(fixedParameters);
        String base = "sweep-" + metric.columnName() + "-" + PlotNames.part(scenario) + "-vs-" + PlotNames.part(parameter)
                + (others.isEmpty() ? "" : "_" + others);
        return Optional.of(ChartFiles.save(chart, plotsDir, base));
    }

    /**
     * The drawn 95% interval of a non-negative metric: mean ± half-width, cut at 0.
     *
     * @param mean the mean
     * @param halfWidth the interval's half-width
     * @return {lower, upper}
     */
    static double[] interval(double mean, double halfWidth) {
        return new double[] {Math.max(0, mean - halfWidth), mean + halfWidth};
    }

    private static void addCurves(XYChart chart, List<AnalyticCurve> curves, double from, double to) {
        int curveIndex = 0;
        for (AnalyticCurve curve : curves) {
            Objects.requireNonNull(curve, "curves contains null");
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < CURVE_POINTS; i++) {
                double at = i == CURVE_POINTS - 1 ? to : from + (to - from) * i / (CURVE_POINTS - 1);
                double value = curve.function().applyAsDouble(at);
                if (Double.isFinite(value)) {
                    x.add(at);
                    y.add(value);
                }
            }
            if (x.size() < 2) {
                continue;
            }
            String name = chart.getSeriesMap().containsKey(curve.name()) ? curve.name() + " (theory)" : curve.name();
            XYSeries series = chart.addSeries(name, x, y);
            series.setLineColor(ChartStyle.THEORY);
            series.setLineStyle(ChartStyle.THEORY_STROKES.get(curveIndex++ % ChartStyle.THEORY_STROKES.size()));
            series.setMarker(SeriesMarkers.NONE);
        }
    }

    private static SortedMap<String, String> others(CampaignRun run, String parameter) {
        SortedMap<String, String> others = new TreeMap<>(run.parameters());
        others.remove(parameter);
        return others;
    }
}

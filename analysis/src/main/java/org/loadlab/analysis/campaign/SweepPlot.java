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
 * range; non-finite values are skipped). When the means span more than a decade
 * ({@link ChartStyle#logScale}) the y axis is logarithmic, and its title says so, so that the
 * policies near the bottom are not squashed together under the one that dwarfs them.
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

    /** A low estimate of the plot area's height, pixels (the chart is {@value ChartStyle#HEIGHT} high). */
    private static final double PLOT_HEIGHT = ChartStyle.HEIGHT - 120;

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
        Optional<XYChart> chart = chart(runs, scenario, parameter, fixedParameters, metric, curves);
        if (chart.isEmpty()) {
            return Optional.empty();
        }
        String others = PlotNames.parameters(fixedParameters);
        String base = "sweep-" + metric.columnName() + "-" + PlotNames.part(scenario) + "-vs-" + PlotNames.part(parameter)
                + (others.isEmpty() ? "" : "_" + others);
        return Optional.of(ChartFiles.save(chart.get(), plotsDir, base));
    }

    /**
     * The chart {@link #write} saves, or empty when it writes none.
     *
     * @param runs all runs of the campaign
     * @param scenario the scenario
     * @param parameter the swept key on the x axis
     * @param fixedParameters the values of the other swept keys for this chart
     * @param metric the metric on the y axis
     * @param curves analytic curves to overlay
     * @return the chart, styled, with a series per policy (in the legend), its interval bars and the curves
     */
    static Optional<XYChart> chart(List<CampaignRun> runs, String scenario, String parameter,
            SortedMap<String, String> fixedParameters, Metric metric, List<AnalyticCurve> curves) {
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
        // policy → {x, mean, 95% half-width}
        Map<String, double[][]> points = new java.util.LinkedHashMap<>();
        double lowestMean = Double.POSITIVE_INFINITY;
        double highestMean = Double.NEGATIVE_INFINITY;
        for (Map.Entry<String, SortedMap<BigDecimal, List<Double>>> policy : data.entrySet()) {
            int n = policy.getValue().size();
            double[][] p = new double[3][n];
            int i = 0;
            for (Map.Entry<BigDecimal, List<Double>> point : policy.getValue().entrySet()) {
                Summary summary = Summary.of(point.getValue().stream().mapToDouble(Double::doubleValue).toArray());
                p[0][i] = point.getKey().doubleValue();
                p[1][i] = summary.mean();
                p[2][i] = Double.isNaN(summary.ci95()) ? 0 : summary.ci95();
                lowestMean = Math.min(lowestMean, p[1][i]);
                highestMean = Math.max(highestMean, p[1][i]);
                i++;
            }
            points.put(policy.getKey(), p);
        }
        boolean log = ChartStyle.logScale(highestMean, lowestMean);
        XYChart chart = ChartStyle.xyChart(metric.label() + " vs " + parameter + " — " + cellText,
                parameter,
                metric.labelWithUnit() + ", mean ± 95% CI" + (log ? " (log scale)" : ""));
        XYStyler styler = chart.getStyler();
        styler.setMarkerSize(10); // distinct shapes per policy (ChartStyle.looks) keep coinciding points apart
        chart.setCustomXAxisTickLabelsFormatter(ChartStyle::tick);
        if (!log) {
            styler.setYAxisMin(0.0); // every metric is non-negative (Metric), and so are the drawn intervals
            chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        }
        // On a log axis an interval reaching down to 0 or below is cut at half the lowest mean.
        double floor = log ? lowestMean / 2 : 0;
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(points.keySet(), true);
        int position = 0;
        for (Map.Entry<String, double[][]> policy : points.entrySet()) {
            double[] x = policy.getValue()[0];
            double[] y = policy.getValue()[1];
            double[] error = policy.getValue()[2];
            ChartStyle.Look look = looks.get(policy.getKey());
            XYSeries series = chart.addSeries(policy.getKey(), x, y);
            ChartStyle.style(series, look, position, points.size(), true);
            // The 95% interval as a vertical bar per point, clipped at 0: a negative response time or
            // queue length is impossible, so the symmetric t interval is not drawn below it.
            for (int k = 0; k < x.length; k++) {
                if (error[k] > 0) {
                    double[] bar = interval(y[k], error[k]);
                    bar[0] = Math.max(bar[0], floor);
                    XYSeries line = chart.addSeries(policy.getKey() + " CI " + k, new double[] {x[k], x[k]}, bar);
                    line.setLineColor(look.colour());
                    line.setLineStyle(new java.awt.BasicStroke(1.3f));
                    line.setMarker(SeriesMarkers.NONE);
                    line.setShowInLegend(false);
                }
            }
            position++;
        }
        addCurves(chart, curves, xs.first().doubleValue(), xs.last().doubleValue());
        if (log) {
            ChartStyle.logYAxis(chart, PLOT_HEIGHT);
        }
        return Optional.of(chart);
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
        boolean logarithmic = chart.getStyler().isYAxisLogarithmic(); // a log axis cannot draw values <= 0
        int curveIndex = 0;
        for (AnalyticCurve curve : curves) {
            Objects.requireNonNull(curve, "curves contains null");
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < CURVE_POINTS; i++) {
                double at = i == CURVE_POINTS - 1 ? to : from + (to - from) * i / (CURVE_POINTS - 1);
                double value = curve.function().applyAsDouble(at);
                if (Double.isFinite(value) && (value > 0 || !logarithmic)) {
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

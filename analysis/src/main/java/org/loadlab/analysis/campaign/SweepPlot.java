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
import org.knowm.xchart.AnnotationText;
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
 * range; non-finite values are skipped). When the positive means span more than a decade
 * ({@link ChartStyle#logScale}) the y axis is logarithmic, and its title says so, so that the
 * policies near the bottom are not squashed together under the one that dwarfs them. A log axis
 * has no 0, yet a mean of 0 is common (a protocol that never polls: polls per task): such points
 * are drawn with the policy's marker on the axis' bottom line, a power of 10 below every positive
 * mean, with no line to them, and the axis title says so; a policy that is 0 everywhere is a row
 * of markers on that line. No policy is left out of the chart.
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

    /** Where means of 0 are drawn on a log axis, as a multiple of a power of 10 (not a tick: 1..9). */
    static final double ZERO_LINE = 0.75;

    /** The note on a log axis' bottom line, where means of 0 are drawn. */
    static final String ZERO_NOTE = "markers on this line: 0 (a log axis has no 0)";

    /** Horizontal spacing of the policies' markers on the zero line, as a share of the x range (about 8 px). */
    static final double ZERO_DODGE = 0.012;

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
        double lowestPositiveMean = Double.POSITIVE_INFINITY;
        double highestMean = Double.NEGATIVE_INFINITY;
        boolean zeros = false;
        for (Map.Entry<String, SortedMap<BigDecimal, List<Double>>> policy : data.entrySet()) {
            int n = policy.getValue().size();
            double[][] p = new double[3][n];
            int i = 0;
            for (Map.Entry<BigDecimal, List<Double>> point : policy.getValue().entrySet()) {
                Summary summary = Summary.of(point.getValue().stream().mapToDouble(Double::doubleValue).toArray());
                p[0][i] = point.getKey().doubleValue();
                p[1][i] = summary.mean();
                p[2][i] = Double.isNaN(summary.ci95()) ? 0 : summary.ci95();
                if (p[1][i] > 0) {
                    lowestPositiveMean = Math.min(lowestPositiveMean, p[1][i]);
                } else {
                    zeros = true;
                }
                highestMean = Math.max(highestMean, p[1][i]);
                i++;
            }
            points.put(policy.getKey(), p);
        }
        // Zeros do not decide the scale: a protocol with no polls beside one with 20 per task
        // would otherwise keep a linear axis on which every other protocol lies flat at the bottom.
        boolean log = ChartStyle.logScale(highestMean, lowestPositiveMean);
        // The bottom line of a log axis, where means of 0 are drawn: below the power of 10 under half
        // the lowest positive mean, and not a tick (1..9 x 10^k), so that no number labels it.
        double zeroLine = log && zeros ? ZERO_LINE * Math.pow(10, Math.floor(Math.log10(lowestPositiveMean / 2))) : 0;
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
        // On a log axis an interval reaching down to 0 or below is cut at the bottom line.
        double floor = log ? (zeros ? zeroLine : lowestPositiveMean / 2) : 0;
        Map<String, ChartStyle.Look> looks = ChartStyle.looks(points.keySet(), true);
        // Policies that are 0 at one x would hide each other's markers on the zero line: each is
        // moved a few pixels aside, in legend order, around the true x.
        List<String> withZeros = points.entrySet().stream()
                .filter(e -> java.util.Arrays.stream(e.getValue()[1]).anyMatch(v -> !(v > 0))).map(Map.Entry::getKey).toList();
        double dodge = ZERO_DODGE * (xs.last().doubleValue() - xs.first().doubleValue());
        int position = 0;
        for (Map.Entry<String, double[][]> policy : points.entrySet()) {
            double[] x = policy.getValue()[0];
            double[] y = policy.getValue()[1];
            double[] error = policy.getValue()[2];
            ChartStyle.Look look = looks.get(policy.getKey());
            if (log && zeros) {
                double shift = (withZeros.indexOf(policy.getKey()) - (withZeros.size() - 1) / 2.0) * dodge;
                addOnLogAxis(chart, policy.getKey(), x, y, zeroLine, shift, look, position, points.size());
            } else {
                XYSeries series = chart.addSeries(policy.getKey(), x, y);
                ChartStyle.style(series, look, position, points.size(), true);
            }
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
            if (zeros) {
                chart.getStyler().setYAxisMin(zeroLine); // the zeros sit on the axis itself, which says so
                double first = xs.first().doubleValue();
                AnnotationText note = new AnnotationText(ZERO_NOTE, first + 0.24 * (xs.last().doubleValue() - first),
                        zeroLine * 1.45, false);
                chart.addAnnotation(note);
                chart.getStyler().setAnnotationTextFont(chart.getStyler().getAxisTickLabelsFont());
                chart.getStyler().setAnnotationTextFontColor(ChartStyle.THEORY);
            }
        }
        return Optional.of(chart);
    }

    /**
     * One policy on a log axis that has zeros to show: its positive means as a line (in the
     * legend), and its means of 0 as its markers on {@code zeroLine} without a line (in the legend
     * only when the policy has no positive mean at all, so that every policy is named once),
     * moved {@code shift} along x so that coinciding zeros of several policies all show.
     */
    private static void addOnLogAxis(XYChart chart, String policy, double[] x, double[] y, double zeroLine, double shift,
                                     ChartStyle.Look look, int position, int count) {
        List<Double> px = new ArrayList<>();
        List<Double> py = new ArrayList<>();
        List<Double> zx = new ArrayList<>();
        for (int k = 0; k < x.length; k++) {
            if (y[k] > 0) {
                px.add(x[k]);
                py.add(y[k]);
            } else {
                zx.add(x[k] + shift);
            }
        }
        if (!px.isEmpty()) {
            ChartStyle.style(chart.addSeries(policy, px, py), look, position, count, true);
        }
        if (!zx.isEmpty()) {
            XYSeries atZero = chart.addSeries(px.isEmpty() ? policy + " (0)" : policy + " = 0", zx,
                    java.util.Collections.nCopies(zx.size(), zeroLine));
            ChartStyle.style(atZero, look, position, count, true);
            atZero.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter); // markers only: no line down to "0"
            atZero.setShowInLegend(px.isEmpty());
        }
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

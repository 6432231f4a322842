package org.loadlab.analysis.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An analytic curve tabulated at fixed x values, as stored in {@code campaign-meta.json}: the
 * serialisable stand-in for an {@link AnalyticCurve}'s function. {@link #toCurve()} interpolates
 * linearly between the points (NaN outside them or next to a NaN point), so a report drawn
 * from the table is identical whether it is written first or rebuilt later.
 *
 * @param name legend text
 * @param parameter the swept key on the x axis
 * @param metric column name of the metric on the y axis
 * @param x ascending x values
 * @param y the curve's values at {@code x}, NaN where not finite
 */
@JsonPropertyOrder({"name", "parameter", "metric", "x", "y"})
record CurveTable(String name, String parameter, String metric, List<Double> x, List<Double> y) {

    /** Number of x values a curve is tabulated at. */
    static final int POINTS = 1001;

    /**
     * Creates the table, copying the lists.
     *
     * @param name see the class comment
     * @param parameter see the class comment
     * @param metric see the class comment
     * @param x see the class comment
     * @param y see the class comment
     * @throws IllegalArgumentException if the lists differ in length, hold fewer than 2 points,
     *     or x is not strictly ascending
     */
    CurveTable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(metric, "metric");
        x = List.copyOf(x);
        y = List.copyOf(y);
        if (x.size() != y.size() || x.size() < 2) {
            throw new IllegalArgumentException("analytic curve '" + name + "': " + x.size() + " x values and "
                    + y.size() + " y values; need equally many, at least 2");
        }
        for (int i = 1; i < x.size(); i++) {
            if (!(x.get(i) > x.get(i - 1))) {
                throw new IllegalArgumentException("analytic curve '" + name + "': x values must be strictly ascending");
            }
        }
    }

    /**
     * Tabulates a curve at {@value #POINTS} evenly spaced points of [from, to].
     *
     * @param curve the curve
     * @param parameter the swept key on the x axis
     * @param metric the metric on the y axis
     * @param from smallest x
     * @param to largest x, &gt; from
     * @return the table
     */
    static CurveTable tabulate(AnalyticCurve curve, String parameter, Metric metric, double from, double to) {
        List<Double> x = new ArrayList<>(POINTS);
        List<Double> y = new ArrayList<>(POINTS);
        for (int i = 0; i < POINTS; i++) {
            double at = i == POINTS - 1 ? to : from + (to - from) * i / (POINTS - 1);
            double value = curve.function().applyAsDouble(at);
            x.add(at);
            y.add(Double.isFinite(value) ? value : Double.NaN);
        }
        return new CurveTable(curve.name(), parameter, metric.columnName(), x, y);
    }

    /**
     * @return the curve, interpolating this table linearly
     */
    AnalyticCurve toCurve() {
        double[] xs = x.stream().mapToDouble(Double::doubleValue).toArray();
        double[] ys = y.stream().mapToDouble(Double::doubleValue).toArray();
        return new AnalyticCurve(name, at -> interpolate(xs, ys, at));
    }

    private static double interpolate(double[] xs, double[] ys, double at) {
        if (!(at >= xs[0] && at <= xs[xs.length - 1])) {
            return Double.NaN;
        }
        int i = java.util.Arrays.binarySearch(xs, at);
        if (i >= 0) {
            return ys[i];
        }
        int upper = -i - 1;
        int lower = upper - 1;
        double f = (at - xs[lower]) / (xs[upper] - xs[lower]);
        return ys[lower] + f * (ys[upper] - ys[lower]);
    }
}

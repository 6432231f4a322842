package org.loadlab.analysis.campaign;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The look shared by all campaign charts: size, fonts, white background, light grid, legend on
 * the right, locale-independent tick labels, and one fixed look per policy name (colour from the
 * Okabe–Ito palette, readable for colour-blind readers, dash and marker) in every chart of every
 * report and plot, with the first-drawn series widest so that coinciding lines stay visible.
 *
 * <p>Also switches AWT to headless mode before any chart is built
 * ({@code java.awt.headless=true} unless the property is already set).
 *
 * <p>Source: M. Okabe, K. Ito, "Color Universal Design", 2008 (palette); XChart 3.8.8 stylers.
 */
final class ChartStyle {

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** Chart width, pixels. */
    static final int WIDTH = 960;

    /** Chart height, pixels. */
    static final int HEIGHT = 560;

    /** Colour of analytic (theory) curves. */
    static final Color THEORY = new Color(0x33, 0x33, 0x33);

    /** Dashed stroke for analytic curves. */
    static final BasicStroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND,
            10f, new float[] {8f, 5f}, 0f);

    /** Strokes of successive analytic curves (long dash, dots, dash-dot), so two curves differ in style. */
    static final List<BasicStroke> THEORY_STROKES = List.of(
            DASHED,
            new BasicStroke(2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {1f, 5f}, 0f),
            new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {10f, 4f, 2f, 4f}, 0f));

    private static final List<Color> PALETTE = List.of(
            new Color(0x00, 0x72, 0xB2), // blue
            new Color(0xD5, 0x5E, 0x00), // vermillion
            new Color(0x00, 0x9E, 0x73), // bluish green
            new Color(0xCC, 0x79, 0xA7), // reddish purple
            new Color(0xE6, 0x9F, 0x00), // orange
            new Color(0x56, 0xB4, 0xE9), // sky blue
            new Color(0x00, 0x00, 0x00), // black
            new Color(0x99, 0x88, 0x33), // olive (instead of Okabe–Ito yellow, for contrast on white)
            new Color(0x88, 0x22, 0x55), // wine (Tol muted)
            new Color(0x44, 0xAA, 0x99), // teal
            new Color(0x99, 0x99, 0x99), // grey
            new Color(0x33, 0x22, 0x88)); // indigo

    private ChartStyle() {
    }

    /** Makes sure the static initialiser (headless mode) has run. */
    static void init() {
        // class initialisation does the work
    }

    /**
     * A line chart of the shared size and look ({@link #apply}), for every XY plot of a report.
     *
     * @param title the chart's title
     * @param xAxisTitle the x axis's title, with its unit
     * @param yAxisTitle the y axis's title, with its unit
     */
    static org.knowm.xchart.XYChart xyChart(String title, String xAxisTitle, String yAxisTitle) {
        init();
        org.knowm.xchart.XYChart chart = new org.knowm.xchart.XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(title).xAxisTitle(xAxisTitle).yAxisTitle(yAxisTitle).build();
        apply(chart.getStyler());
        return chart;
    }

    /**
     * Applies the shared look.
     *
     * @param styler a chart's styler
     */
    static void apply(AxesChartStyler styler) {
        styler.setLocale(Locale.ROOT);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotBorderColor(new Color(0x99, 0x99, 0x99));
        styler.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        styler.setChartFontColor(Color.BLACK);
        styler.setAxisTickLabelsColor(new Color(0x22, 0x22, 0x22));
        styler.setChartTitleBoxVisible(false);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendBorderColor(new Color(0xCC, 0xCC, 0xCC));
        styler.setChartPadding(12);
        styler.setAntiAlias(true);
        styler.setToolTipsEnabled(false);
    }

    /**
     * Shrinks a long title's font: XChart centres the title over the plot area (narrower than the
     * chart when the legend is outside), and cuts off both ends of a title wider than that.
     */
    static void fitTitle(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) {
        int length = chart.getTitle() == null ? 0 : chart.getTitle().length();
        if (length > 50) {
            int size = Math.max(11, Math.min(17, Math.round(17f * 58 / length)));
            chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, size));
        }
    }

    /**
     * Tick label text: at most 4 significant digits, plain decimals, locale-independent.
     *
     * @param value a tick value
     * @return e.g. {@code 0.05}, {@code 1200}, {@code 0.0001}
     */
    static String tick(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        if (value == 0) {
            return "0";
        }
        return new java.math.BigDecimal(value).round(new java.math.MathContext(4, java.math.RoundingMode.HALF_EVEN))
                .stripTrailingZeros().toPlainString();
    }

    /**
     * Policy names in a fixed order (the balancer catalog, then the load-sharing protocols):
     * the n-th name gets the n-th colour of the palette (a dashed line on the second pass), so a
     * policy has the same colour in every chart of every report, whatever else ran with it.
     * Other names (campaign variants such as p3c) get a look from a hash of their name.
     */
    static final List<String> KNOWN_POLICIES = List.of(
            "random", "round-robin", "weighted-round-robin", "least-connections", "least-queue", "p2c",
            "power-of-k", "gmsr", "gmsr-reference", "asmf", "asmf-no-feedback", "asmf-no-sampling",
            "asmf-no-multiresource", "strict-po2c", "sticky-lazy", "none", "sender-random", "sender-threshold",
            "sender-shortest", "receiver", "symmetric", "above-average", "stable-symmetric", "stable-sender");

    /** Marker shapes, one per palette colour, so that points of coinciding series stay told apart. */
    private static final List<Marker> MARKERS = List.of(SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS,
            SeriesMarkers.OVAL, SeriesMarkers.RECTANGLE, SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE);

    /**
     * How a policy is drawn in every chart.
     *
     * @param colour line and marker colour
     * @param dashed whether its line is dashed (second pass through the palette)
     * @param marker marker shape for charts with markers
     */
    record Look(Color colour, boolean dashed, Marker marker) {
    }

    /**
     * The fixed look of a policy: by its place in {@link #KNOWN_POLICIES}, else by a hash of its name.
     *
     * @param policy a policy (or variant) name
     * @return its colour, dash and marker, the same in every chart
     */
    static Look look(String policy) {
        int index = KNOWN_POLICIES.indexOf(policy);
        if (index < 0) {
            index = Math.floorMod(policy.hashCode(), 2 * PALETTE.size());
        }
        return new Look(PALETTE.get(index % PALETTE.size()), index >= PALETTE.size(), MARKERS.get(index % MARKERS.size()));
    }

    /**
     * Line width of the {@code position}-th of {@code count} series: the first drawn is the
     * widest, so a series that a later one covers exactly still shows as a border around it.
     */
    static float width(int position, int count) {
        return count <= 1 ? 2.5f : 1.5f + 2.5f * (count - 1 - position) / (count - 1);
    }

    /**
     * Makes XChart draw evenly spaced round ticks on the x axis of {@code chart} even when every
     * series has equally spaced x values (a time series with a point per second). XChart 3.8.8
     * then puts a tick at every k-th data value instead, with k chosen too small for labels of
     * three or more digits, so they run together ("116145174..."). One invisible point half a
     * spacing after {@code firstX} (no marker, no line, not in the legend) makes the values
     * unequally spaced, and XChart falls back to its round ticks. It draws nothing.
     *
     * @param chart the chart, after its data series are added
     * @param firstX the smallest x value of the data
     * @param spacing the distance between two x values, > 0
     */
    static void roundXTicks(org.knowm.xchart.XYChart chart, double firstX, double spacing) {
        XYSeries s = chart.addSeries(" round ticks", new double[] {firstX + spacing / 2}, new double[] {0});
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(new BasicStroke(0f));
        s.setLineColor(new Color(0, 0, 0, 0));
        s.setShowInLegend(false);
    }

    /** Applies a policy's look and its place in the drawing order to a line series. */
    static void style(XYSeries series, String policy, int position, int count, boolean markers) {
        Look look = look(policy);
        float width = width(position, count);
        series.setLineColor(look.colour());
        series.setMarkerColor(look.colour());
        series.setLineStyle(look.dashed()
                ? new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f)
                : new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        series.setMarker(markers ? look.marker() : SeriesMarkers.NONE);
    }
}

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
 * report and plot ({@link #look}; within one chart no two series look alike, {@link #looks}),
 * with the first-drawn series widest so that coinciding lines stay visible.
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

    /**
     * Marker shapes that differ at a glance (XChart's OVAL and RECTANGLE are left out: at marker
     * size 10 they look like CIRCLE and SQUARE). Eight shapes against twelve colours: the two
     * known policies that share a colour (n and n + 12) get different shapes.
     */
    private static final List<Marker> MARKERS = List.of(SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS,
            SeriesMarkers.TRAPEZOID);

    /** Dash patterns of policy lines (null: solid): solid, dashed, dotted, dash-dot. */
    private static final List<float[]> DASHES = java.util.Arrays.asList(null, new float[] {6f, 4f},
            new float[] {1.5f, 3.5f}, new float[] {9f, 3f, 2f, 3f});

    /**
     * How a policy is drawn in a chart.
     *
     * @param colour line and marker colour
     * @param dash line pattern: 0 solid, 1 dashed, 2 dotted, 3 dash-dot
     * @param marker marker shape for charts with markers
     */
    record Look(Color colour, int dash, Marker marker) {
    }

    /**
     * The preferred look of a policy: by its place n in {@link #KNOWN_POLICIES} (colour n mod 12,
     * marker n mod 8, solid for n < 12, dashed after), else from a hash of its name. Two names can
     * prefer the same look; {@link #looks} resolves that within a chart.
     *
     * @param policy a policy (or variant) name
     * @return its preferred colour, dash and marker, the same in every chart
     */
    static Look look(String policy) {
        int index = KNOWN_POLICIES.indexOf(policy);
        if (index < 0) {
            index = Math.floorMod(policy.hashCode(), 2 * PALETTE.size());
        }
        return new Look(PALETTE.get(index % PALETTE.size()), index >= PALETTE.size() ? 1 : 0, MARKERS.get(index % MARKERS.size()));
    }

    /**
     * The looks of the series of one chart, no two alike: each name gets its preferred
     * {@link #look} unless a name drawn before it in this chart already has that colour (or that
     * marker, when markers are shown); then it gets the least-used colour (and marker), and a line
     * pattern that makes its combination unique. Known policies are served first, in
     * {@link #KNOWN_POLICIES} order, so they keep their colours in every chart whatever variants
     * run beside them; variants (unknown names) come after, in the given order. Up to 12 series
     * all have distinct colours; beyond that colour × marker × line pattern (or colour × pattern
     * without markers) still never repeats (up to 384 series, or 48 without markers).
     *
     * @param names the chart's series keys (policy names), distinct
     * @param markers whether the chart shows markers (then the marker is part of a look)
     * @return name → look, in the order given
     */
    static java.util.Map<String, Look> looks(java.util.Collection<String> names, boolean markers) {
        List<String> order = new java.util.ArrayList<>(names);
        order.sort(java.util.Comparator.comparingInt(n -> KNOWN_POLICIES.contains(n) ? KNOWN_POLICIES.indexOf(n)
                : KNOWN_POLICIES.size())); // stable: unknown names keep their order
        int[] colourUse = new int[PALETTE.size()];
        int[] markerUse = new int[MARKERS.size()];
        java.util.Map<List<Integer>, Integer> markerDash = new java.util.HashMap<>(); // a shared marker gets another pattern
        java.util.Set<List<Integer>> taken = new java.util.HashSet<>();
        java.util.Map<String, Look> chosen = new java.util.HashMap<>();
        for (String name : order) {
            Look preferred = look(name);
            int pc = PALETTE.indexOf(preferred.colour());
            int pm = MARKERS.indexOf(preferred.marker());
            int[] best = null;
            long bestScore = Long.MAX_VALUE;
            for (int c = 0; c < PALETTE.size(); c++) {
                for (int m = 0; m < (markers ? MARKERS.size() : 1); m++) {
                    for (int d = 0; d < DASHES.size(); d++) {
                        if (taken.contains(List.of(c, markers ? m : -1, d))) {
                            continue;
                        }
                        // lexicographic: fewest uses of the colour, then the preferred colour, then
                        // fewest uses of the marker, of the marker with this pattern (a marker
                        // drawn twice gets two patterns), the preferred marker, the preferred pattern
                        long score = colourUse[c];
                        score = score * 2 + (c == pc ? 0 : 1);
                        score = score * 1000 + (markers ? markerUse[m] : 0);
                        score = score * 1000 + (markers ? markerDash.getOrDefault(List.of(m, d), 0) : 0);
                        score = score * 2 + (!markers || m == pm ? 0 : 1);
                        score = score * 2 + (d == preferred.dash() ? 0 : 1);
                        score = score * 16 + d;
                        if (score < bestScore) {
                            bestScore = score;
                            best = new int[] {c, m, d};
                        }
                    }
                }
            }
            if (best == null) { // more series than combinations: repeat the preferred look
                chosen.put(name, preferred);
                continue;
            }
            colourUse[best[0]]++;
            markerUse[best[1]]++;
            taken.add(List.of(best[0], markers ? best[1] : -1, best[2]));
            markerDash.merge(List.of(best[1], best[2]), 1, Integer::sum);
            chosen.put(name, new Look(PALETTE.get(best[0]), best[2], markers ? MARKERS.get(best[1]) : preferred.marker()));
        }
        java.util.Map<String, Look> inOrder = new java.util.LinkedHashMap<>();
        for (String name : names) {
            inOrder.put(name, chosen.get(name));
        }
        return inOrder;
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

    /**
     * Applies a look ({@link #looks}) and its place in the drawing order to a line series.
     *
     * @param series the series
     * @param look its look in this chart
     * @param position its place in the drawing order, from 0
     * @param count the number of series drawn this way
     * @param markers whether to show the look's marker
     */
    static void style(XYSeries series, Look look, int position, int count, boolean markers) {
        series.setLineColor(look.colour());
        series.setMarkerColor(look.colour());
        series.setLineStyle(stroke(look.dash(), width(position, count)));
        series.setMarker(markers ? look.marker() : SeriesMarkers.NONE);
    }

    /**
     * A line of the given pattern and width.
     *
     * @param dash 0 solid, 1 dashed, 2 dotted, 3 dash-dot
     * @param width line width, pixels
     */
    static BasicStroke stroke(int dash, float width) {
        float[] pattern = DASHES.get(dash);
        return pattern == null
                ? new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
                : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, pattern, 0f);
    }

    /** How many times the largest value must exceed the smallest for a log axis ({@link #logScale}). */
    static final double LOG_RATIO = 10;

    /**
     * Whether values spread over more than a decade ({@link #LOG_RATIO}) and are all positive, so
     * that on a linear axis the small ones would be squashed against zero and a log axis is read
     * better.
     *
     * @param largest the largest value drawn
     * @param smallest the smallest value that must stay readable (e.g. the lowest mean or median)
     */
    static boolean logScale(double largest, double smallest) {
        return smallest > 0 && Double.isFinite(largest) && largest / smallest > LOG_RATIO;
    }

    /**
     * Puts the y axis of {@code chart} on a log scale with plain decimal tick labels (XChart 3.8.8
     * ignores the log scale when a custom tick formatter is set, so this uses a decimal pattern).
     * XChart draws a grid line at 1, 2, ..., 9 × each power of 10; it labels all of them when a
     * decade has room for nine labels (log10(10/9) of a decade, the gap between 9 and 10, at least
     * {@value #LOG_LABEL_GAP} pixels), else only the powers of 10, so that labels never overlap
     * (and then extends the axis to a power of 10 within a factor 3 of the data).
     *
     * @param chart the chart, with all its series added (their positive y values set the range)
     * @param plotHeight a low estimate of the plot area's height, pixels
     */
    static void logYAxis(org.knowm.xchart.XYChart chart, double plotHeight) {
        double lowest = Double.POSITIVE_INFINITY;
        double highest = Double.NEGATIVE_INFINITY;
        for (XYSeries series : chart.getSeriesMap().values()) {
            for (double y : series.getYData()) {
                if (y > 0 && Double.isFinite(y)) {
                    lowest = Math.min(lowest, y);
                    highest = Math.max(highest, y);
                }
            }
        }
        double decades = Math.max(Math.log10(highest / lowest), 0.5);
        boolean roomForAll = plotHeight / decades * Math.log10(10.0 / 9) >= LOG_LABEL_GAP;
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(!roomForAll);
        if (!roomForAll) {
            // only powers of 10 are labelled: reach down (up) to the next one when it is near, so
            // that the lowest (highest) values have a label close by
            double below = Math.pow(10, Math.floor(Math.log10(lowest)));
            double above = Math.pow(10, Math.ceil(Math.log10(highest)));
            if (lowest / below < 3) {
                chart.getStyler().setYAxisMin(below);
            }
            if (above / highest < 3) {
                chart.getStyler().setYAxisMax(above);
            }
        }
        chart.getStyler().setYAxisDecimalPattern("0.######");
    }

    /** Least distance between two y tick labels on a log axis, pixels (13 px digits are about 10 px high). */
    static final double LOG_LABEL_GAP = 14;
}

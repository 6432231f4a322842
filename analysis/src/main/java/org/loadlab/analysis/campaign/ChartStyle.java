package org.loadlab.analysis.campaign;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * The look shared by all campaign charts: size, fonts, white background, light grid, legend on
 * the right, locale-independent tick labels, and one fixed colour per policy across every chart
 * of a campaign (Okabe–Ito palette, readable for colour-blind readers).
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

    /** Stroke of policy series beyond the palette: a second pass through the colours, dashed. */
    static final BasicStroke SECOND_PASS = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND,
            10f, new float[] {4f, 3f}, 0f);

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
     * The colour of a policy: its position among all policies of the campaign, so that a policy
     * keeps its colour in every chart.
     *
     * @param policy a policy name
     * @param allPolicies every policy of the campaign, sorted
     * @return its colour (the palette repeats after 8 policies)
     */
    /**
     * True when {@code policy} lies beyond the palette's first pass, so its series should be
     * drawn with {@link #SECOND_PASS} to stay distinct from the policy sharing its colour.
     */
    static boolean secondPass(String policy, SortedSet<String> allPolicies) {
        return allPolicies.headSet(policy).size() >= PALETTE.size();
    }

    static Color colour(String policy, SortedSet<String> allPolicies) {
        int index = allPolicies.headSet(policy).size();
        return PALETTE.get(index % PALETTE.size());
    }
}

package org.loadlab.studies.production;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.loadlab.analysis.campaign.PolicyColours;

/**
 * The studies' line charts: white background, each policy in its colour of every other chart
 * ({@link PolicyColours}), grey reference lines told apart by their dashes, PNG.
 */
final class StudyPlots {
    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private static final BasicStroke SOLID = new BasicStroke(2f);
    private static final BasicStroke VARIANT_DASH = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {9f, 4f}, 0f);
    private static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {7f, 5f}, 0f);

    private StudyPlots() {
    }

    static XYChart chart(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(1040).height(560).title(title).xAxisTitle(x).yAxisTitle(y).build();
        Styler s = c.getStyler();
        c.getStyler().setLocale(Locale.ROOT);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        s.setChartTitleBoxVisible(false);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        c.getStyler().setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        c.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setAntiAlias(true);
        c.getStyler().setYAxisDecimalPattern("0.###");
        return c;
    }

    /** Adds a solid line in {@code col} (a policy's colour, {@link PolicyColours}), with or without markers. */
    static void line(XYChart c, Color col, String name, double[] x, double[] y, boolean markers) {
        XYSeries s = c.addSeries(name, x, y);
        s.setLineColor(col);
        s.setMarkerColor(col);
        s.setLineStyle(SOLID);
        s.setMarker(markers ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
    }

    /**
     * Adds a dashed line in {@code col}, the colour of the solid series it is a variant of: that
     * series with one mechanism switched on (e.g. slow start), told apart by the dash.
     */
    static void dashedLine(XYChart c, Color col, String name, double[] x, double[] y) {
        XYSeries s = c.addSeries(name, x, y);
        s.setLineColor(col);
        s.setMarkerColor(col);
        s.setLineStyle(VARIANT_DASH);
        s.setMarker(SeriesMarkers.NONE);
    }

    /**
     * Adds series number {@code i} of the chart, in {@code col}, as points only (for categories,
     * where a line between them would mean nothing); the first as circles, the others diamonds.
     */
    static void points(XYChart c, int i, Color col, String name, double[] x, double[] y) {
        XYSeries s = c.addSeries(name, x, y);
        s.setMarkerColor(col);
        s.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.NONE);
        s.setMarker(i == 0 ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND);
    }

    /** The grey of the reference lines. */
    private static final Color REFERENCE_GREY = new Color(0x55, 0x55, 0x55);

    /** The dashes of a chart's first, second, third ... reference line, so their legend entries differ. */
    private static final List<BasicStroke> REFERENCE_STROKES = List.of(DASHED,
            new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {1.5f, 4f}, 0f),
            new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {9f, 4f, 2f, 4f}, 0f));

    /**
     * Adds a grey reference line at height {@code y} over [x0, x1]: dashed, or dotted for the
     * chart's second one and dash-dotted for its third (two alike dashed lines left the legend
     * unable to say which is which, e.g. herding's "p2c bound 2/n" and "fair share 1/n").
     */
    static void reference(XYChart c, String name, double x0, double x1, double y) {
        long earlier = c.getSeriesMap().values().stream().filter(e -> REFERENCE_GREY.equals(e.getLineColor())).count();
        XYSeries s = c.addSeries(name, new double[] {x0, x1}, new double[] {y, y});
        s.setLineColor(REFERENCE_GREY);
        s.setLineStyle(REFERENCE_STROKES.get((int) (earlier % REFERENCE_STROKES.size())));
        s.setMarker(SeriesMarkers.NONE);
    }

    /** Saves {@code c} as {@code dir/name.png}. */
    static Path save(XYChart c, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Path out = dir.resolve(name + ".png");
        try (OutputStream o = Files.newOutputStream(out)) {
            BitmapEncoder.saveBitmap(c, o, BitmapEncoder.BitmapFormat.PNG);
        }
        return out;
    }
}

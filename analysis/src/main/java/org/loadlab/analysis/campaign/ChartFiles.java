package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Saves a chart as {@code DIR/base.png} (XChart {@link BitmapEncoder}) and, when SVG is on,
 * {@code DIR/base.svg} (XChart {@link VectorGraphicsEncoder}), creating the directory. Neither
 * format carries a timestamp, so the same chart gives the same bytes.
 *
 * <p>SVG is on by default for a chart written on its own and off in a campaign report unless
 * asked for ({@link CampaignReport#write(Path, ReportMeta, List, boolean)}): a campaign's SVGs
 * are about ten times the size of its PNGs (35 MB against 3.2 MB for policy-sweep with 3 seeds).
 */
final class ChartFiles {
    /**
     * Whether this thread's charts get an SVG too. A report draws its charts on a pool; each
     * task takes the setting of the thread that submitted it ({@link ReportPlots}).
     */
    private static final ThreadLocal<Boolean> SVG = ThreadLocal.withInitial(() -> Boolean.TRUE);

    private ChartFiles() {
    }

    /** Whether the charts this thread writes next get an SVG too. */
    static boolean svgOn() {
        return SVG.get();
    }

    /** Turns SVG files on or off for the charts this thread writes next; returns the previous setting. */
    static boolean svg(boolean on) {
        boolean before = SVG.get();
        SVG.set(on);
        return before;
    }

    /**
     * @param chart the chart, styled
     * @param dir target directory, usually {@code CAMPAIGN_DIR/plots}
     * @param baseName file name without extension (see {@link PlotNames})
     * @return the written plot (its SVG null when SVG is off)
     * @throws IOException if a file cannot be written
     */
    static Plot save(Chart<?, ?> chart, Path dir, String baseName) throws IOException {
        ChartStyle.init();
        ChartStyle.fitTitle(chart);
        Files.createDirectories(dir);
        Path png = dir.resolve(baseName + ".png");
        Path svg = dir.resolve(baseName + ".svg");
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        java.util.List<String> legend = chart.getSeriesMap().values().stream()
                .filter(org.knowm.xchart.internal.series.Series::isShowInLegend)
                .map(org.knowm.xchart.internal.series.Series::getName).toList();
        if (!SVG.get()) {
            Files.deleteIfExists(svg); // a stale SVG of an earlier report would no longer match its PNG
            return new Plot(chart.getTitle(), png, null, legend);
        }
        try (OutputStream out = Files.newOutputStream(svg)) {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
        return new Plot(chart.getTitle(), png, svg, legend);
    }
}

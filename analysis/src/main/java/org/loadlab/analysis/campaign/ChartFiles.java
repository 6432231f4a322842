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

    /** Height of the title strip above a grid of panels, pixels. */
    static final int PANEL_TITLE_HEIGHT = 40;

    /**
     * Saves charts of one size as one picture: a grid of panels ("small multiples"), row by row,
     * under a title, as {@code DIR/base.png} and, when SVG is on, {@code DIR/base.svg}
     * (VectorGraphics2D, the library XChart's own SVG encoder uses). Neither format carries a
     * timestamp, so the same panels give the same bytes.
     *
     * @param title the picture's title, drawn centred above the panels
     * @param panels the panels, all {@code panels.get(0)}'s width and height, at least one
     * @param columns panels per row, at least 1
     * @param dir target directory; created if needed
     * @param baseName file name without extension (see {@link PlotNames})
     * @param legend what a reader can tell apart (the panels' names), for {@link Plot#legend}
     * @return the written plot (its SVG null when SVG is off)
     * @throws IOException if a file cannot be written
     * @throws IllegalArgumentException if there is no panel or {@code columns} is below 1
     */
    static Plot savePanels(String title, java.util.List<? extends Chart<?, ?>> panels, int columns, Path dir, String baseName,
            java.util.List<String> legend) throws IOException {
        if (panels.isEmpty() || columns < 1) {
            throw new IllegalArgumentException("panels: " + panels.size() + ", columns: " + columns + "; need at least 1 of each");
        }
        ChartStyle.init();
        int w = panels.get(0).getWidth();
        int h = panels.get(0).getHeight();
        int cols = Math.min(columns, panels.size());
        int rows = (panels.size() + cols - 1) / cols;
        int width = cols * w;
        int height = PANEL_TITLE_HEIGHT + rows * h;
        Files.createDirectories(dir);
        Path png = dir.resolve(baseName + ".png");
        Path svg = dir.resolve(baseName + ".svg");
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(width, height,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = image.createGraphics();
        try {
            paintPanels(g, title, panels, cols, width, height);
        } finally {
            g.dispose();
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            javax.imageio.ImageIO.write(image, "png", out);
        }
        if (!SVG.get()) {
            Files.deleteIfExists(svg);
            return new Plot(title, png, null, legend);
        }
        de.erichseifert.vectorgraphics2d.VectorGraphics2D vg = new de.erichseifert.vectorgraphics2d.VectorGraphics2D();
        paintPanels(vg, title, panels, cols, width, height);
        try (OutputStream out = Files.newOutputStream(svg)) {
            new de.erichseifert.vectorgraphics2d.svg.SVGProcessor()
                    .getDocument(vg.getCommands(), new de.erichseifert.vectorgraphics2d.util.PageSize(0, 0, width, height))
                    .writeTo(out);
        }
        return new Plot(title, png, svg, legend);
    }

    private static void paintPanels(java.awt.Graphics2D g, String title, java.util.List<? extends Chart<?, ?>> panels,
            int cols, int width, int height) {
        g.setRenderingHint(java.awt.RenderingHints.KEY_ANTIALIASING, java.awt.RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(java.awt.RenderingHints.KEY_TEXT_ANTIALIASING, java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(java.awt.Color.WHITE);
        g.fillRect(0, 0, width, height);
        java.awt.Font font = new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 17);
        java.awt.FontMetrics metrics = g.getFontMetrics(font);
        while (metrics.stringWidth(title) > width - 24 && font.getSize() > 11) {
            font = font.deriveFont((float) font.getSize() - 1);
            metrics = g.getFontMetrics(font);
        }
        g.setFont(font);
        g.setColor(java.awt.Color.BLACK);
        g.drawString(title, (width - metrics.stringWidth(title)) / 2, (PANEL_TITLE_HEIGHT + metrics.getAscent()) / 2);
        int w = panels.get(0).getWidth();
        int h = panels.get(0).getHeight();
        for (int i = 0; i < panels.size(); i++) {
            java.awt.Graphics2D panel = (java.awt.Graphics2D) g.create((i % cols) * w, PANEL_TITLE_HEIGHT + (i / cols) * h, w, h);
            try {
                panels.get(i).paint(panel, w, h);
            } finally {
                panel.dispose();
            }
        }
    }
}

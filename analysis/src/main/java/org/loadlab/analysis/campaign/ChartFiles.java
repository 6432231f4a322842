package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Saves a chart as {@code DIR/base.png} (XChart {@link BitmapEncoder}) and {@code DIR/base.svg}
 * (XChart {@link VectorGraphicsEncoder}), creating the directory. Neither format carries a
 * timestamp, so the same chart gives the same bytes.
 */
final class ChartFiles {

    private ChartFiles() {
    }

    /**
     * @param chart the chart, styled
     * @param dir target directory, usually {@code CAMPAIGN_DIR/plots}
     * @param baseName file name without extension (see {@link PlotNames})
     * @return the written plot
     * @throws IOException if a file cannot be written
     */
    static Plot save(Chart<?, ?> chart, Path dir, String baseName) throws IOException {
        ChartStyle.init();
        Files.createDirectories(dir);
        Path png = dir.resolve(baseName + ".png");
        Path svg = dir.resolve(baseName + ".svg");
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        try (OutputStream out = Files.newOutputStream(svg)) {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
        return new Plot(chart.getTitle(), png, svg);
    }
}

package org.loadlab.analysis.campaign;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One chart written to disk in two formats.
 *
 * @param title the chart's title (also used as caption in reports)
 * @param png the PNG file (raster, for web pages and the HTML report)
 * @param svg the SVG file (vector, same content, for papers), or null when none was written
 */
public record Plot(String title, Path png, Path svg) {

    /**
     * Creates the record.
     *
     * @param title see the class comment
     * @param png see the class comment
     * @param svg see the class comment
     * @throws NullPointerException if an argument is null
     */
    public Plot {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(png, "png");
    }
}

package org.loadlab.analysis.campaign;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One chart written to disk.
 *
 * @param title the chart's title (also used as caption in reports)
 * @param png the PNG file (raster, for web pages and the HTML report)
 * @param svg the SVG file (vector, same content, for papers), or null when none was written
 * @param legend the names in the chart's legend, in drawing order (what a reader can tell apart)
 */
public record Plot(String title, Path png, Path svg, List<String> legend) {

    /**
     * Creates the record.
     *
     * @param title see the class comment
     * @param png see the class comment
     * @param svg see the class comment
     * @param legend see the class comment
     * @throws NullPointerException if the title, the PNG or the legend is null
     */
    public Plot {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(png, "png");
        legend = List.copyOf(legend);
    }
}

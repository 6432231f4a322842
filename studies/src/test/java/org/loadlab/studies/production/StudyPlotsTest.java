package org.loadlab.studies.production;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/** Two reference lines of one chart look different, so the legend tells which is which. */
class StudyPlotsTest {
    @Test
    void secondAndThirdReferenceLinesHaveTheirOwnDash() {
        XYChart c = StudyPlots.chart("t", "x", "y");
        StudyPlots.line(c, 0, "p2c", new double[] {0, 1}, new double[] {0.1, 0.2}, true);
        StudyPlots.reference(c, "p2c bound 2/n", 0, 1, 0.1);
        StudyPlots.reference(c, "fair share 1/n", 0, 1, 0.05);
        StudyPlots.reference(c, "third", 0, 1, 0.02);
        java.awt.BasicStroke first = c.getSeriesMap().get("p2c bound 2/n").getLineStyle();
        java.awt.BasicStroke second = c.getSeriesMap().get("fair share 1/n").getLineStyle();
        java.awt.BasicStroke third = c.getSeriesMap().get("third").getLineStyle();
        assertNotEquals(java.util.Arrays.toString(first.getDashArray()), java.util.Arrays.toString(second.getDashArray()));
        assertNotEquals(java.util.Arrays.toString(second.getDashArray()), java.util.Arrays.toString(third.getDashArray()));
        assertNotEquals(java.util.Arrays.toString(first.getDashArray()), java.util.Arrays.toString(third.getDashArray()));
        // The policy's own line is not counted as a reference line: the first reference is the plain dash.
        assertEquals(2, first.getDashArray().length);
    }
}

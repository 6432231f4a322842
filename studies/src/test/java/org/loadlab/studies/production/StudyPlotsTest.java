package org.loadlab.studies.production;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.awt.Color;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.loadlab.analysis.campaign.PolicyColours;

/** Study charts: reference lines told apart by their dashes; policies in the colours of every other chart. */
class StudyPlotsTest {
    @Test
    void secondAndThirdReferenceLinesHaveTheirOwnDash() {
        XYChart c = StudyPlots.chart("t", "x", "y");
        StudyPlots.line(c, PolicyColours.of(List.of("p2c")).get("p2c"), "p2c", new double[] {0, 1}, new double[] {0.1, 0.2}, true);
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

    /**
     * A policy keeps its colour whatever runs beside it, as in the result plots and reports
     * (the studies had a palette of their own: p2c orange here, sky blue there).
     */
    @Test
    void aPolicyHasTheSameColourInEveryChart() {
        Map<String, Color> herding = PolicyColours.of(List.of("random", "p2c", "least-queue"));
        Map<String, Color> alone = PolicyColours.of(List.of("p2c"));
        Map<String, Color> withVariants = PolicyColours.of(List.of("p2c", "ring-hash", "maglev"));
        assertEquals(alone.get("p2c"), herding.get("p2c"));
        assertEquals(alone.get("p2c"), withVariants.get("p2c"));
        assertEquals(3, herding.values().stream().distinct().count(), "no two series of one chart alike: " + herding);
        assertEquals(3, withVariants.values().stream().distinct().count(), withVariants.toString());
    }
}

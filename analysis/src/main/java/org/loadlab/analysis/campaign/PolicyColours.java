package org.loadlab.analysis.campaign;

import java.awt.Color;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The colour each policy is drawn in, for charts drawn outside this package (the studies'):
 * the same colour as in every result plot and campaign report, no two alike within one chart
 * of up to 12 series.
 *
 * <p>Source: {@link ChartStyle#looks} (Okabe–Ito palette, fixed order of the known policies).
 */
public final class PolicyColours {
    private PolicyColours() {
    }

    /**
     * The colours of one chart's series.
     *
     * @param names the series' names (policy names, or other labels, which get a colour of their own), distinct
     * @return name → colour, in the order given
     * @throws IllegalArgumentException if a name is given twice
     */
    public static Map<String, Color> of(Collection<String> names) {
        if (names.stream().distinct().count() != names.size()) {
            throw new IllegalArgumentException("series names must be distinct: " + names);
        }
        Map<String, Color> colours = new LinkedHashMap<>();
        ChartStyle.looks(names, false).forEach((name, look) -> colours.put(name, look.colour()));
        return colours;
    }
}

package org.loadlab.analysis.campaign;

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * A scenario at one combination of swept parameter values: the unit within which policies are
 * compared. Ordered by scenario, then parameters ({@link ParameterOrder}).
 *
 * @param scenario scenario name
 * @param parameters swept keys and values (unmodifiable, sorted by key)
 */
record Cell(String scenario, SortedMap<String, String> parameters) implements Comparable<Cell> {

    /** Canonical order: scenario (numbers in names by value: x-100, x-500, x-1000), then parameters. */
    static final Comparator<Cell> ORDER = Comparator.comparing(Cell::scenario, ParameterOrder.NAMES)
            .thenComparing(Cell::parameters, ParameterOrder.MAPS);

    /**
     * Creates the cell, copying {@code parameters}.
     *
     * @param scenario see the class comment
     * @param parameters see the class comment
     */
    Cell {
        Objects.requireNonNull(scenario, "scenario");
        parameters = Collections.unmodifiableSortedMap(new TreeMap<>(parameters));
    }

    /**
     * @param run a run
     * @return the run's cell
     */
    static Cell of(CampaignRun run) {
        return new Cell(run.scenario(), run.parameters());
    }

    /**
     * @param run a run
     * @return whether the run belongs to this cell
     */
    boolean contains(CampaignRun run) {
        return scenario.equals(run.scenario()) && parameters.equals(run.parameters());
    }

    /**
     * @return the parameters as {@code k=v, k2=v2}, or {@code no swept parameters} when empty
     */
    String parameterLabel() {
        if (parameters.isEmpty()) {
            return "no swept parameters";
        }
        StringJoiner joiner = new StringJoiner(", ");
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            joiner.add(entry.getKey() + "=" + entry.getValue());
        }
        return joiner.toString();
    }

    /**
     * @return {@code scenario} alone, or {@code scenario, k=v, ...}
     */
    String label() {
        return parameters.isEmpty() ? scenario : scenario + ", " + parameterLabel();
    }

    /**
     * @param other another cell
     * @return the {@link #ORDER} comparison
     */
    @Override
    public int compareTo(Cell other) {
        return ORDER.compare(this, other);
    }
}

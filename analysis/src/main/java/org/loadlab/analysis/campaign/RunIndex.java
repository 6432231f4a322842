package org.loadlab.analysis.campaign;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs in canonical order, grouped by cell (scenario, parameters) and policy, with duplicates
 * refused. Canonical order: cell ({@link Cell#ORDER}), policy name, seed.
 */
final class RunIndex {

    /** Canonical order of runs. */
    static final Comparator<CampaignRun> ORDER = Comparator.comparing(Cell::of, Cell.ORDER)
            .thenComparing(CampaignRun::policy)
            .thenComparingLong(CampaignRun::seed);

    private final List<CampaignRun> runs;
    private final SortedMap<Cell, SortedMap<String, List<CampaignRun>>> cells;
    private final boolean inWorkUnits;

    private RunIndex(List<CampaignRun> runs, SortedMap<Cell, SortedMap<String, List<CampaignRun>>> cells) {
        this.runs = runs;
        this.cells = cells;
        this.inWorkUnits = Metric.inWorkUnits(runs);
    }

    /** Whether every run counts its queues in work units (the reference model; {@link Metric#inWorkUnits}). */
    boolean inWorkUnits() {
        return inWorkUnits;
    }

    /**
     * Sorts and groups runs.
     *
     * @param runs runs in any order
     * @return the index
     * @throws NullPointerException if {@code runs} or a run is null
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed
     */
    static RunIndex of(List<CampaignRun> runs) {
        List<CampaignRun> sorted = sorted(runs);
        SortedMap<Cell, SortedMap<String, List<CampaignRun>>> cells = new TreeMap<>();
        for (CampaignRun run : sorted) {
            cells.computeIfAbsent(Cell.of(run), c -> new TreeMap<>())
                    .computeIfAbsent(run.policy(), p -> new ArrayList<>())
                    .add(run);
        }
        return new RunIndex(sorted, cells);
    }

    /**
     * @param runs runs in any order
     * @return a new list in canonical order
     * @throws NullPointerException if {@code runs} or a run is null
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed
     */
    static List<CampaignRun> sorted(List<CampaignRun> runs) {
        Objects.requireNonNull(runs, "runs");
        List<CampaignRun> sorted = new ArrayList<>(runs.size());
        for (CampaignRun run : runs) {
            sorted.add(Objects.requireNonNull(run, "runs contains null"));
        }
        sorted.sort(ORDER);
        for (int i = 1; i < sorted.size(); i++) {
            if (ORDER.compare(sorted.get(i - 1), sorted.get(i)) == 0) {
                throw new IllegalArgumentException("runs: duplicate run " + sorted.get(i).describe()
                        + "; each (scenario, parameters, policy, seed) may appear once");
            }
        }
        return Collections.unmodifiableList(sorted);
    }

    /** @return all runs in canonical order */
    List<CampaignRun> runs() {
        return runs;
    }

    /** @return cell → policy → runs (ascending seed), all sorted */
    SortedMap<Cell, SortedMap<String, List<CampaignRun>>> cells() {
        return cells;
    }

    /** @return the distinct policy names, sorted */
    SortedSet<String> policies() {
        SortedSet<String> policies = new TreeSet<>();
        runs.forEach(r -> policies.add(r.policy()));
        return policies;
    }

    /** @return the distinct scenario names, sorted */
    SortedSet<String> scenarios() {
        SortedSet<String> scenarios = new TreeSet<>(ParameterOrder.NAMES);
        runs.forEach(r -> scenarios.add(r.scenario()));
        return scenarios;
    }

    /** @return the distinct seeds, ascending */
    SortedSet<Long> seeds() {
        SortedSet<Long> seeds = new TreeSet<>();
        runs.forEach(r -> seeds.add(r.seed()));
        return seeds;
    }

    /** @return the union of the runs' parameter keys, sorted */
    SortedSet<String> parameterKeys() {
        SortedSet<String> keys = new TreeSet<>();
        runs.forEach(r -> keys.addAll(r.parameters().keySet()));
        return keys;
    }

    /**
     * @param key a parameter key
     * @return its distinct values over all runs, in {@link ParameterOrder#VALUES} order
     */
    SortedSet<String> parameterValues(String key) {
        SortedSet<String> values = new TreeSet<>(ParameterOrder.VALUES);
        for (CampaignRun run : runs) {
            String value = run.parameters().get(key);
            if (value != null) {
                values.add(value);
            }
        }
        return values;
    }
}

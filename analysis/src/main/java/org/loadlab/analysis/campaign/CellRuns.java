package org.loadlab.analysis.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The runs of one cell (scenario, parameters) grouped by policy, plus every policy name of
 * the campaign (for colours). Used by the plot classes.
 *
 * @param cell the cell
 * @param byPolicy policy → runs in ascending seed order, policies sorted
 * @param allPolicies every policy in the campaign, sorted
 */
record CellRuns(Cell cell, SortedMap<String, List<CampaignRun>> byPolicy, SortedSet<String> allPolicies) {

    /**
     * @param runs all runs of a campaign, any order
     * @param scenario the scenario
     * @param parameters the cell's parameters
     * @return the cell's runs; {@code byPolicy} is empty when the cell has no runs
     * @throws NullPointerException if an argument or a run is null
     * @throws IllegalArgumentException if two runs share scenario, parameters, policy and seed
     */
    static CellRuns select(List<CampaignRun> runs, String scenario, SortedMap<String, String> parameters) {
        Objects.requireNonNull(runs, "runs");
        Cell cell = new Cell(Objects.requireNonNull(scenario, "scenario"), Objects.requireNonNull(parameters, "parameters"));
        SortedSet<String> all = new TreeSet<>();
        List<CampaignRun> selected = new ArrayList<>();
        for (CampaignRun run : runs) {
            all.add(Objects.requireNonNull(run, "runs contains null").policy());
            if (cell.contains(run)) {
                selected.add(run);
            }
        }
        SortedMap<String, List<CampaignRun>> byPolicy = new TreeMap<>();
        for (CampaignRun run : RunIndex.sorted(selected)) {
            byPolicy.computeIfAbsent(run.policy(), p -> new ArrayList<>()).add(run);
        }
        return new CellRuns(cell, byPolicy, all);
    }

    /** Every run of the cell, policy by policy. */
    List<CampaignRun> runs() {
        return byPolicy.values().stream().flatMap(List::stream).toList();
    }

    /** Whether the cell's runs count their queues in work units ({@link Metric#inWorkUnits}). */
    boolean inWorkUnits() {
        return Metric.inWorkUnits(runs());
    }
}

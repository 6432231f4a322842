package org.loadlab.experiment.campaign;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.loadlab.experiment.run.RunSpec;

/**
 * A validated, expanded campaign: every run it consists of, in a fixed order (scenario,
 * parameter point, policy variant, seed), so run {@code index} means the same run in every
 * process that loads the same definition. That is what lets a killed campaign resume.
 *
 * @param id campaign id: name plus a hash of the resolved definition
 * @param name campaign name
 * @param description one line
 * @param definitionJson the resolved definition (what the id hashes)
 * @param runs all runs, index = position
 * @param reference the policy variant comparisons are made against
 * @param sweepKeys the scenario keys that vary between parameter points
 * @param analytic analytic curve names (mm1, mmn) for the response-time plot
 * @param metrics runs.csv column names the report analyses (empty: the headline metrics)
 */
public record CampaignPlan(String id, String name, String description, String definitionJson, List<PlannedRun> runs,
                           String reference, List<String> sweepKeys, List<String> analytic, List<String> metrics) {

    /**
     * The runs in the order a campaign simulates them: the first seed of every cell
     * (scenario, parameter point, policy variant), then the second seed of every cell, and so
     * on, each round in plan order. Indexes are those of {@link #runs()}, so what is stored
     * and resumed does not depend on this order, and neither does any run's result.
     *
     * <p>Why: a campaign is short compared with the JIT's warm-up. In plan order (every seed
     * of one policy, then the next policy) the hot simulation code is compiled for the first
     * policy's classes and compiled again each time a new policy's classes appear; with every
     * cell's classes seen in the first round, it is compiled about once (docs/performance.md,
     * "Campaigns": about 115 instead of 200 C2 compilations of LoadLab's methods in a
     * 1,000-run campaign). An interrupted campaign then also has every cell partly done, not the first
     * cells whole and the last ones empty.
     *
     * @return every run once, interleaved across cells
     */
    public List<PlannedRun> executionOrder() {
        Map<String, Integer> seen = new HashMap<>();
        int[] round = new int[runs.size()];
        for (PlannedRun r : runs) {
            round[r.index()] = seen.merge(r.cell(), 1, Integer::sum) - 1;
        }
        List<PlannedRun> order = new ArrayList<>(runs);
        order.sort(Comparator.comparingInt((PlannedRun r) -> round[r.index()]).thenComparingInt(PlannedRun::index));
        return List.copyOf(order);
    }

    /**
     * One run of a campaign.
     *
     * @param index position in the plan
     * @param scenario scenario name
     * @param parameters swept keys and their values at this point (sorted)
     * @param variant policy variant name
     * @param spec what to simulate (scenario with all overrides, base policy, seed)
     */
    public record PlannedRun(int index, String scenario, SortedMap<String, String> parameters, String variant,
                             RunSpec spec) {

        /** The cell this run is one seed of: scenario, parameter point and variant. */
        String cell() {
            return scenario + '\u0000' + parameters + '\u0000' + variant;
        }
    }
}

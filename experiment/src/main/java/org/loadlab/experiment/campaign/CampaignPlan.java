package org.loadlab.experiment.campaign;

import java.util.List;
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
    }
}

package org.loadlab.experiment.run;

import org.loadlab.experiment.scenario.Scenario;

/**
 * One run: a scenario, the policy every balancer uses, and the master seed.
 *
 * @param scenario the validated scenario
 * @param policy a policy name from the catalog
 * @param seed master seed
 */
public record RunSpec(Scenario scenario, String policy, long seed) {
}

package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;

/** Loads scenarios for the CLI with the balancer catalog's policy names. */
final class Scenarios {
    private Scenarios() {
    }

    static ScenarioLoader loader() {
        return new ScenarioLoader(name -> PolicyCatalog.find(name).isPresent(), PolicyCatalog.names());
    }

    /**
     * Loads {@code nameOrFile} with overrides; {@code policies} and {@code seeds}, when
     * given, replace the scenario's lists and are validated like any other key.
     */
    static Scenario load(String nameOrFile, List<String> sets, String policies, String seeds) {
        List<String> overrides = new ArrayList<>(sets);
        if (policies != null) {
            overrides.add("policies = \"" + policies.replace("\"", "") + "\"");
        }
        if (seeds != null) {
            overrides.add("seeds = \"" + seeds.replace("\"", "") + "\"");
        }
        return loader().load(nameOrFile, overrides);
    }
}

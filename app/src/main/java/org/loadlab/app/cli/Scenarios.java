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
        warnIfEmpty(nameOrFile);
        return loader().load(nameOrFile, overrides);
    }

    /**
     * Warns on stderr when a scenario file holds no key at all (an empty or comment-only
     * file): it would run every default silently, which is rarely what its author meant.
     */
    static void warnIfEmpty(String nameOrFile) {
        java.nio.file.Path file = java.nio.file.Path.of(nameOrFile);
        if (org.loadlab.experiment.scenario.BuiltIns.SCENARIOS.containsKey(nameOrFile) || !java.nio.file.Files.isRegularFile(file)) {
            return;
        }
        try {
            if (com.typesafe.config.ConfigFactory.parseFile(file.toFile()).isEmpty()) {
                System.err.println("warning: scenario file " + nameOrFile + " is empty (no keys): running the defaults of every"
                        + " key (20 nodes, Poisson arrivals at utilisation 0.7, 300 s; docs/scenarios.md)");
            }
        } catch (com.typesafe.config.ConfigException e) {
            // the loader reports the parse error with the file and line
        }
    }
}

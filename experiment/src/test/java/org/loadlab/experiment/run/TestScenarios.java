package org.loadlab.experiment.run;

import java.util.List;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;

/** Loads scenarios in tests the way the CLI does. */
public final class TestScenarios {
    private TestScenarios() {
    }

    /** The loader with the balancer catalog's policy names. */
    public static ScenarioLoader loader() {
        return new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
    }

    /** Built-in {@code name} with {@code key=value} overrides. */
    public static Scenario load(String name, String... overrides) {
        return loader().load(name, List.of(overrides));
    }
}

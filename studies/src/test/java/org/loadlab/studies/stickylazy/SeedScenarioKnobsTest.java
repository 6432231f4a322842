package org.loadlab.studies.stickylazy;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.ScenarioException;

/** The new keys against the seeds' own scenarios: what the reference model refuses, what seed 001 needs. */
class SeedScenarioKnobsTest {

    private static String problems(String scenario, String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load(scenario, overrides));
        return String.join("\n", e.problems());
    }

    @Test
    void theReferenceModelRefusesSpeedsPerSeedAndWarmupByRequests() {
        String p = problems("asmf-poisson-medium", "nodes.speeds-per-seed = true", "warmup-requests = 10");
        assertTrue(p.contains("nodes.speeds-per-seed = true") && p.contains("model = reference"), p);
        assertTrue(p.contains("warmup-requests = 10") && p.contains("use 0, or model = message"), p);
    }

    @Test
    void seed001MixtureComponentsKeepTheirStandardForm() {
        String p = problems("sticky-lazy-seed", "demand.components = [{ weight = 1, distribution = pareto, alpha = 2, mean = 3 }]");
        assertTrue(p.contains("demand.components[0].mean") && p.contains("standard form"), p);
    }

    @Test
    void loadSharingProtocolsHaveNoBins() {
        String p = problems("load-sharing", "model = balls-into-bins", "requests = 100");
        assertTrue(p.contains("policies[0]") && p.contains("load-sharing protocol") && p.contains("balls-into-bins"), p);
    }
}

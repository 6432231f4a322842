package org.loadlab.studies.autonomy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.ScenarioException;

/** Seed 003's scenario keys (profiles, shedding, lin-ts) are refused as the others are: once each, with the scenario header. */
class AutonomyKeysWordingTest {

    private static List<String> problems(String... overrides) {
        return assertThrows(ScenarioException.class, () -> TestScenarios.load("autonomous", overrides)).problems();
    }

    @Test
    void aBadExtraProfileIsOneProblemNotOnePerNode() {
        List<String> p = problems("nodes.extra-profile = turbo");
        assertEquals(1, p.stream().filter(s -> s.startsWith("nodes.extra-profile = 'turbo': one of ")).count(), p.toString());
    }

    @Test
    void aBadSheddingShareIsAScenarioProblem() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load("autonomous", "shedding.cpu-above = 2"));
        assertTrue(e.getMessage().contains("is invalid") && e.problems().contains("shedding.cpu-above = 2.0: must be in [0.0, 1.0] (CPU share)"),
                e.getMessage());
    }

    @Test
    void aPositiveRewardFloorReadsLikeTheOtherBounds() {
        assertTrue(problems("lin-ts.reward-floor = 5").contains("lin-ts.reward-floor = 5.0: must be <= 0 (rewards are penalties)"));
    }
}

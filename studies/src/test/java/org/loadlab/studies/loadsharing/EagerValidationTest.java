package org.loadlab.studies.loadsharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.stats.SenderInitiatedModel;
import org.loadlab.experiment.run.RunExecutor;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Eager, Lazowska and Zahorjan's sender-initiated policies (Random, Threshold, Shortest with
 * T = 2, Lp = 3) on the built-in 40-node load-sharing scenario against their many-node model
 * ({@link SenderInitiatedModel}), at ρ 0.5 and 0.7 where 40 nodes are already close to the
 * limit (docs/validation.md: within 0.5% and 1.3%; at ρ 0.9 the finite system queues 5-8% more).
 */
class EagerValidationTest {

    @Test
    void senderInitiatedPoliciesMatchTheManyNodeModel() {
        String[] protocols = {"sender-random", "sender-threshold", "sender-shortest"};
        SenderInitiatedModel.Policy[] models = {SenderInitiatedModel.Policy.RANDOM, SenderInitiatedModel.Policy.THRESHOLD,
                SenderInitiatedModel.Policy.SHORTEST};
        for (double rho : new double[] {0.5, 0.7}) {
            Scenario s = TestScenarios.load("load-sharing", "arrivals.utilisation = " + rho);
            List<RunSpec> specs = new ArrayList<>();
            for (String p : protocols) {
                specs.add(new RunSpec(s, p, 101));
                specs.add(new RunSpec(s, p, 102));
            }
            List<RunResult> results = RunExecutor.runAll(specs, 2, SimulationRunner::run, r -> { });
            for (int i = 0; i < protocols.length; i++) {
                double measured = (results.get(2 * i).metrics().responseMean() + results.get(2 * i + 1).metrics().responseMean()) / 2;
                double theory = SenderInitiatedModel.meanResponse(models[i], rho, 2, 3);
                // Two 5,000 s runs: sd of the mean 0.005-0.01 s (seeds 101-105 of the validation
                // table), plus the finite-size excess of 40 nodes (0.006-0.02 s here).
                assertEquals(theory, measured, 0.025 * theory, protocols[i] + " at rho " + rho);
            }
        }
    }
}

package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Random routing of a Poisson stream over 20 identical nodes splits it into 20
 * independent Poisson streams of rate λ/20, so each node is an M/M/1 queue whose mean
 * response time is 1/(μ − λ/20) and mean waiting time ρ/(μ − λ/20).
 */
class MM1ValidationTest {

    @ParameterizedTest(name = "rho {0}")
    @CsvSource({"0.5, 40000", "0.8, 100000"})
    void randomRoutingMatchesMM1(double rho, double duration) {
        Scenario s = TestScenarios.load("mm1-random", "arrivals.utilisation = " + rho, "duration = " + duration);
        RunMetrics m = SimulationRunner.run(new RunSpec(s, "random", 101)).metrics();
        double mu = 1.0;
        double lambdaPerNode = rho * mu;
        double expectedResponse = 1.0 / (mu - lambdaPerNode);
        double expectedWait = rho / (mu - lambdaPerNode);
        assertTrue(m.requestsCompleted() > 5 * duration, "enough samples: " + m.requestsCompleted());
        assertEquals(expectedResponse, m.responseMean(), 0.03 * expectedResponse,
                "mean response time vs M/M/1 1/(mu - lambda)");
        assertEquals(expectedWait, m.waitMean(), 0.04 * expectedWait, "mean waiting time vs M/M/1");
        assertEquals(rho, m.throughputRps() / 20.0, 0.01, "throughput per node equals lambda");
        assertEquals(0, m.requestsRejected());
        assertEquals(0, m.queriesPerDecision(), "random reads no load");
    }
}

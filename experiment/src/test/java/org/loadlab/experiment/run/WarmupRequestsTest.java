package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.WorkloadBuilder;
import org.loadlab.workload.arrival.ArrivalProcess;

/** {@code warmup-requests = N}: the measurement window opens when request N + 1 arrives. */
class WarmupRequestsTest {

    @Test
    void theWindowOpensAtTheArrivalOfRequestNPlusOne() {
        Scenario s = TestScenarios.load("quickstart", "warmup = 0", "warmup-requests = 1000");
        RunAssembly a = RunAssembly.build(new RunSpec(s, "p2c", 101));
        ArrivalProcess arrivals = WorkloadBuilder.build(s, a.topology().capacity(1), 101).arrivals();
        double t = 0;
        for (int i = 0; i <= 1000; i++) {
            t = arrivals.next();
        }
        assertEquals(t, a.warmupSeconds(), 0, "the 1001st arrival instant");
        RunMetrics m = SimulationRunner.run(new RunSpec(s, "p2c", 101)).metrics();
        assertEquals(m.requestsArrived() - 1000, m.decodeResponseHistogram().count(),
                "every request but the first 1000 is measured (all complete)");
        // The same window given in seconds gives the same metrics.
        Scenario seconds = TestScenarios.load("quickstart", "warmup = " + t);
        assertEquals(m, SimulationRunner.run(new RunSpec(seconds, "p2c", 101)).metrics());
    }

    @Test
    void theLaterOfSecondsAndRequestsWinsAndTooFewArrivalsAreNamed() {
        Scenario both = TestScenarios.load("quickstart", "warmup = 250", "warmup-requests = 10");
        assertEquals(250, RunAssembly.build(new RunSpec(both, "p2c", 101)).warmupSeconds(), 0);
        Scenario tooMany = TestScenarios.load("quickstart", "warmup = 0", "duration = 10", "warmup-requests = 100000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunAssembly.build(new RunSpec(tooMany, "p2c", 101)).warmupSeconds());
        assertTrue(e.getMessage().contains("warmup-requests = 100000") && e.getMessage().contains("end before request 100001"),
                e.getMessage());
    }
}

package org.loadlab.shell.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.node.sharing.PeerNode;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The same logic classes run as Pekko actors in real time agree with the simulation:
 * mm1-random at utilisation 0.7, same seed, mean response time within 10%; and a peer
 * load-sharing protocol polls and transfers between the actors.
 */
class LiveModeTest {

    @Test
    void liveMm1AgreesWithSimulationWithinTenPercent() {
        Scenario s = TestScenarios.load("mm1-random", "arrivals.utilisation = 0.7", "duration = 300", "warmup = 20");
        RunSpec spec = new RunSpec(s, "random", 101);
        RunMetrics sim = SimulationRunner.run(spec).metrics();
        SimulationRunner.Outcome live = LiveRunner.run(spec, 25.0);
        RunMetrics m = live.result().metrics();
        assertEquals(sim.requestsArrived(), m.requestsArrived(), "the live driver replays the same arrivals");
        assertEquals(m.requestsArrived(), m.requestsCompleted(), "every request completes");
        assertTrue(live.events() >= 3 * m.requestsArrived(), "arrivals, requests and responses travel as messages");
        System.out.printf("live %.4f s vs sim %.4f s mean response (%d requests)%n", m.responseMean(), sim.responseMean(), m.requestsArrived());
        double relative = Math.abs(m.responseMean() - sim.responseMean()) / sim.responseMean();
        assertTrue(relative < 0.10, "live mean response " + m.responseMean() + " s vs simulated " + sim.responseMean()
                + " s differ by " + Math.round(relative * 100) + "%");
    }

    @Test
    void theSameProtocolRunsLiveAsPekkoActors() {
        Scenario s = TestScenarios.load("load-sharing", "nodes.count = 8", "duration = 40", "warmup = 0",
                "arrivals.utilisation = 0.8", "load-sharing.poll-timeout = 0.5");
        RunSpec spec = new RunSpec(s, "symmetric", 101);
        SimulationRunner.Outcome live = LiveRunner.run(spec, 20.0); // conservation is checked inside
        RunMetrics m = live.result().metrics();
        assertEquals(SimulationRunner.run(spec).metrics().requestsArrived(), m.requestsArrived(), "same arrivals");
        assertEquals(m.requestsArrived(), m.requestsCompleted(), "every task completes");
        assertTrue(m.counters().getOrDefault(PeerNode.TRANSFERS, 0L) > 0, "tasks moved between the actors");
        assertTrue(m.messagesByKind().getOrDefault("Poll", 0L) > 0);
    }
}

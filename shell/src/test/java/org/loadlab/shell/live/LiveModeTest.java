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
        // Live and simulated runs replay the same arrivals and demands, so they differ only by timing:
        // a short run suffices. At time scale 10 a timer may be 10 ms late before the lag check stops
        // the run, which keeps the test meaningful on a busy shared machine.
        Scenario s = TestScenarios.load("mm1-random", "arrivals.utilisation = 0.7", "duration = 120", "warmup = 10");
        RunSpec spec = new RunSpec(s, "random", 101);
        RunMetrics sim = SimulationRunner.run(spec).metrics();
        SimulationRunner.Outcome live = LiveRunner.run(spec, 10.0);
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
    void theRequestTimeoutRunsInTheActorsAndReleasesRequestsLostAtAFailedNode() {
        // Two of 10 nodes fail silently in [5, 20) s; least-connections. The core's timers run on
        // Pekko's TimerScheduler here: the lost requests time out and the recovered nodes get work again.
        Scenario s = TestScenarios.load("quickstart", "nodes.count = 10", "duration = 40", "warmup = 20",
                "arrivals.utilisation = 0.5", "balancers.request-timeout = 2",
                "events = [{type = fail, at = 5, nodes = [3, 7]}, {type = recover, at = 20, nodes = [3, 7]}]");
        RunMetrics m = LiveRunner.run(new RunSpec(s, "least-connections", 101), 10.0).result().metrics(); // books checked inside
        long timedOut = m.counters().getOrDefault(org.loadlab.balancer.core.BalancerLogic.TIMED_OUT, 0L);
        assertTrue(m.requestsLost() > 0 && timedOut >= m.requestsLost(), timedOut + " timed out, " + m.requestsLost() + " lost");
        assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsRejected() + m.requestsLost(), "each counted once");
        assertTrue(m.nodeRequestShare().get(3) > 0.03 && m.nodeRequestShare().get(7) > 0.03,
                "the recovered nodes get work again: " + m.nodeRequestShare());
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

    @Test
    void aTimeScaleTheMachineCannotFollowStopsTheRunWithTheMeasuredLag() {
        // 1000 scenario seconds per real second: the ~1 ms scheduler tick alone is a second of scenario time,
        // far beyond a tenth of the 1 s mean service time.
        Scenario s = TestScenarios.load("mm1-random", "duration = 3000", "warmup = 0");
        RunSpec spec = new RunSpec(s, "random", 101);
        long t0 = System.nanoTime();
        LiveRunner.FellBehindException e = org.junit.jupiter.api.Assertions.assertThrows(LiveRunner.FellBehindException.class,
                () -> LiveRunner.run(spec, 1000));
        assertTrue(e.getMessage().contains("--time-scale 1000") && e.getMessage().contains("scenario s) late")
                && e.getMessage().contains("Use a smaller --time-scale"), e.getMessage());
        assertTrue((System.nanoTime() - t0) / 1e9 < 2.5 + 5, "stopped after about two lag windows, not at the end (3 s)");
    }

    @Test
    void timerLagRecordsWindowsAndTheWholeRun() {
        org.loadlab.shell.actor.TimerLag lag = new org.loadlab.shell.actor.TimerLag();
        lag.record(2_000_000);
        lag.record(4_000_000);
        lag.record(-5); // early: counts as on time
        org.loadlab.shell.actor.TimerLag.Window w = lag.window();
        assertEquals(3, w.count());
        assertEquals(2_000_000.0, w.meanNanos(), 1e-9);
        assertEquals(4_000_000, w.maxNanos());
        assertEquals(0, lag.window().count(), "a new window starts empty");
        lag.record(1_000_000);
        assertEquals(4, lag.count());
        assertEquals(1_750_000.0, lag.meanNanos(), 1e-9);
        assertEquals(4_000_000, lag.maxNanos());
    }
}

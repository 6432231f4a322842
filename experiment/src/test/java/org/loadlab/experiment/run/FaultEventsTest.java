package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.experiment.scenario.ScenarioException;
import org.loadlab.node.backend.BackendNode;

/**
 * The simulated fault events (crash, partition, heartbeat loss, rejoin, chaos) and the
 * guardrails block: validated before anything runs, and run through the same balancer core
 * the cluster runs, with every request accounted for.
 */
class FaultEventsTest {
    private static final String[] BASE = {"nodes.count = 10", "duration = 120", "warmup = 0", "arrivals.utilisation = 0.6"};

    private static RunMetrics run(String policy, long seed, String... overrides) {
        String[] all = java.util.Arrays.copyOf(BASE, BASE.length + overrides.length);
        System.arraycopy(overrides, 0, all, BASE.length, overrides.length);
        return SimulationRunner.run(new RunSpec(TestScenarios.load("quickstart", all), policy, seed)).metrics();
    }

    private static long counter(RunMetrics m, String name) {
        return m.counters().getOrDefault(name, 0L);
    }

    private static String problems(String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart", overrides));
        return String.join("\n", e.problems());
    }

    @Test
    void aCrashReachesTheBalancersAsMembershipNewsAndItsRequestsInFlightAreLost() {
        // Round robin reads no load: it keeps routing to the silent nodes until they are unreachable.
        RunMetrics m = run("round-robin", 1, "events = [{type = crash, at = 30, nodes = [2, 5]}]",
                "membership.unreachable-after = 2", "membership.removed-after = 6");
        assertEquals(2, counter(m, BalancerLogic.MEMBERSHIP_UNREACHABLE));
        assertEquals(2, counter(m, BalancerLogic.MEMBERSHIP_REMOVED));
        assertTrue(m.requestsLost() > 0, "requests routed to the silent nodes before they were unreachable: " + m.requestsLost());
        assertEquals(m.requestsLost(), counter(m, BalancerLogic.LOST_ON_REMOVAL), "counted once, by the balancers, at removal");
        assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsRejected() + m.requestsLost());

        RunMetrics later = run("round-robin", 1, "events = [{type = crash, at = 30, nodes = [2, 5]}]",
                "membership.unreachable-after = 5", "membership.removed-after = 6");
        assertTrue(later.requestsLost() >= m.requestsLost() + 2, "a slower failure detector loses more (2 of 10 nodes at 6 req/s for 3 s more: about 3.6): "
                + later.requestsLost() + " vs " + m.requestsLost());
        RunMetrics p2c = run("p2c", 1, "events = [{type = crash, at = 30, nodes = [2, 5]}]",
                "membership.unreachable-after = 5", "membership.removed-after = 6");
        assertTrue(p2c.requestsLost() < later.requestsLost(), "p2c's probes go unanswered: it routes elsewhere meanwhile");
    }

    @Test
    void aShortPartitionDelaysButLosesNothingALongOneDownsTheMinority() {
        RunMetrics brief = run("p2c", 2, "events = [{type = partition, at = 30, until = 34, nodes = [1]}]",
                "membership.unreachable-after = 1", "membership.removed-after = 8");
        assertEquals(1, counter(brief, BalancerLogic.MEMBERSHIP_UNREACHABLE));
        assertEquals(0, counter(brief, BalancerLogic.MEMBERSHIP_REMOVED));
        assertEquals(0, brief.requestsLost(), "messages across the cut are held, not dropped");
        assertEquals(brief.requestsArrived(), brief.requestsCompleted());
        RunMetrics calm = run("p2c", 2);
        assertTrue(brief.responseP999() > calm.responseP999(), "the requests caught behind the cut wait for the heal");

        RunMetrics lasting = run("p2c", 2, "events = [{type = partition, at = 30, until = 60, nodes = [1]}]",
                "membership.unreachable-after = 1", "membership.removed-after = 8");
        assertEquals(1, counter(lasting, BalancerLogic.MEMBERSHIP_REMOVED), "cut off past removed-after: downed");
        assertEquals(lasting.requestsArrived(), lasting.requestsCompleted() + lasting.requestsRejected() + lasting.requestsLost());
    }

    @Test
    void heartbeatLossMakesANodeOfflineForTheGuardrailsAndItComesBack() {
        String[] setup = {"nodes.heartbeat-period = 0.1", "guardrails.enabled = true", "guardrails.offline-after = 1",
                "guardrails.offline-after-missed-probes = 0"};
        RunMetrics m = run("round-robin", 3, concat(setup, "events = [{type = heartbeat-loss, at = 20, until = 40, nodes = [4]}]"));
        assertEquals(1, counter(m, BalancerLogic.GUARDRAIL_EJECTIONS), "the silent node was masked once");
        assertTrue(m.nodeRequestShare().get(4) < 0.09, "it was out of rotation for a while: share " + m.nodeRequestShare().get(4));
        RunMetrics calm = run("round-robin", 3, setup);
        assertEquals(0, counter(calm, BalancerLogic.GUARDRAIL_EJECTIONS));
        assertEquals(m.requestsArrived(), m.requestsCompleted());
    }

    @Test
    void chaosInTheSimulationIsTheChaosApiOfTheCluster() {
        RunMetrics spike = run("p2c", 4, "guardrails.enabled = true",
                "events = [{type = chaos, at = 10, fault = cpu-spike, value = 0.97, nodes = [0]},"
                        + " {type = chaos, at = 60, fault = clear, nodes = [0]}]");
        assertTrue(counter(spike, BalancerLogic.GUARDRAIL_EJECTIONS) >= 1, "the hot node was masked");
        assertEquals(1, counter(spike, BackendNode.CHAOS_INJECTIONS));
        RunMetrics errors = run("random", 4, "events = [{type = chaos, at = 10, fault = error-rate, value = 0.5, nodes = [3]}]");
        assertTrue(counter(errors, BackendNode.CHAOS_ERRORS) > 0);
        assertEquals(counter(errors, BackendNode.CHAOS_ERRORS), errors.requestsRejected(), "a chaos error is a refusal");
    }

    @Test
    void faultEventsAndGuardrailsAreValidatedUpFront() {
        String p = problems("events = [{type = partition, at = 10, nodes = [1]}]");
        assertTrue(p.contains("events[0].until") && p.contains("must end after it starts"), p);
        p = problems("events = [{type = chaos, at = 10, fault = meltdown, nodes = [1]}]");
        assertTrue(p.contains("events[0].fault") && p.contains("meltdown") && p.contains("cpu-spike"), p);
        p = problems("events = [{type = chaos, at = 10, fault = cpu-spike, value = 2, nodes = [1]}]");
        assertTrue(p.contains("events[0].value") && p.contains("[0, 1]"), p);
        p = problems("events = [{type = crash, at = 10, nodes = [1], value = 3}]");
        assertTrue(p.contains("only a chaos event takes a fault"), p);
        p = problems("membership.unreachable-after = 5", "membership.removed-after = 2");
        assertTrue(p.contains("membership.removed-after") && p.contains("unreachable-after = 5"), p);
        p = problems("guardrails.cpu-mask-above = 1.5");
        assertTrue(p.contains("guardrails.cpu-mask-above = 1.5") && p.contains("[0, 1]"), p);
        p = problems("guardrails.panic-threshold = -1");
        assertTrue(p.contains("guardrails.panic-threshold"), p);
        p = problems("guardrails.enabled = maybe");
        assertTrue(p.contains("guardrails.enabled"), p);
        p = problems("policies = [receiver]", "events = [{type = crash, at = 10, nodes = [1]}]");
        assertTrue(p.contains("'crash' acts on the balancers' membership"), p);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

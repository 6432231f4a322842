package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.experiment.scenario.ScenarioException;

/**
 * {@code balancers.request-timeout} in the simulation: the balancers never hear of a
 * {@code fail}, so without a timeout the requests they lost at the failed nodes stay in their
 * in-flight counts and least-connections starves the nodes after they recover (the limitation
 * docs/scenarios.md describes); with one, the lost requests are released and the recovered
 * nodes get their share again. Every request is counted once; the key is validated before
 * anything runs; 0 leaves the resolved scenario (results.json) as it was.
 */
class RequestTimeoutScenarioTest {
    // Two of 20 nodes fail in [500, 1000) of 2,000 s at ρ 0.5; measured after the recovery.
    private static final String[] STARVATION = {"nodes.count = 20", "duration = 2000", "warmup = 1000",
            "arrivals.utilisation = 0.5", "events = [{type = fail, at = 500, nodes = [3, 7]},"
            + " {type = recover, at = 1000, nodes = [3, 7]}]"};

    private static RunMetrics run(String policy, String... overrides) {
        String[] all = java.util.Arrays.copyOf(STARVATION, STARVATION.length + overrides.length);
        System.arraycopy(overrides, 0, all, STARVATION.length, overrides.length);
        return SimulationRunner.run(new RunSpec(TestScenarios.load("quickstart", all), policy, 101)).metrics();
    }

    private static long counter(RunMetrics m, String name) {
        return m.counters().getOrDefault(name, 0L);
    }

    private static String problems(String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart", overrides));
        return String.join("\n", e.problems());
    }

    @Test
    void withATimeoutLeastConnectionsGivesTheRecoveredNodesTheirShareAgain() {
        RunMetrics off = run("least-connections");
        assertEquals(0.0, off.nodeRequestShare().get(3), "without a timeout node 3 is starved after its recovery");
        assertEquals(0.0, off.nodeRequestShare().get(7));
        assertEquals(0, counter(off, BalancerLogic.TIMED_OUT));

        RunMetrics on = run("least-connections", "balancers.request-timeout = 10");
        for (int node : new int[] {3, 7}) {
            double share = on.nodeRequestShare().get(node);
            assertTrue(share > 0.04 && share < 0.06, "node " + node + " gets about 1/20 again: " + share);
        }
        long timedOut = counter(on, BalancerLogic.TIMED_OUT);
        assertTrue(timedOut >= on.requestsLost() && on.requestsLost() > 0,
                "every request lost at the failed nodes timed out: " + timedOut + " timed out, " + on.requestsLost() + " lost");
        assertEquals(on.requestsArrived(), on.requestsCompleted() + on.requestsRejected() + on.requestsLost(),
                "each request counted once: a lost one is not also rejected");
        assertEquals(counter(on, BalancerLogic.LATE_RESPONSES), on.requestsRejected(), "only late answers are rejections here");
        assertEquals(timedOut, on.requestsLost() + on.requestsRejected(), "a timed-out request ends lost or answered late");
    }

    @Test
    void lateAnswersAreRejectionsNotCompletionsAndTheSameSeedGivesTheSameRun() {
        // Random keeps M/M/1 queues at ρ 0.5: P(sojourn > 10 s) = e^-5, so about 0.7% of the requests answer too late.
        RunMetrics m = run("random", "balancers.request-timeout = 10");
        long late = counter(m, BalancerLogic.LATE_RESPONSES);
        assertTrue(late > 50 && late < 300, "late answers: " + late);
        assertEquals(late, m.requestsRejected());
        assertTrue(m.responseMax() < 10 + 1e-9, "no completion counted beyond the timeout: " + m.responseMax());
        assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsRejected() + m.requestsLost());
        assertEquals(m, run("random", "balancers.request-timeout = 10"), "same seed, same results, bit for bit");
    }

    @Test
    void everyTimedOutRequestHasOneDecisionLogRowEndedByWhatWasKnownFirst(@org.junit.jupiter.api.io.TempDir
                                                                              java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("decisions.csv");
        String[] shorter = {"nodes.count = 20", "duration = 300", "warmup = 0", "arrivals.utilisation = 0.5",
            "balancers.request-timeout = 10", "events = [{type = fail, at = 50, nodes = [3, 7]},"
            + " {type = recover, at = 150, nodes = [3, 7]}]"};
        RunMetrics m;
        try (org.loadlab.experiment.ope.DecisionLogFile log = new org.loadlab.experiment.ope.DecisionLogFile(file)) {
            m = SimulationRunner.runLogged(new RunSpec(TestScenarios.load("quickstart", shorter), "random", 101),
                    generated -> { }, log).result().metrics();
        }
        java.util.List<String> rows = java.nio.file.Files.readAllLines(file);
        long timeouts = 0;
        long lostAtNode = 0;
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            if (f[7].equals("504")) {
                timeouts++;
                double decided = Double.parseDouble(f[2]);
                double ended = Double.parseDouble(f[3]);
                assertEquals(10.0, ended - decided, 1e-6, "ended when the timeout fired: " + row);
            } else if (f[7].equals("503")) {
                lostAtNode++;
            }
        }
        // A request the failed node lost ends at the loss (503, the node reset it, as the gateway answers); its
        // timeout later only releases the balancer's count. The others that timed out were answered too late: 504.
        long timedOut = counter(m, BalancerLogic.TIMED_OUT);
        assertTrue(timedOut > 0 && lostAtNode > 0);
        assertEquals(m.requestsLost(), lostAtNode, "one 503 row per request lost at the failed nodes");
        assertEquals(counter(m, BalancerLogic.LATE_RESPONSES), timeouts, "one 504 row per request answered after its timeout");
        assertEquals(timedOut, timeouts + lostAtNode, "every timed-out request has its one row");
        assertEquals(m.requestsArrived(), rows.size() - 1, "one row per routed request, each once");
    }

    @Test
    void theKeyIsValidatedAndRefusedWhereNoBalancerTimesRequestsOut() {
        String neg = problems("balancers.request-timeout = -1");
        assertTrue(neg.contains("balancers.request-timeout = -1") && neg.contains("must be >= 0"), neg);
        String word = problems("balancers.request-timeout = soon");
        assertTrue(word.contains("balancers.request-timeout") && word.contains("must be a number"), word);
        String ref = problems("model = reference", "balancers.request-timeout = 5");
        assertTrue(ref.contains("balancers.request-timeout") && ref.contains("model = reference"), ref);
        String sharing = problems("policies = [sender-threshold]", "balancers.request-timeout = 5");
        assertTrue(sharing.contains("balancers.request-timeout") && sharing.contains("load-sharing"), sharing);
    }

    @Test
    void withoutATimeoutTheResolvedScenarioIsAsBefore() {
        assertFalse(TestScenarios.load("quickstart").resolvedJson().contains("request-timeout"),
                "0, the default, is left out of results.json so earlier results stay byte-identical");
        assertTrue(TestScenarios.load("quickstart", "balancers.request-timeout = 2.5").resolvedJson()
                .contains("\"request-timeout\":2.5"));
    }
}

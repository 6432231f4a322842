package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;
import org.loadlab.node.protocol.ResponseStatus;

/** The scenario keys of the production mechanisms (issue 14): parsed, validated with key, value and what is allowed. */
class ProductionKeysTest {
    private static String problems(String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> TestScenarios.load("quickstart", overrides));
        return String.join("\n", e.problems());
    }

    @Test
    void theBlocksAreReadIntoTheScenario() {
        Scenario s = TestScenarios.load("quickstart", "slow-start.window = 30", "slow-start.aggression = 2",
                "outlier-detection.enabled = true", "outlier-detection.consecutive-errors = 3", "retry.max-retries = 2",
                "retry.retry-on = [error, overloaded]", "retry.per-try-timeout = 4", "retry.policy = least-queue",
                "keys.distribution = zipf", "keys.count = 500", "nodes.errors.rate = 0.2", "nodes.errors.nodes = [3, 1]",
                "policy.peak-ewma.decay = 5", "policy.error-penalty = 2", "policies = [p2c, least-queue]");
        assertEquals(30, s.slowStart().window());
        assertEquals(2, s.slowStart().aggression());
        assertTrue(s.outlierDetection().enabled());
        assertEquals(3, s.outlierDetection().consecutiveErrors());
        assertEquals(2, s.retry().maxRetries());
        assertEquals(java.util.Set.of(ResponseStatus.ERROR, ResponseStatus.OVERLOADED), s.retry().retryOn());
        assertEquals("least-queue", s.retry().policy());
        assertEquals(500, s.keys().count());
        assertEquals(List.of(1, 3), s.nodes().errors().nodes());
        assertEquals(0.2, s.nodes().errors().rateOf(3));
        assertEquals(0, s.nodes().errors().rateOf(2));
        assertEquals(5, s.policy().production().peakEwmaDecay());
        assertEquals(2, s.policy().production().errorPenalty());
    }

    @Test
    void badValuesNameTheKeyTheValueAndWhatIsAllowed() {
        String p = problems("slow-start.min-weight = 0", "retry.backoff.base = 1", "retry.backoff.max = 0.5",
                "retry.retry-on = [errors]", "outlier-detection.max-ejection-time = 5", "policy.maglev.table-size = 65536",
                "nodes.errors.rate = 1.5", "keys.distribution = pareto");
        assertTrue(p.contains("slow-start.min-weight = 0.0: a share in (0, 1]"), p);
        assertTrue(p.contains("retry.backoff.max = 0.5: must be >= backoff.base = 1.0 s"), p);
        assertTrue(p.contains("retry.retry-on = 'errors': a list of error, overloaded, timeout, reset"), p);
        assertTrue(p.contains("outlier-detection.max-ejection-time = 5.0: must be >= base-ejection-time = 30.0 s"), p);
        assertTrue(p.contains("policy.maglev.table-size = 65536: a prime"), p);
        assertTrue(p.contains("nodes.errors.rate = 1.5: must be in [0.0, 1.0]"), p);
        assertTrue(p.contains("keys.distribution") && p.contains("pareto"), p);
    }

    @Test
    void crossKeyChecks() {
        String hash = problems("policies = [ring-hash]");
        assertTrue(hash.contains("keys.distribution = 'none': policy 'ring-hash' hashes the request key"), hash);
        String penalty = problems("policies = [random, p2c]", "policy.error-penalty = 3");
        assertTrue(penalty.contains("policy.error-penalty = 3.0: 'random' does not rank nodes by a score"), penalty);
        String doubleCount = problems("retry.max-retries = 1", "events = [{type = fail, at = 10, nodes = [0]}]");
        assertTrue(doubleCount.contains("'fail' makes the node count the requests it loses"), doubleCount);
        String retryPolicy = problems("retry.policy = jsq");
        assertTrue(retryPolicy.contains("retry.policy = 'jsq': 'same' or a policy"), retryPolicy);
        String reference = problems("model = reference", "policies = [peak-ewma]");
        assertTrue(reference.contains("'peak-ewma' needs the message-level model"), reference);
    }

    @Test
    void aRunWithRetriesKeepsItsBooksAndAJoiningNodeStartsAbsent() {
        Scenario s = TestScenarios.load("quickstart", "duration = 60", "warmup = 0", "retry.max-retries = 2",
                "retry.per-try-timeout = 3", "policies = [least-request]",
                "events = [{type = crash, at = 20, nodes = [0]}, {type = join, at = 30, nodes = [5]}]");
        RunMetrics m = SimulationRunner.run(new RunSpec(s, "least-request", 1)).metrics();
        // the conservation check ran; the requests are all accounted for
        assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsRejected() + m.requestsLost());
        assertTrue(m.counters().getOrDefault("retries", 0L) > 0, m.counters().toString());
        assertTrue(m.nodeRequestShare().get(5) > 0, "the joined node serves after it joins");
    }
}

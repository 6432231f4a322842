package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.core.DecisionLog;
import org.loadlab.experiment.ope.DecisionLogFile;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * {@code simulate --decision-log}: every routed request has its row whatever happened to it,
 * the ones a failed node lost included (a {@code fail} is news to no balancer, so only the
 * node knew which requests it lost, and their rows used to be missing). The rows by status
 * match the run's counters, and the books still balance.
 */
class DecisionLogLossesTest {
    private static final String[] BASE = {"nodes.count = 10", "duration = 120", "warmup = 0", "arrivals.utilisation = 0.6"};

    /**
     * @param unrouted requests the balancers ended without routing them (rejected before any
     *     node was chosen: no probe answered, a threshold): not decisions, so they have no row
     */
    private record Logged(RunMetrics metrics, List<DecisionLogFile.Entry> rows, long unrouted) {
        Map<Integer, Long> byStatus() {
            return rows.stream().collect(Collectors.groupingBy(DecisionLogFile.Entry::status, TreeMap::new,
                    Collectors.counting()));
        }
    }

    private static Logged run(Path dir, String scenario, String policy, String... overrides) {
        String[] all = scenario.equals("quickstart") ? concat(BASE, overrides) : overrides;
        Path file = dir.resolve("decisions-" + policy + ".csv");
        RunMetrics m;
        Counting counting;
        try (DecisionLogFile log = new DecisionLogFile(file)) {
            counting = new Counting(log);
            m = SimulationRunner.runLogged(new RunSpec(TestScenarios.load(scenario, all), policy, 1), generated -> { }, counting)
                    .result().metrics();
        }
        return new Logged(m, DecisionLogFile.read(file), counting.unrouted);
    }

    /** Passes everything on to the file and counts the requests ended without being routed. */
    private static final class Counting implements DecisionLog {
        private final DecisionLog next;
        private final java.util.Set<Long> routed = new java.util.HashSet<>();
        long unrouted;

        Counting(DecisionLog next) {
            this.next = next;
        }

        @Override
        public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                           String mode, int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads) {
            routed.add(request.id());
            next.routed(request, decidedFrom, now, node, propensity, mode, pool, poolSize, inFlight, loads);
        }

        @Override
        public void finished(long requestId, ResponseStatus status, double now) {
            if (!routed.contains(requestId)) {
                unrouted++;
            }
            next.finished(requestId, status, now);
        }

        @Override
        public void nodeRemoved(int node, double now) {
            next.nodeRemoved(node, now);
        }

        @Override
        public void retried(long requestId, int node, double now) {
            next.retried(requestId, node, now);
        }

        @Override
        public void shed(BalancerMessage.Arrival request, String reason, double now) {
            next.shed(request, reason, now);
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /**
     * One row per arrival routed (every arrival, less those rejected before routing); 200 rows =
     * completed, 503 rows = lost, the other rows and the unrouted = rejected; arrived = the three.
     */
    private static void assertRowsMatchTheCounters(Logged l) {
        RunMetrics m = l.metrics();
        Map<Integer, Long> by = l.byStatus();
        assertEquals(m.requestsArrived(), m.requestsCompleted() + m.requestsRejected() + m.requestsLost(), "the books");
        assertEquals(m.requestsArrived() - l.unrouted(), l.rows().size(), "a row per routed arrival: " + by + ", "
                + l.unrouted() + " unrouted");
        assertEquals(m.requestsCompleted(), by.getOrDefault(200, 0L), "200 rows: " + by);
        assertEquals(m.requestsLost(), by.getOrDefault(503, 0L), "503 rows: " + by);
        long others = by.entrySet().stream().filter(e -> e.getKey() != 200 && e.getKey() != 503)
                .mapToLong(Map.Entry::getValue).sum();
        assertEquals(m.requestsRejected(), others + l.unrouted(), "rejected rows: " + by);
        assertEquals(l.rows().size(), l.rows().stream().map(DecisionLogFile.Entry::request).distinct().count(),
                "each request once");
    }

    @Test
    void requestsAFailedNodeLosesHaveRowsWithStatus503AtTheTimeOfTheLoss(@TempDir Path dir) {
        // Round robin reads no load: it keeps sending nodes 2 and 5 their share while they are down.
        Logged l = run(dir, "quickstart", "round-robin",
                "events = [{type = fail, at = 30, nodes = [2, 5]}, {type = recover, at = 60, nodes = [5]}]");
        assertTrue(l.metrics().requestsLost() > 50, "lost at the failed nodes: " + l.metrics().requestsLost());
        assertEquals(0, l.unrouted(), "round robin routes every request");
        assertRowsMatchTheCounters(l);
        assertEquals(l.metrics().requestsArrived(), l.rows().size(), "so every arrival has its row");
        List<DecisionLogFile.Entry> lost = l.rows().stream().filter(e -> e.status() == 503).toList();
        for (DecisionLogFile.Entry e : lost) {
            assertTrue(e.node() == 2 || e.node() == 5, "lost only at the failed nodes: " + e);
            assertTrue(e.ended() >= 30 && e.ended() >= e.decided(), "lost at or after the failure, after its decision: " + e);
            assertTrue(e.node() == 2 || e.ended() < 60, "node 5 loses nothing after its recovery: " + e);
        }
        Function<DecisionLogFile.Entry, Boolean> atTheFailure = e -> e.ended() == 30.0;
        assertTrue(lost.stream().anyMatch(atTheFailure::apply), "the queued and in-service ones end at the failure");
        assertTrue(lost.stream().anyMatch(e -> e.ended() > 30 && e.ended() - e.decided() < 0.01),
                "later ones end when they reach the failed node (one network hop after their decision)");
        assertTrue(l.rows().stream().anyMatch(e -> e.node() == 5 && e.status() == 200 && e.decided() > 60),
                "node 5 serves again after its recovery");
    }

    @Test
    void aChaosCrashLosesLikeAFailAndAProbingPolicyLosesOnlyWhatWasThere(@TempDir Path dir) {
        Logged chaos = run(dir, "quickstart", "random", "events = [{type = chaos, fault = crash, at = 40, nodes = [1]}]");
        assertTrue(chaos.metrics().requestsLost() > 0);
        assertEquals(0, chaos.unrouted(), "random routes every request");
        assertRowsMatchTheCounters(chaos);
        Logged p2c = run(dir, "quickstart", "p2c", "events = [{type = fail, at = 40, fraction = 0.3}]");
        assertTrue(p2c.metrics().requestsLost() > 0);
        assertRowsMatchTheCounters(p2c);
    }

    @Test
    void profileNodesToo(@TempDir Path dir) {
        Logged l = run(dir, "quickstart", "round-robin", "nodes.model = profiles", "arrivals.rate = 200",
                "events = [{type = fail, at = 5, nodes = [3]}, {type = chaos, fault = crash, at = 10, nodes = [1]}]");
        assertTrue(l.metrics().requestsLost() > 0, "lost: " + l.metrics().requestsLost());
        assertRowsMatchTheCounters(l);
    }
}

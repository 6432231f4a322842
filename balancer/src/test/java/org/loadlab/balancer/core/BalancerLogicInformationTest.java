package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.SELF;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.iota;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.load;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.logic;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.core.BalancerLogicProbeTest.Kind;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.information.OracleModel;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** Cached and oracle information models, and response bookkeeping of {@link BalancerLogic}. */
class BalancerLogicInformationTest {

    private static int routeOne(BalancerLogic b, Bench env, long id) {
        env.drainSent();
        env.on(new BalancerMessage.Arrival(id, 1.0, env.now()));
        List<Bench.Sent> sent = env.drainSent();
        assertEquals(1, sent.size(), "exactly the request, no probes: " + sent);
        assertTrue(sent.get(0).message() instanceof NodeMessage.Request);
        return ((NodeId) sent.get(0).to()).index();
    }

    @Test
    void cachedReportsNewerWinsOlderIgnored() {
        BalancerLogic b = logic("p2c", new int[] {0, 1}, 2, Kind.CACHED);
        Bench env = new Bench(b, 1);
        env.on(new BalancerMessage.LoadReport(load(0, 9, 5.0)));
        env.on(new BalancerMessage.LoadReport(load(0, 0, 3.0))); // older: must not overwrite
        env.on(new BalancerMessage.LoadReport(load(1, 5, 4.0)));
        assertTrue(env.sent().isEmpty());
        env.at(6.0);
        for (int i = 0; i < 20; i++) {
            assertEquals(1, routeOne(b, env, i));
        }
        assertTrue(env.timers().isEmpty());
        for (Observation.Decided d : env.metrics().decisions()) {
            assertEquals(2, d.queries());
        }
        env.on(new BalancerMessage.LoadReport(load(0, 1, 6.0))); // newer
        assertEquals(0, routeOne(b, env, 100));
    }

    @Test
    void cachedP2cOverTenNodesReadsTwoAndPicksTheShorterCachedQueue() {
        int n = 10;
        BalancerLogic b = logic("p2c", iota(n), n, Kind.CACHED);
        Bench env = new Bench(b, 42);
        for (int j = 0; j < n; j++) {
            env.on(new BalancerMessage.LoadReport(load(j, j, 0.0))); // q_j = j, all distinct
        }
        int trials = 45_000;
        int[] chosen = new int[n];
        for (int i = 0; i < trials; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        // JSQ(2) over distinct queues: node j wins iff sampled with a longer one: P = (n-1-j)/C(n,2).
        for (int j = 0; j < n; j++) {
            double expected = trials * (n - 1 - j) / 45.0;
            assertEquals(expected, chosen[j], 0.06 * trials / 9 + 1, "node " + j + ": " + java.util.Arrays.toString(chosen));
        }
        assertEquals(0, chosen[n - 1], "the most loaded node can never win a pair");
        assertTrue(env.metrics().decisions().stream().allMatch(d -> d.queries() == 2));
    }

    @Test
    void cachedBeforeAnyReportIsUniform() {
        int n = 10;
        BalancerLogic b = logic("p2c", iota(n), n, Kind.CACHED);
        Bench env = new Bench(b, 7);
        int trials = 20_000;
        int[] chosen = new int[n];
        for (int i = 0; i < trials; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        for (int c : chosen) {
            assertTrue(c > 1800 && c < 2200, java.util.Arrays.toString(chosen));
        }
        assertTrue(env.metrics().decisions().stream().allMatch(d -> d.queries() == 2));
        assertTrue(env.metrics().rejected().isEmpty());
    }

    @Test
    void cachedBeforeAnyReportIsUniformWithinTheSample() {
        // k = |allowed|: the sample is always {4, 9} in the same order; the blind choice must still be 50/50.
        BalancerLogic b = logic("p2c", new int[] {4, 9}, 10, Kind.CACHED);
        Bench env = new Bench(b, 17);
        int[] chosen = new int[10];
        for (int i = 0; i < 10_000; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        assertEquals(10_000, chosen[4] + chosen[9]);
        assertTrue(chosen[4] > 4700 && chosen[9] > 4700, java.util.Arrays.toString(chosen));
    }

    @Test
    void cachedNodesThatNeverReportedAreExcludedWhenAnotherSampledNodeReported() {
        int n = 10;
        BalancerLogic b = logic("p2c", iota(n), n, Kind.CACHED);
        Bench env = new Bench(b, 8);
        env.on(new BalancerMessage.LoadReport(load(3, 1000, 0.0))); // only node 3 known, heavily loaded
        int trials = 20_000;
        int[] chosen = new int[n];
        for (int i = 0; i < trials; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        // Node 3 wins whenever it is sampled (P = 2/10); otherwise the choice is blind among the two.
        assertEquals(0.2 * trials, chosen[3], 0.02 * trials, java.util.Arrays.toString(chosen));
        for (int j = 0; j < n; j++) {
            if (j != 3) {
                assertEquals(0.8 * trials / 9, chosen[j], 0.02 * trials, java.util.Arrays.toString(chosen));
            }
        }
    }

    @Test
    void loadReportsAreIgnoredOutsideTheCachedModel() {
        BalancerLogic b = logic("p2c", iota(3), 3, Kind.PROBE);
        Bench env = new Bench(b, 1);
        env.on(new BalancerMessage.LoadReport(load(0, 1, 0)));
        assertTrue(env.sent().isEmpty());
    }

    /** A cluster view over fixed loads that counts reads. */
    private static final class CountingView implements ClusterView {
        final LoadSnapshot[] loads;
        int reads;

        CountingView(int[] q) {
            loads = new LoadSnapshot[q.length];
            for (int i = 0; i < q.length; i++) {
                loads[i] = BalancerLogicProbeTest.load(i, q[i], 0);
            }
        }

        @Override
        public int nodeCount() {
            return loads.length;
        }

        @Override
        public LoadSnapshot load(int index, double now) {
            reads++;
            return loads[index];
        }
    }

    @Test
    void oracleLeastQueueReadsAllNodes() {
        int n = 10;
        CountingView view = new CountingView(new int[] {5, 4, 3, 1, 7, 1, 9, 2, 8, 6});
        BalancerLogic b = new BalancerLogic(SELF, iota(n), n, BalancerLogicProbeTest.policy("least-queue", n),
                new OracleModel(view));
        Bench env = new Bench(b, 3);
        int[] chosen = new int[n];
        for (int i = 0; i < 2000; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        assertEquals(2000 * n, view.reads);
        assertTrue(env.metrics().decisions().stream().allMatch(d -> d.queries() == n));
        assertEquals(2000, chosen[3] + chosen[5], "only the two shortest queues");
        assertTrue(chosen[3] > 850 && chosen[5] > 850, "tie between nodes 3 and 5 broken at random");
        assertTrue(env.timers().isEmpty());
    }

    @Test
    void oracleP2cChoosesAmongItsSamplesButPaysForTheWholeAllowedSet() {
        int n = 10;
        int[] q = iota(n);
        CountingView view = new CountingView(q);
        BalancerLogic b = new BalancerLogic(SELF, iota(n), n, BalancerLogicProbeTest.policy("p2c", n),
                new OracleModel(view));
        Bench env = new Bench(b, 4);
        int[] chosen = new int[n];
        for (int i = 0; i < 4500; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        assertEquals(2 * 4500, view.reads);
        assertEquals(0, chosen[n - 1]);
        assertTrue(env.metrics().decisions().stream().allMatch(d -> d.queries() == n), "SPEC §2: oracle counts |allowed|");
    }

    @Test
    void inFlightCountsFollowRoutesAndResponses() {
        BalancerLogic b = logic("least-connections", iota(4), 4, Kind.PROBE);
        Bench env = new Bench(b, 5);
        int[] routedTo = new int[8];
        for (int i = 0; i < 8; i++) {
            routedTo[i] = routeOne(b, env, i);
        }
        for (int j = 0; j < 4; j++) {
            assertEquals(2, b.inFlight(j), "least-connections balances in-flight counts");
        }
        assertTrue(env.metrics().decisions().stream().allMatch(d -> d.queries() == 0));
        // Two responses for requests at the same node bring it to 0; it is the next choice.
        int target = routedTo[0];
        int answered = 0;
        for (int i = 0; i < 8 && answered < 2; i++) {
            if (routedTo[i] == target) {
                env.at(2.0 + i);
                env.on(new BalancerMessage.Response(i, target, 0.5, answered == 0));
                answered++;
            }
        }
        assertEquals(0, b.inFlight(target));
        assertEquals(1, env.metrics().completed().size());
        assertEquals(0.5, env.metrics().completed().get(0).arrivalTime(), 1e-12);
        assertEquals(target, env.metrics().completed().get(0).node());
        assertEquals(1, env.metrics().rejected().size(), "served=false counts as rejected");
        assertEquals(0.5, env.metrics().rejected().get(0).arrivalTime(), 1e-12);
        assertEquals(target, routeOne(b, env, 100));
        assertEquals(1, b.inFlight(target));
    }

    @Test
    void randomPolicyRoutesUniformlyOverTheAllowedSetOnly() {
        int[] allowed = {1, 4, 6};
        BalancerLogic b = logic("random", allowed, 8, Kind.CACHED);
        Bench env = new Bench(b, 6);
        int[] chosen = new int[8];
        for (int i = 0; i < 9000; i++) {
            chosen[routeOne(b, env, i)]++;
        }
        for (int j = 0; j < 8; j++) {
            boolean isAllowed = j == 1 || j == 4 || j == 6;
            assertTrue(isAllowed ? chosen[j] > 2700 : chosen[j] == 0, java.util.Arrays.toString(chosen));
        }
    }
}

package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.SELF;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.TIMEOUT;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.iota;
import static org.loadlab.balancer.core.BalancerLogicProbeTest.load;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.core.BalancerLogicProbeTest.Kind;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.information.OracleModel;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.balancer.policy.StickyCache;
import org.loadlab.balancer.policy.StickyLazyPolicy;
import org.loadlab.balancer.policy.StrictPo2cPolicy;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** Sticky-Lazy and strict Po2C through {@link BalancerLogic}'s multi-round engine (seed 001). */
class StickyLazyLogicTest {
    private static InformationModel model(Kind kind, int n) {
        return BalancerLogicProbeTest.model(kind, n);
    }


    static BalancerLogic sticky(int t, int n, Kind kind) {
        return new BalancerLogic(SELF, iota(n), n, new StickyLazyPolicy(t), model(kind, n));
    }

    static StickyLazyPolicy policyOf(BalancerLogic b) {
        return (StickyLazyPolicy) b.routingPolicy();
    }

    /** Probes sent since the last drain, as node indices; everything else must be absent. */
    static List<Integer> probes(Bench env, long id) {
        List<Integer> out = new ArrayList<>();
        for (Bench.Sent s : env.drainSent()) {
            NodeMessage.Probe p = (NodeMessage.Probe) s.message();
            assertEquals(id, p.probeId());
            out.add(((NodeId) s.to()).index());
        }
        return out;
    }

    static int routed(Bench env, long id) {
        List<Bench.Sent> sent = env.drainSent();
        assertEquals(1, sent.size(), "expected exactly the request: " + sent);
        NodeMessage.Request r = (NodeMessage.Request) sent.get(0).message();
        assertEquals(id, r.id());
        return ((NodeId) sent.get(0).to()).index();
    }

    static int lastQueries(Bench env) {
        List<Observation.Decided> d = env.metrics().decisions();
        return d.get(d.size() - 1).queries();
    }

    @Test
    void firstProbeBelowTCachesWithCreditTMinusLoadThenBlindRoutesWithZeroProbes() {
        BalancerLogic b = sticky(3, 10, Kind.PROBE);
        Bench env = new Bench(b, 1);
        env.on(new BalancerMessage.Arrival(0, 1.0, 0));
        List<Integer> p = probes(env, 0);
        assertEquals(1, p.size(), "one probe");
        int s = p.get(0);
        env.on(new BalancerMessage.ProbeReply(0, load(s, 1, 0)));
        assertEquals(s, routed(env, 0));
        assertEquals(1, lastQueries(env));
        assertEquals(s, policyOf(b).cache().node());
        assertEquals(2, policyOf(b).cache().credit(), "credit T - L = 3 - 1");
        assertTrue(env.timersOf(BalancerMessage.ProbeTimeout.class).isEmpty());

        for (long id = 1; id <= 2; id++) {
            env.on(new BalancerMessage.Arrival(id, 1.0, 0));
            assertEquals(s, routed(env, id), "blind route to the cached node, no probe");
            assertEquals(0, lastQueries(env));
        }
        env.on(new BalancerMessage.Arrival(3, 1.0, 0));
        assertEquals(1, probes(env, 3).size(), "credit spent: probe again");
        Bench.Metrics m = env.metrics();
        assertEquals(2, m.counter(StickyLazyPolicy.BLIND_ROUTES));
        assertEquals(2, m.counter(StickyLazyPolicy.FIRST_PROBES));
        assertEquals(1, m.counter(StickyLazyPolicy.FIRST_PROBE_HITS));
        assertEquals(2, m.counter(StickyLazyPolicy.CREDIT_GRANTED));
        assertEquals(0, m.counter(StickyLazyPolicy.FALLBACK_PROBES));
    }

    @Test
    void safetyNetProbesASecondDistinctNodeAndCachesTheWinnerOnlyBelowT() {
        for (long seed = 0; seed < 200; seed++) {
            BalancerLogic b = sticky(3, 10, Kind.PROBE);
            Bench env = new Bench(b, seed);
            env.on(new BalancerMessage.Arrival(0, 1.0, 0));
            int first = probes(env, 0).get(0);
            env.on(new BalancerMessage.ProbeReply(0, load(first, 3, 0))); // at T: never cached
            List<Integer> second = probes(env, 0);
            assertEquals(1, second.size(), "exactly one fallback probe");
            assertNotEquals(first, second.get(0), "the fallback probe goes to a distinct node");
            assertEquals(StickyCache.NONE, policyOf(b).cache().node());
            int q2 = (int) (seed % 6); // 0..5: below and above T
            env.on(new BalancerMessage.ProbeReply(0, load(second.get(0), q2, 0)));
            int chosen = routed(env, 0);
            assertEquals(2, lastQueries(env));
            if (q2 < 3) {
                assertEquals(second.get(0), chosen);
                assertEquals(chosen, policyOf(b).cache().node());
                assertEquals(3 - q2, policyOf(b).cache().credit());
                assertEquals(1, env.metrics().counter(StickyLazyPolicy.FALLBACK_CACHES));
            } else {
                assertTrue(q2 > 3 ? chosen == first : chosen == first || chosen == second.get(0));
                assertEquals(StickyCache.NONE, policyOf(b).cache().node(), "winner >= T: cache invalidated");
                assertEquals(1, env.metrics().counter(StickyLazyPolicy.INVALIDATIONS));
            }
            assertEquals(1, env.metrics().counter(StickyLazyPolicy.FALLBACK_PROBES));
            assertEquals(0, b.pendingDecisions());
            assertTrue(env.timersOf(BalancerMessage.ProbeTimeout.class).isEmpty());
        }
    }

    @Test
    void silentFirstNodeFallsBackAndTwoSilentNodesReject() {
        BalancerLogic b = sticky(3, 5, Kind.PROBE);
        Bench env = new Bench(b, 3);
        env.at(1.0);
        env.on(new BalancerMessage.Arrival(9, 1.0, 1.0));
        int first = probes(env, 9).get(0);
        env.fire(env.timersOf(BalancerMessage.ProbeTimeout.class).get(0).key());
        assertEquals(1.0 + TIMEOUT, env.now(), 1e-12);
        int second = probes(env, 9).get(0);
        assertNotEquals(first, second);
        // A late reply of the first round is ignored; the second round waits for its own node.
        env.on(new BalancerMessage.ProbeReply(9, load(first, 0, 1.06)));
        assertTrue(env.sent().isEmpty());
        env.fire(env.timersOf(BalancerMessage.ProbeTimeout.class).get(0).key());
        assertTrue(env.sent().isEmpty());
        assertEquals(1, env.metrics().rejected().size());
        assertEquals(2, lastQueries(env), "both probes were sent and are counted");
        assertEquals(0, b.pendingDecisions());
        assertEquals(StickyCache.NONE, policyOf(b).cache().node());
    }

    @Test
    void aRefusalFromTheCachedNodeInvalidatesTheCache() {
        BalancerLogic b = sticky(4, 6, Kind.PROBE);
        Bench env = new Bench(b, 5);
        env.on(new BalancerMessage.Arrival(0, 1.0, 0));
        int s = probes(env, 0).get(0);
        env.on(new BalancerMessage.ProbeReply(0, load(s, 0, 0)));
        routed(env, 0);
        env.on(new BalancerMessage.Response(0, s, 0, false));
        assertEquals(StickyCache.NONE, policyOf(b).cache().node());
        env.on(new BalancerMessage.Arrival(1, 1.0, 0));
        assertEquals(1, probes(env, 1).size());
    }

    /**
     * A simulated world of queues answering probes at once: checks the caching rule at every
     * caching event, that blind routes only go to the cached node, and that every probe and
     * every request is counted.
     */
    @Test
    void randomWorldKeepsTheInvariantsAndCountsAddUp() {
        for (int t : new int[] {1, 2, 3, 4, 8}) {
            int n = 20;
            BalancerLogic b = sticky(t, n, Kind.PROBE);
            StickyLazyPolicy policy = policyOf(b);
            Bench env = new Bench(b, 100 + t);
            SplittableRandom world = new SplittableRandom(t);
            int[] q = new int[n];
            int threshold = t;
            int[] lastProbedLoad = new int[n];
            policy.cache().listener((node, load, credit) -> {
                assertTrue(load < threshold, "cached a node at load " + load + " >= T " + threshold);
                assertEquals(threshold - load, credit);
                assertEquals(lastProbedLoad[node], load, "cached with a load other than its probe reply");
            });
            int probesSent = 0;
            int requests = 30_000;
            for (long id = 0; id < requests; id++) {
                // Departures: each busy node finishes one request with probability 0.3.
                for (int j = 0; j < n; j++) {
                    if (q[j] > 0 && world.nextDouble() < 0.3) {
                        q[j]--;
                    }
                }
                int cachedBefore = policy.cache().node();
                int creditBefore = policy.cache().credit();
                env.on(new BalancerMessage.Arrival(id, 1.0, 0));
                while (true) {
                    List<Bench.Sent> sent = env.drainSent();
                    assertEquals(1, sent.size());
                    if (sent.get(0).message() instanceof NodeMessage.Probe) {
                        probesSent++;
                        int node = ((NodeId) sent.get(0).to()).index();
                        lastProbedLoad[node] = q[node];
                        env.on(new BalancerMessage.ProbeReply(id, load(node, q[node], 0)));
                        continue;
                    }
                    int node = ((NodeId) sent.get(0).to()).index();
                    int queries = lastQueries(env);
                    if (queries == 0) {
                        assertEquals(cachedBefore, node, "a blind route must go to the cached node");
                        assertTrue(creditBefore > 0);
                        assertEquals(creditBefore - 1, policy.cache().credit());
                    } else {
                        assertTrue(queries == 1 || queries == 2);
                    }
                    q[node]++;
                    break;
                }
                StickyCache c = policy.cache();
                assertTrue(c.credit() <= t - c.loadAtCaching());
                if (c.node() != StickyCache.NONE) {
                    assertTrue(c.loadAtCaching() < t);
                }
            }
            Bench.Metrics m = env.metrics();
            long blind = m.counter(StickyLazyPolicy.BLIND_ROUTES);
            long first = m.counter(StickyLazyPolicy.FIRST_PROBES);
            long fallback = m.counter(StickyLazyPolicy.FALLBACK_PROBES);
            long hits = m.counter(StickyLazyPolicy.FIRST_PROBE_HITS);
            assertEquals(requests, m.decisions().size());
            assertEquals(requests, blind + first, "every request is blind or starts with a first probe");
            assertEquals(probesSent, first + fallback, "every probe message is counted");
            assertEquals(probesSent, m.decisions().stream().mapToInt(Observation.Decided::queries).sum());
            assertEquals(first - hits, fallback, "every missed first probe triggers one fallback probe");
            assertEquals(hits + m.counter(StickyLazyPolicy.FALLBACK_CACHES), policy.cache().caches());
            assertEquals(m.counter(StickyLazyPolicy.CREDIT_GRANTED), policy.cache().creditGranted());
            assertTrue(blind <= m.counter(StickyLazyPolicy.CREDIT_GRANTED));
            double perRequest = (double) probesSent / requests;
            assertTrue(perRequest >= 1.0 / (t + 1) - 1e-12, "below the 1/(T+1) floor: " + perRequest);
            assertTrue(perRequest < 2.0);
        }
    }

    @Test
    void overlappingDecisionsKeepTheirOwnRounds() {
        BalancerLogic b = sticky(2, 8, Kind.PROBE);
        Bench env = new Bench(b, 11);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0));
        int a1 = probes(env, 1).get(0);
        env.on(new BalancerMessage.Arrival(2, 1.0, 0));
        int a2 = probes(env, 2).get(0);
        assertEquals(2, b.pendingDecisions());
        env.on(new BalancerMessage.ProbeReply(2, load(a2, 5, 0))); // request 2 falls back
        int f2 = probes(env, 2).get(0);
        env.on(new BalancerMessage.ProbeReply(1, load(a1, 0, 0))); // request 1 hits: cached
        assertEquals(a1, routed(env, 1));
        assertEquals(a1, policyOf(b).cache().node());
        env.on(new BalancerMessage.ProbeReply(2, load(f2, 1, 0))); // request 2's winner replaces the cache
        assertEquals(f2, routed(env, 2));
        assertEquals(f2, policyOf(b).cache().node());
        assertEquals(1, policyOf(b).cache().credit());
        assertEquals(0, b.pendingDecisions());
    }

    @Test
    void aSafetyNetNeverDropsAFresherCacheInstalledByAnOverlappingDecision() {
        BalancerLogic b = sticky(3, 8, Kind.PROBE);
        Bench env = new Bench(b, 13);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0));
        int a1 = probes(env, 1).get(0);
        env.on(new BalancerMessage.Arrival(2, 1.0, 0));
        int a2 = probes(env, 2).get(0);
        env.on(new BalancerMessage.ProbeReply(2, load(a2, 6, 0))); // request 2 falls back
        int f2 = probes(env, 2).get(0);
        env.on(new BalancerMessage.ProbeReply(1, load(a1, 1, 0))); // request 1 caches a1 with credit 2
        assertEquals(a1, routed(env, 1));
        env.on(new BalancerMessage.ProbeReply(2, load(f2, 7, 0))); // request 2's winner is >= T
        routed(env, 2);
        assertEquals(a1, policyOf(b).cache().node(), "the fresher cache of request 1 survives");
        assertEquals(2, policyOf(b).cache().credit());
        assertEquals(0, env.metrics().counter(StickyLazyPolicy.INVALIDATIONS));
    }

    @Test
    void severalBalancersKeepTheirOwnCaches() {
        BalancerLogic b1 = sticky(3, 10, Kind.PROBE);
        BalancerLogic b2 = new BalancerLogic(new BalancerId(2), iota(10), 10, new StickyLazyPolicy(3),
                new ProbeModel(TIMEOUT));
        Bench e1 = new Bench(b1, 1);
        Bench e2 = new Bench(b2, 2);
        e1.on(new BalancerMessage.Arrival(0, 1, 0));
        int s1 = probes(e1, 0).get(0);
        e1.on(new BalancerMessage.ProbeReply(0, load(s1, 0, 0)));
        routed(e1, 0);
        assertEquals(s1, policyOf(b1).cache().node());
        assertEquals(StickyCache.NONE, policyOf(b2).cache().node());
        e2.on(new BalancerMessage.Arrival(0, 1, 0));
        assertEquals(1, probes(e2, 0).size(), "balancer 2 has no cache: it probes");
    }

    @Test
    void cachedModelReadsReportsAsQueriesWithoutMessages() {
        int n = 4;
        BalancerLogic b = sticky(3, n, Kind.CACHED);
        Bench env = new Bench(b, 4);
        // Before any report: both reads unknown, routed blindly, nothing cached.
        env.on(new BalancerMessage.Arrival(0, 1, 0));
        routed(env, 0);
        assertEquals(2, lastQueries(env));
        assertEquals(StickyCache.NONE, policyOf(b).cache().node());
        for (int j = 0; j < n; j++) {
            env.on(new BalancerMessage.LoadReport(load(j, j == 2 ? 0 : 5, 0)));
        }
        int cachedAt = -1;
        for (long id = 1; id < 200 && cachedAt < 0; id++) {
            env.on(new BalancerMessage.Arrival(id, 1, 0));
            int node = routed(env, id);
            if (policyOf(b).cache().node() == 2) {
                assertEquals(2, node);
                cachedAt = (int) id;
            } else {
                assertEquals(StickyCache.NONE, policyOf(b).cache().node(), "only node 2 (q 0 < T) may be cached");
            }
        }
        assertTrue(cachedAt > 0);
        for (long id = 1000; id < 1003; id++) {
            env.on(new BalancerMessage.Arrival(id, 1, 0));
            assertEquals(2, routed(env, id));
            assertEquals(0, lastQueries(env));
        }
        assertTrue(env.timers().isEmpty());
    }

    @Test
    void oracleModelCountsTheNodesReadNotTheAllowedSet() {
        int n = 50;
        int[] q = new int[n];
        java.util.Arrays.fill(q, 7);
        ClusterView view = new ClusterView() {
            @Override
            public int nodeCount() {
                return n;
            }

            @Override
            public LoadSnapshot load(int index, double now) {
                return BalancerLogicProbeTest.load(index, q[index], 0);
            }
        };
        BalancerLogic sl = new BalancerLogic(SELF, iota(n), n, new StickyLazyPolicy(3),
                new OracleModel(view));
        Bench env = new Bench(sl, 6);
        env.on(new BalancerMessage.Arrival(0, 1, 0));
        routed(env, 0);
        assertEquals(2, lastQueries(env), "first read at q 7 >= T, then the fallback read");
        BalancerLogic po2c = new BalancerLogic(SELF, iota(n), n, new StrictPo2cPolicy(),
                new OracleModel(view));
        env.on(new BalancerMessage.Arrival(1, 1, 0));
        routed(env, 1);
        assertEquals(2, lastQueries(env));
    }

    @Test
    void strictPo2cAlwaysProbesTwoDistinctNodesAndRoutesToTheShorterQueue() {
        int n = 6;
        BalancerLogic b = new BalancerLogic(SELF, iota(n), n, new StrictPo2cPolicy(),
                new ProbeModel(TIMEOUT));
        Bench env = new Bench(b, 9);
        SplittableRandom world = new SplittableRandom(10);
        int tiesFirst = 0;
        int ties = 0;
        for (long id = 0; id < 5000; id++) {
            env.on(new BalancerMessage.Arrival(id, 1, 0));
            List<Integer> p = probes(env, id);
            assertEquals(2, p.size());
            assertNotEquals(p.get(0), p.get(1));
            int qa = world.nextInt(4);
            int qb = world.nextInt(4);
            env.on(new BalancerMessage.ProbeReply(id, load(p.get(0), qa, 0)));
            assertTrue(env.sent().isEmpty());
            env.on(new BalancerMessage.ProbeReply(id, load(p.get(1), qb, 0)));
            int chosen = routed(env, id);
            assertEquals(2, lastQueries(env));
            if (qa != qb) {
                assertEquals(qa < qb ? p.get(0) : p.get(1), chosen);
            } else {
                ties++;
                tiesFirst += chosen == p.get(0) ? 1 : 0;
            }
        }
        assertTrue(Math.abs(2 * tiesFirst - ties) < 0.1 * ties, "ties not at random: " + tiesFirst + "/" + ties);
    }

    @Test
    void singleAllowedNodeIsReadOnceAndNeverCachedAtOrAboveT() {
        BalancerLogic b = new BalancerLogic(SELF, new int[] {3}, 5, new StickyLazyPolicy(2),
                new ProbeModel(TIMEOUT));
        Bench env = new Bench(b, 12);
        env.on(new BalancerMessage.Arrival(0, 1, 0));
        assertEquals(List.of(3), probes(env, 0));
        env.on(new BalancerMessage.ProbeReply(0, load(3, 4, 0)));
        assertEquals(3, routed(env, 0));
        assertEquals(1, lastQueries(env));
        assertEquals(StickyCache.NONE, policyOf(b).cache().node());
    }
}

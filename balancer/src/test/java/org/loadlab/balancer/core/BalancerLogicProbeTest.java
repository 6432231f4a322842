package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.information.OracleModel;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.pipeline.PipelinePolicy;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/** {@link BalancerLogic} with the probe information model. */
class BalancerLogicProbeTest {
    static final BalancerId SELF = new BalancerId(1);
    static final double TIMEOUT = 0.05;

    static PipelinePolicy policy(String name, int nodes) {
        double[] rates = new double[nodes];
        java.util.Arrays.fill(rates, 1.0);
        return PolicyCatalog.create(name, PolicyParameters.DEFAULTS, rates);
    }

    static int[] iota(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    static LoadSnapshot load(int node, int q, double t) {
        return new LoadSnapshot(node, q, Math.min(q, 1), 1.0, 0.4, 0.3, 0.2, 0.1, 1.0, t, true);
    }

    /** The information models, as the tests name them. */
    enum Kind { PROBE, CACHED }

    /** A fresh information model of {@code kind} for a balancer over n nodes. */
    static InformationModel model(Kind kind, int n) {
        return kind == Kind.PROBE ? new ProbeModel(TIMEOUT) : new CachedModel(n);
    }

    static BalancerLogic logic(String policy, int[] allowed, int n, Kind kind) {
        return new BalancerLogic(SELF, allowed, n, policy(policy, n), model(kind, n));
    }

    /** Collects the nodes probed by the last arrival and checks the probe messages. */
    private static List<Integer> probed(List<Bench.Sent> sent, long id) {
        List<Integer> nodes = new ArrayList<>();
        for (Bench.Sent s : sent) {
            NodeMessage.Probe p = (NodeMessage.Probe) s.message();
            assertEquals(id, p.probeId());
            assertEquals(SELF, p.replyTo());
            nodes.add(((NodeId) s.to()).index());
        }
        return nodes;
    }

    @Test
    void p2cProbesTwoDistinctNodesAndRoutesToTheShorterQueue() {
        int n = 10;
        BalancerLogic b = logic("p2c", iota(n), n, Kind.PROBE);
        Bench env = new Bench(b, 123);
        SplittableRandom world = new SplittableRandom(99);
        int[] sampled = new int[n];
        int[][] pairs = new int[n][n];
        int[] chosenCount = new int[n];
        int tieFirst = 0;
        int tieSecond = 0;
        int arrivals = 10_000;
        for (int i = 0; i < arrivals; i++) {
            double t = i * 0.01;
            env.at(t);
            int[] q = new int[n];
            for (int j = 0; j < n; j++) {
                q[j] = world.nextInt(6);
            }
            env.drainSent();
            env.on(new BalancerMessage.Arrival(i, 1.0, t));

            List<Bench.Sent> sent = env.drainSent();
            assertEquals(2, sent.size(), "exactly two probes");
            List<Integer> nodes = probed(sent, i);
            int x = nodes.get(0);
            int y = nodes.get(1);
            assertNotEquals(x, y, "sampling must be without replacement");
            sampled[x]++;
            sampled[y]++;
            pairs[Math.min(x, y)][Math.max(x, y)]++;
            List<SimHarness.Timer> timers = env.timersOf(BalancerMessage.ProbeTimeout.class);
            assertEquals(1, timers.size());
            assertEquals(new BalancerMessage.ProbeTimeout(i), timers.get(0).message());
            assertEquals(TIMEOUT, timers.get(0).delay(), 1e-12);
            assertEquals(1, b.pendingDecisions());

            // Replies come back in random order.
            boolean swap = world.nextBoolean();
            int first = swap ? y : x;
            int second = swap ? x : y;
            env.at(t + 0.001);
            env.on(new BalancerMessage.ProbeReply(i, load(first, q[first], t)));
            assertTrue(env.sent().isEmpty(), "no decision before every reply (or the timeout)");
            env.on(new BalancerMessage.ProbeReply(i, load(second, q[second], t)));

            List<Bench.Sent> routed = env.drainSent();
            assertEquals(1, routed.size());
            NodeMessage.Request r = (NodeMessage.Request) routed.get(0).message();
            assertEquals(i, r.id());
            assertEquals(SELF, r.replyTo());
            assertEquals(t, r.arrivalTime(), 1e-12);
            int chosen = ((NodeId) routed.get(0).to()).index();
            assertTrue(chosen == x || chosen == y, "routed outside the sample");
            int other = chosen == x ? y : x;
            assertTrue(q[chosen] <= q[other], "routed to the strictly more loaded node");
            if (q[x] == q[y]) {
                if (chosen == first) {
                    tieFirst++;
                } else {
                    tieSecond++;
                }
            }
            chosenCount[chosen]++;
            assertTrue(env.timersOf(BalancerMessage.ProbeTimeout.class).isEmpty(), "timeout not cancelled");
            assertEquals(0, b.pendingDecisions());
            Bench.Metrics m = env.metrics();
            assertEquals(i + 1, m.decisions().size());
            assertEquals(2, m.decisions().get(i).queries());
            assertEquals(1, b.inFlight(chosen));
            env.on(new BalancerMessage.Response(i, chosen, t, true));
            assertEquals(0, b.inFlight(chosen));
        }
        assertEquals(arrivals, env.metrics().arrived());
        assertTrue(env.metrics().rejected().isEmpty());
        for (int j = 0; j < n; j++) {
            // E = 2000 each; every node is sampled, roughly uniformly.
            assertTrue(sampled[j] > 1800 && sampled[j] < 2200, "sampling not uniform: " + java.util.Arrays.toString(sampled));
            for (int k = j + 1; k < n; k++) {
                assertTrue(pairs[j][k] > 130, "pair " + j + "," + k + " sampled " + pairs[j][k] + " times (E 222)");
            }
            assertTrue(chosenCount[j] > 0);
        }
        int ties = tieFirst + tieSecond;
        assertTrue(ties > 1000);
        assertTrue(Math.abs(tieFirst - tieSecond) < 0.1 * ties, "ties not broken at random: " + tieFirst + "/" + tieSecond);
    }

    @Test
    void powerOfThreeNeverRoutesToTheStrictlyMostLoadedOfTheSample() {
        int n = 6;
        BalancerLogic b = new BalancerLogic(SELF, iota(n), n,
                PolicyCatalog.create("power-of-k", new PolicyParameters(3, PolicyParameters.DEFAULTS.asmf()), new double[n]),
                new ProbeModel(TIMEOUT));
        Bench env = new Bench(b, 5);
        SplittableRandom world = new SplittableRandom(6);
        for (int i = 0; i < 3000; i++) {
            int[] q = new int[n];
            for (int j = 0; j < n; j++) {
                q[j] = world.nextInt(4);
            }
            env.on(new BalancerMessage.Arrival(i, 1, 0));
            List<Integer> nodes = probed(env.drainSent(), i);
            assertEquals(3, nodes.stream().distinct().count());
            int min = Integer.MAX_VALUE;
            for (int node : nodes) {
                env.on(new BalancerMessage.ProbeReply(i, load(node, q[node], 0)));
                min = Math.min(min, q[node]);
            }
            NodeMessage.Request r = (NodeMessage.Request) env.sent().get(0).message();
            int chosen = ((NodeId) env.drainSent().get(0).to()).index();
            assertEquals(i, r.id());
            assertTrue(nodes.contains(chosen));
            assertEquals(min, q[chosen]);
        }
    }

    @Test
    void timeoutWithOneReplyDecidesAmongTheRepliedNodes() {
        for (long seed = 0; seed < 50; seed++) {
            BalancerLogic b = logic("p2c", iota(10), 10, Kind.PROBE);
            Bench env = new Bench(b, seed);
            env.at(1.0);
            env.on(new BalancerMessage.Arrival(7, 2.0, 1.0));
            List<Integer> nodes = probed(env.drainSent(), 7);
            int replied = nodes.get((int) (seed % 2));
            int silent = nodes.get((int) (1 - seed % 2));
            env.at(1.01);
            // The replied node is much more loaded, but it is the only one known.
            env.on(new BalancerMessage.ProbeReply(7, load(replied, 50, 1.01)));
            assertTrue(env.sent().isEmpty());
            SimHarness.Timer t = env.timersOf(BalancerMessage.ProbeTimeout.class).get(0);
            env.fire(t.key());
            assertEquals(1.0 + TIMEOUT, env.now(), 1e-12);
            List<Bench.Sent> sent = env.drainSent();
            assertEquals(1, sent.size());
            assertEquals(NodeId.of(replied), sent.get(0).to());
            assertEquals(7, ((NodeMessage.Request) sent.get(0).message()).id());
            assertEquals(1, env.metrics().decisions().size());
            assertEquals(2, env.metrics().decisions().get(0).queries());
            assertEquals(0, b.pendingDecisions());

            // A late reply from the silent node is ignored.
            env.on(new BalancerMessage.ProbeReply(7, load(silent, 0, 1.06)));
            assertTrue(env.sent().isEmpty());
            assertEquals(1, env.metrics().decisions().size());
            assertEquals(0, b.inFlight(silent));
            assertEquals(1, b.inFlight(replied));
        }
    }

    @Test
    void timeoutWithoutRepliesRejects() {
        BalancerLogic b = logic("p2c", iota(10), 10, Kind.PROBE);
        Bench env = new Bench(b, 1);
        env.at(3.0);
        env.on(new BalancerMessage.Arrival(11, 1.0, 2.5));
        List<Integer> nodes = probed(env.drainSent(), 11);
        env.fire(env.timersOf(BalancerMessage.ProbeTimeout.class).get(0).key());
        assertTrue(env.sent().isEmpty());
        assertEquals(1, env.metrics().rejected().size());
        assertEquals(2.5, env.metrics().rejected().get(0).arrivalTime(), 1e-12);
        assertEquals(2, env.metrics().decisions().get(0).queries());
        assertEquals(0, b.pendingDecisions());
        // Both late replies are ignored.
        for (int node : nodes) {
            env.on(new BalancerMessage.ProbeReply(11, load(node, 0, 3.1)));
        }
        assertTrue(env.sent().isEmpty());
        assertEquals(1, env.metrics().decisions().size());
    }

    @Test
    void duplicateAndForeignRepliesAreIgnored() {
        BalancerLogic b = logic("p2c", iota(10), 10, Kind.PROBE);
        Bench env = new Bench(b, 2);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0));
        List<Integer> nodes = probed(env.drainSent(), 1);
        int outsider = 0;
        while (nodes.contains(outsider)) {
            outsider++;
        }
        env.on(new BalancerMessage.ProbeReply(1, load(outsider, 0, 0)));
        env.on(new BalancerMessage.ProbeReply(1, load(nodes.get(0), 5, 0)));
        env.on(new BalancerMessage.ProbeReply(1, load(nodes.get(0), 5, 0)));
        assertTrue(env.sent().isEmpty(), "a duplicate or foreign reply must not complete the decision");
        env.on(new BalancerMessage.ProbeReply(999, load(nodes.get(1), 0, 0))); // another request id
        assertTrue(env.sent().isEmpty());
        env.on(new BalancerMessage.ProbeReply(1, load(nodes.get(1), 1, 0)));
        assertEquals(NodeId.of(nodes.get(1)), env.sent().get(0).to());
    }

    @Test
    void concurrentDecisionsAreKeptApartByRequestId() {
        BalancerLogic b = logic("p2c", iota(4), 4, Kind.PROBE);
        Bench env = new Bench(b, 8);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0));
        List<Integer> n1 = probed(env.drainSent(), 1);
        env.on(new BalancerMessage.Arrival(2, 1.0, 0));
        List<Integer> n2 = probed(env.drainSent(), 2);
        assertEquals(2, b.pendingDecisions());
        assertEquals(2, env.timersOf(BalancerMessage.ProbeTimeout.class).size());
        env.on(new BalancerMessage.ProbeReply(2, load(n2.get(0), 0, 0)));
        env.on(new BalancerMessage.ProbeReply(2, load(n2.get(1), 3, 0)));
        assertEquals(NodeId.of(n2.get(0)), env.sent().get(0).to());
        assertEquals(2, ((NodeMessage.Request) env.drainSent().get(0).message()).id());
        assertEquals(1, env.timersOf(BalancerMessage.ProbeTimeout.class).size());
        env.on(new BalancerMessage.ProbeReply(1, load(n1.get(0), 4, 0)));
        env.on(new BalancerMessage.ProbeReply(1, load(n1.get(1), 2, 0)));
        assertEquals(NodeId.of(n1.get(1)), env.sent().get(0).to());
        assertTrue(env.timers().isEmpty());
    }

    @Test
    void leastQueueProbesEveryAllowedNodeAndMapsRepliesByNodeIndex() {
        int[] allowed = {7, 2, 5};
        BalancerLogic b = logic("least-queue", allowed, 8, Kind.PROBE);
        Bench env = new Bench(b, 3);
        env.on(new BalancerMessage.Arrival(4, 1.0, 0));
        List<Integer> nodes = probed(env.drainSent(), 4);
        assertEquals(List.of(2, 5, 7), nodes.stream().sorted().toList());
        env.on(new BalancerMessage.ProbeReply(4, load(3, 0, 0))); // not allowed: ignored
        env.on(new BalancerMessage.ProbeReply(4, load(5, 1, 0)));
        env.on(new BalancerMessage.ProbeReply(4, load(7, 3, 0)));
        assertTrue(env.sent().isEmpty());
        env.on(new BalancerMessage.ProbeReply(4, load(2, 2, 0)));
        assertEquals(NodeId.of(5), env.sent().get(0).to());
        assertEquals(3, env.metrics().decisions().get(0).queries());
    }

    @Test
    void asmfBelowTauRejectsThroughTheLogic() {
        BalancerLogic b = logic("asmf", iota(4), 4, Kind.PROBE);
        Bench env = new Bench(b, 4);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0.5));
        for (int node : probed(env.drainSent(), 1)) {
            // μ 1, q 20: S < 1/21 < τ
            env.on(new BalancerMessage.ProbeReply(1, load(node, 20, 0)));
        }
        assertTrue(env.sent().isEmpty());
        assertEquals(1, env.metrics().rejected().size());
    }

    @Test
    void blindPoliciesRouteImmediatelyWithZeroQueries() {
        BalancerLogic b = logic("random", iota(5), 5, Kind.PROBE);
        Bench env = new Bench(b, 4);
        env.on(new BalancerMessage.Arrival(1, 1.0, 0.5));
        assertEquals(1, env.sent().size());
        assertTrue(env.sent().get(0).message() instanceof NodeMessage.Request);
        assertTrue(env.timers().isEmpty());
        assertEquals(0, env.metrics().decisions().get(0).queries());
    }

    @Test
    void constructorValidation() {
        assertThrows(IllegalArgumentException.class, () -> logic("random", new int[0], 3, Kind.PROBE));
        assertThrows(IllegalArgumentException.class, () -> logic("random", new int[] {0, 3}, 3, Kind.PROBE));
        assertThrows(IllegalArgumentException.class, () -> new ProbeModel(0));
        assertThrows(IllegalArgumentException.class, () -> new OracleModel(null));
    }
}

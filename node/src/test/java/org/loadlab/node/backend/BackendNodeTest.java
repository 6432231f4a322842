package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * FCFS service, multi-server, capacity, failure and degradation of {@link BackendNode}, run on
 * the simulation engine ({@link SimHarness}): node 3 is under test, the balancers are stand-ins
 * that record what they receive, and the test steps the clock.
 */
class BackendNodeTest {
    private static final double EPS = 1e-9;
    private static final BalancerId B0 = new BalancerId(0);
    private static final int NODE = 3;
    private static final NodeId SELF = NodeId.of(NODE);

    private BackendNode node;
    private SimHarness sim;

    private void setUp(double mu, NodeSettings settings) {
        node = new BackendNode(SELF, mu, settings);
        sim = new SimHarness(42, NODE + 1, 3, 0).install(SELF, node);
        sim.start();
    }

    private static NodeSettings servers(int c) {
        return new NodeSettings(c, 0, 0.1, 0, 0, List.of(), FeedbackSettings.OFF);
    }

    /** Runs the node up to {@code t} (its timers due by then fire first) and hands it {@code message} there. */
    private void at(double t, NodeMessage message) {
        sim.sendAt(t, SELF, message);
        sim.runUntil(t);
    }

    private void request(double t, long id, double demand) {
        at(t, new NodeMessage.Request(id, demand, t, B0));
    }

    private List<SimHarness.Timer> serviceTimers() {
        return sim.timersOf(SELF, NodeMessage.ServiceDone.class);
    }

    private SimHarness.Timer onlyServiceTimer() {
        List<SimHarness.Timer> ts = serviceTimers();
        assertEquals(1, ts.size(), "exactly one service timer expected, got " + ts);
        return ts.get(0);
    }

    private List<BalancerMessage.Response> responses() {
        return sim.delivered(BalancerMessage.Response.class);
    }

    private List<Observation.ServiceStarted> started() {
        return sim.observed(Observation.ServiceStarted.class);
    }

    private List<Observation.Lost> lost() {
        return sim.observed(Observation.Lost.class);
    }

    @Test
    void fcfsOneServerServesInArrivalOrderWithServiceTimeDemandOverMu() {
        setUp(2.0, servers(1));
        request(0.0, 1, 2.0);
        request(0.5, 2, 4.0);
        request(0.8, 3, 6.0);

        // Only the first is in service; its timer is D/μ = 2/2 = 1 s.
        SimHarness.Timer t1 = onlyServiceTimer();
        assertEquals(1.0, t1.delay(), EPS);
        assertEquals(1, started().size());
        assertEquals(0.0, started().get(0).waitSeconds(), EPS);
        assertEquals(3, node.queueLength());
        assertTrue(responses().isEmpty());

        sim.fire(SELF, t1.key());
        assertEquals(1.0, sim.now(), EPS);
        // Second starts at 1.0 after waiting 1.0 - 0.5; service 4/2 = 2 s.
        SimHarness.Timer t2 = onlyServiceTimer();
        assertEquals(2.0, t2.delay(), EPS);
        assertEquals(3.0, t2.due(), EPS);
        assertEquals(0.5, started().get(1).waitSeconds(), EPS);

        sim.fire(SELF, t2.key());
        SimHarness.Timer t3 = onlyServiceTimer();
        assertEquals(3.0, t3.delay(), EPS);
        assertEquals(3.0 - 0.8, started().get(2).waitSeconds(), EPS);

        sim.fire(SELF, t3.key());
        assertEquals(6.0, sim.now(), EPS);
        assertTrue(serviceTimers().isEmpty());
        assertEquals(0, node.queueLength());

        List<SimHarness.Delivery> sent = sim.deliveries();
        assertEquals(3, sent.size());
        long[] ids = {1, 2, 3};
        double[] at = {1.0, 3.0, 6.0};
        double[] arrival = {0.0, 0.5, 0.8};
        for (int i = 0; i < 3; i++) {
            assertEquals(B0, sent.get(i).to());
            BalancerMessage.Response r = (BalancerMessage.Response) sent.get(i).message();
            assertEquals(ids[i], r.id());
            assertEquals(NODE, r.node());
            assertEquals(arrival[i], r.arrivalTime(), EPS);
            assertTrue(r.served());
            assertEquals(at[i], sent.get(i).at(), EPS);
        }
        List<Observation.QueueLength> lengths = sim.observed(Observation.QueueLength.class);
        assertEquals(0, lengths.get(lengths.size() - 1).length());
    }

    @Test
    void twoServersStartTwoRequestsAtOnce() {
        setUp(1.0, servers(2));
        request(0.0, 1, 1.0);
        request(0.0, 2, 2.0);
        request(0.0, 3, 3.0);
        List<SimHarness.Timer> ts = serviceTimers();
        assertEquals(2, ts.size());
        assertEquals(2, started().size());
        assertEquals(3, node.queueLength());
        assertEquals(2, node.snapshot(0.0).inService());
        assertEquals(List.of(1.0, 2.0), ts.stream().map(SimHarness.Timer::delay).sorted().toList());

        sim.runUntil(10);
        List<BalancerMessage.Response> rs = responses();
        assertEquals(List.of(1L, 2L, 3L), rs.stream().map(BalancerMessage.Response::id).toList());
        // Third starts when the first server frees at 1.0 and finishes at 1 + 3 = 4.
        assertEquals(1.0, started().get(2).waitSeconds(), EPS);
        assertEquals(4.0, sim.deliveries().get(2).at(), EPS);
    }

    /** Randomised FCFS c-server node against a reference computation of start/finish times. */
    @Test
    void randomizedFcfsMatchesReferenceMultiServerQueue() {
        for (int seed = 0; seed < 60; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int c = 1 + seed % 3;
            double mu = 0.5 + r.nextDouble() * 3;
            setUp(mu, servers(c));
            int n = 200;
            double[] arr = new double[n];
            double[] dem = new double[n];
            double t = 0;
            for (int i = 0; i < n; i++) {
                t += -Math.log(1 - r.nextDouble()) / (0.9 * c * mu);
                arr[i] = t;
                dem[i] = -Math.log(1 - r.nextDouble());
            }
            double[] free = new double[c];
            double[] start = new double[n];
            double[] finish = new double[n];
            for (int i = 0; i < n; i++) {
                int s = 0;
                for (int j = 1; j < c; j++) {
                    if (free[j] < free[s]) {
                        s = j;
                    }
                }
                start[i] = Math.max(arr[i], free[s]);
                finish[i] = start[i] + dem[i] / mu;
                free[s] = finish[i];
            }
            for (int i = 0; i < n; i++) {
                request(arr[i], i, dem[i]); // service completions due by arr[i] come first
                assertTrue(serviceTimers().size() <= c);
            }
            sim.runUntil(Double.MAX_VALUE);
            Map<Long, Double> doneAt = new HashMap<>();
            for (SimHarness.Delivery s : sim.deliveries()) {
                BalancerMessage.Response resp = (BalancerMessage.Response) s.message();
                assertTrue(resp.served());
                assertNull(doneAt.put(resp.id(), s.at()), "duplicate response");
            }
            assertEquals(n, doneAt.size(), "seed " + seed);
            List<Observation.ServiceStarted> starts = started();
            assertEquals(n, starts.size());
            for (int i = 0; i < n; i++) {
                assertEquals(finish[i], doneAt.get((long) i), 1e-7, "finish of " + i + " seed " + seed);
                assertEquals(start[i] - arr[i], starts.get(i).waitSeconds(), 1e-7, "wait of " + i);
            }
            if (c == 1) {
                List<Long> order = responses().stream().map(BalancerMessage.Response::id).toList();
                for (int i = 0; i < n; i++) {
                    assertEquals(i, order.get(i));
                }
            }
        }
    }

    @Test
    void requestBeyondQueueCapacityIsRefused() {
        setUp(1.0, new NodeSettings(1, 2, 0.1, 0, 0, List.of(), FeedbackSettings.OFF));
        request(0.0, 1, 1.0);
        request(0.1, 2, 1.0);
        assertTrue(sim.deliveries().isEmpty());
        request(0.2, 3, 1.0);
        assertEquals(1, sim.deliveries().size());
        assertEquals(B0, sim.deliveries().get(0).to());
        BalancerMessage.Response r = (BalancerMessage.Response) sim.deliveries().get(0).message();
        assertEquals(3, r.id());
        assertFalse(r.served());
        assertEquals(0.2, r.arrivalTime(), EPS);
        assertEquals(2, node.queueLength());
        assertEquals(0, sim.lost());

        sim.runUntil(1.0); // request 1 done, room again
        sim.drain();
        request(1.0, 4, 1.0);
        assertTrue(sim.deliveries().isEmpty());
        assertEquals(2, node.queueLength());
    }

    @Test
    void failLosesQueuedAndInServiceAndLaterArrivalsAndStopsProbes() {
        setUp(1.0, servers(2));
        request(0.0, 1, 5.0);
        request(0.0, 2, 5.0);
        request(0.1, 3, 5.0);
        request(0.2, 4, 5.0);
        assertEquals(2, serviceTimers().size());

        at(0.5, new NodeMessage.Fail());
        assertEquals(4, sim.lost());
        assertEquals(1, lost().size());
        assertEquals(NODE, lost().get(0).node());
        assertTrue(serviceTimers().isEmpty(), "service timers must be cancelled");
        assertTrue(node.failed());
        assertEquals(0, node.queueLength());
        assertFalse(node.snapshot(0.5).available());

        request(1.0, 5, 1.0);
        assertEquals(5, sim.lost());
        assertTrue(serviceTimers().isEmpty());
        at(1.0, new NodeMessage.Probe(77, B0));
        assertTrue(sim.deliveries().isEmpty(), "failed node neither answers probes nor responds");

        // A second Fail does not count anything again.
        sim.deliver(SELF, new NodeMessage.Fail());
        assertEquals(5, sim.lost());

        at(2.0, new NodeMessage.Recover());
        assertFalse(node.failed());
        request(2.0, 6, 1.0);
        sim.deliver(SELF, new NodeMessage.Probe(78, B0));
        List<BalancerMessage.ProbeReply> replies = sim.delivered(BalancerMessage.ProbeReply.class);
        assertEquals(1, replies.size());
        assertEquals(78, replies.get(0).probeId());
        assertEquals(1, replies.get(0).load().queueLength());
        assertTrue(replies.get(0).load().available());
        sim.runUntil(10);
        List<BalancerMessage.Response> rs = responses();
        assertEquals(1, rs.size());
        assertEquals(6, rs.get(0).id());
        assertTrue(rs.get(0).served());
        assertEquals(5, sim.lost());
    }

    @Test
    void theLostRequestsListenerHearsEachRequestAFailedNodeLosesInIdOrderButNotACrashedOnes() {
        // The balancers never hear of a fail, so the shells end those requests one by one from
        // here (the decision log's row, the gateway's answer); before, only the count was told.
        List<String> heard = new java.util.ArrayList<>();
        node = new BackendNode(SELF, 1.0, servers(2));
        node.lostRequests((r, now) -> heard.add(r.id() + "@" + now + " from " + r.replyTo().index()));
        sim = new SimHarness(42, NODE + 1, 3, 0).install(SELF, node);
        sim.start();
        request(0.0, 4, 5.0); // in service
        request(0.0, 1, 5.0); // in service
        request(0.1, 3, 5.0); // waiting
        at(0.2, new NodeMessage.Request(2, 5.0, 0.2, new BalancerId(2))); // waiting, from another balancer
        at(0.5, new NodeMessage.Fail());
        assertEquals(List.of("1@0.5 from 0", "2@0.5 from 2", "3@0.5 from 0", "4@0.5 from 0"), heard,
                "every queued and in-service request, in request-id order, at the failure");
        request(1.0, 5, 1.0);
        assertEquals("5@1.0 from 0", heard.get(4), "a request reaching the failed node is lost when it arrives");
        sim.deliver(SELF, new NodeMessage.Fail());
        at(2.0, new NodeMessage.Recover());
        request(2.0, 6, 1.0);
        sim.runUntil(10);
        assertEquals(5, heard.size(), "a second fail and a served request tell nothing");
        assertEquals(sim.lost(), heard.size(), "one heard per request counted lost");

        request(10.0, 7, 5.0);
        at(10.5, new NodeMessage.Crash());
        request(11.0, 8, 1.0);
        assertEquals(5, heard.size(), "a crash counts nothing (membership removal ends its requests)");
    }

    @Test
    void probeReplyCarriesCurrentState() {
        setUp(4.0, servers(1));
        request(0.0, 1, 1.0);
        request(0.0, 2, 1.0);
        at(0.1, new NodeMessage.Probe(9, new BalancerId(2)));
        assertEquals(1, sim.deliveries().size());
        assertEquals(new BalancerId(2), sim.deliveries().get(0).to());
        LoadSnapshot s = ((BalancerMessage.ProbeReply) sim.deliveries().get(0).message()).load();
        assertEquals(NODE, s.node());
        assertEquals(2, s.queueLength());
        assertEquals(1, s.inService());
        assertEquals(4.0, s.serviceRate(), EPS);
        assertEquals(0.1, s.sampledAt(), EPS);
        assertEquals(1.0, s.correction(), EPS);
        assertTrue(s.available());
    }

    @Test
    void degradeRescalesRemainingWorkStallsAndResumes() {
        setUp(2.0, servers(1));
        request(0.0, 1, 10.0);
        assertEquals(5.0, onlyServiceTimer().delay(), EPS);

        // t=2: 4 of 10 units done, 6 remain; new rate 1 -> 6 s, due at 8.
        at(2.0, new NodeMessage.Degrade(0.5));
        assertEquals(1.0, node.serviceRate(), EPS);
        SimHarness.Timer t = onlyServiceTimer();
        assertEquals(6.0, t.delay(), EPS);
        assertEquals(8.0, t.due(), EPS);

        // t=4: 4 units remain; rate 0 stalls: no timer.
        at(4.0, new NodeMessage.Degrade(0.0));
        assertTrue(serviceTimers().isEmpty(), "a stalled server must not finish");
        assertEquals(0.0, node.snapshot(4.0).serviceRate(), EPS);
        request(5.0, 2, 3.0); // waits behind the stalled one
        assertTrue(serviceTimers().isEmpty());
        at(7.0, new NodeMessage.Degrade(0.0)); // still stalled, remaining work kept
        assertTrue(serviceTimers().isEmpty());

        // t=10: back to μ=2: 4 units take 2 s.
        at(10.0, new NodeMessage.Degrade(1.0));
        t = onlyServiceTimer();
        assertEquals(2.0, t.delay(), EPS);
        sim.fire(SELF, t.key());
        assertEquals(12.0, sim.now(), EPS);
        assertEquals(1L, responses().get(0).id());
        // The waiting request starts at 12 after waiting 7 and takes 3/2 s.
        t = onlyServiceTimer();
        assertEquals(1.5, t.delay(), EPS);
        assertEquals(7.0, started().get(1).waitSeconds(), EPS);
    }

    @Test
    void degradeSpeedUpAndRequestArrivingWhileStalled() {
        setUp(1.0, servers(1));
        at(0.0, new NodeMessage.Degrade(0.0));
        request(1.0, 1, 3.0);
        assertTrue(serviceTimers().isEmpty());
        at(2.0, new NodeMessage.Degrade(3.0)); // μ = 3
        assertEquals(1.0, onlyServiceTimer().delay(), EPS);
        at(2.5, new NodeMessage.Degrade(0.5)); // 1.5 units left
        assertEquals(3.0, onlyServiceTimer().delay(), EPS);
    }

    @Test
    void degradeOnTwoServersRescalesEachSlot() {
        setUp(1.0, servers(2));
        request(0.0, 1, 2.0);
        request(1.0, 2, 4.0);
        at(1.5, new NodeMessage.Degrade(0.25)); // slot A: 0.5 left; slot B: 3.5 left
        List<Double> delays = serviceTimers().stream().map(SimHarness.Timer::delay).sorted().toList();
        assertEquals(2, delays.size());
        assertEquals(2.0, delays.get(0), EPS);
        assertEquals(14.0, delays.get(1), EPS);
    }

    @Test
    void resourceStateOnlyChangesAtPeriodBoundaries() {
        setUp(1.0, servers(1));
        LoadSnapshot a = node.snapshot(0.31);
        for (int i = 0; i < 50; i++) {
            request(0.32, i, 100);
        }
        LoadSnapshot b = node.snapshot(0.39);
        assertEquals(a.cpu(), b.cpu());
        assertEquals(a.mem(), b.mem());
        assertEquals(a.io(), b.io());
        assertEquals(a.net(), b.net());
        assertEquals(50, b.queueLength());
        LoadSnapshot c = node.snapshot(0.41); // q = 50 since 0.32 -> p = 0.625
        assertEquals(0.35 + 0.55 * 0.625, c.cpu(), 0.05 + EPS);
        assertTrue(c.cpu() > a.cpu());
    }

    /**
     * The resource model's contract (NodeLoadState javadoc, SPEC §1): the state at time t is
     * computed from q at the last period boundary. A failure at 0.25 empties the queue, but
     * at the boundary 0.2 q was 80, so a read at 0.28 must still show high pressure.
     */
    @Test
    void failureDoesNotRewriteResourceStateOfTheCurrentPeriod() {
        setUp(1.0, servers(1));
        for (int i = 0; i < 80; i++) {
            request(0.01, i, 100);
        }
        at(0.25, new NodeMessage.Fail());
        LoadSnapshot s = node.snapshot(0.28);
        assertEquals(0.90, s.cpu(), 0.05 + EPS);
    }

    /** LoadSnapshot javadoc: serviceRate is "0 when failed". */
    @Test
    void failedNodeSnapshotReportsZeroRate() {
        setUp(5.0, servers(1));
        at(1.0, new NodeMessage.Fail());
        assertEquals(0.0, node.snapshot(1.0).serviceRate(), EPS);
    }

    @Test
    void feedbackCorrectionThroughTheNode() {
        // η 0.05, window 1 s. 10 arrivals and 4 completions in [0,1): Δ = 6/s, C = 1 - 0.3.
        NodeSettings s = new NodeSettings(1, 0, 0.1, 0, 0, List.of(), new FeedbackSettings(0.05, 0.3, 2.5, 1.0));
        setUp(1.0, s);
        for (int i = 0; i < 10; i++) {
            request(0.01 * i, i, 0.2);
        }
        sim.runUntil(0.95);
        assertEquals(4, responses().size());
        assertEquals(1.0, node.snapshot(0.95).correction(), EPS);
        sim.runUntil(1.5);
        assertEquals(0.7, node.snapshot(1.5).correction(), 1e-12);
    }

    @Test
    void requestsWhileFailedAreNotCountedAsFeedbackArrivals() {
        NodeSettings s = new NodeSettings(1, 0, 0.1, 0, 0, List.of(), new FeedbackSettings(0.1, 0.3, 2.5, 1.0));
        setUp(1.0, s);
        at(0.0, new NodeMessage.Fail());
        for (int i = 0; i < 5; i++) {
            request(0.1 * i, i, 1.0);
        }
        assertEquals(1.0, node.snapshot(2.0).correction(), EPS);
    }

    @Test
    void nodeIdentityAndValidation() {
        setUp(1.0, servers(1));
        assertEquals(NodeId.of(NODE), node.id());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new BackendNode(NodeId.of(0), -1, NodeSettings.defaults()));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new NodeSettings(0, 0, 0.1, 0, 0, List.of(), FeedbackSettings.OFF));
    }
}

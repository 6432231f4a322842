package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.NodeMessage;

/** Service, overhead, delays and failure of {@link PeerNode}, whatever the protocol. */
class PeerNodeTest {
    private static final double EPS = 1e-9;

    private static SharingSettings costs(double transferCost, double pollCost, double pollLatency, double transferDelay) {
        SharingSettings d = SharingSettings.defaults();
        return new SharingSettings(2, 3, pollLatency, d.pollTimeout(), transferDelay, transferCost, pollCost, 1,
                d.retryPeriod(), d.aboveAverage());
    }

    private static List<Observation.Completed> completions(Peers c) {
        return c.sim.observed(Observation.Completed.class);
    }

    private static double lastCompletionAt(Peers c, int node) {
        return completions(c).stream().filter(x -> x.node() == node).mapToDouble(Observation.Completed::time).max().orElseThrow();
    }

    @Test
    void noSharingServesFcfsLocallyAndRecordsResponseFromArrival() {
        Peers c = new Peers(2, SharingProtocol.NONE, Peers.ideal(2), 0, 1);
        for (int i = 0; i < 5; i++) {
            c.arrive(0, 1.0);
        }
        c.drain();
        assertEquals(5, c.sim.requests().completed());
        assertEquals(0, c.sim.sent().size(), "no message at all");
        List<Observation.Completed> done = completions(c);
        for (int i = 0; i < 5; i++) {
            assertEquals(i + 1.0, done.get(i).time(), EPS);
            assertEquals(0.0, done.get(i).arrivalTime(), EPS, "response time counts from the arrival");
            assertEquals(0, done.get(i).node());
        }
        List<Observation.Decided> decisions = c.sim.observed(Observation.Decided.class);
        assertEquals(5, decisions.size());
        assertEquals(0, decisions.stream().mapToInt(Observation.Decided::queries).sum());
    }

    @Test
    void aTransferCostsTheSenderCpuBeforeItsWaitingTasks() {
        Peers c = new Peers(2, SharingProtocol.SENDER_THRESHOLD, costs(0.5, 0, 0, 0), 0, 1);
        c.arrive(0, 1.0); // A: in service 0..1
        c.arrive(0, 1.0); // B: waits
        c.arrive(0, 1.0); // C: q = 3 > 2, goes to node 1; node 0 spends 0.5 on the transfer after A
        c.drain();
        List<Observation.Completed> atZero = completions(c).stream().filter(x -> x.node() == 0).toList();
        assertEquals(2, atZero.size());
        assertEquals(1.0, atZero.get(0).time(), EPS);
        assertEquals(2.5, atZero.get(1).time(), EPS, "B starts after the 0.5 work units of transfer overhead");
        Observation.Completed atOne = completions(c).stream().filter(x -> x.node() == 1).findFirst().orElseThrow();
        assertEquals(1.0, atOne.time(), EPS);
    }

    @Test
    void aPollCostsThePollerAndThePolledNode() {
        Peers c = new Peers(2, SharingProtocol.SENDER_THRESHOLD, costs(0, 0.25, 0, 0), 0, 1);
        c.arrive(1, 1.0); // node 1 busy until 1.0 (then + 0.25 answering the poll)
        c.arrive(1, 1.0); // q1 = 2 = T: not a receiver
        c.arrive(0, 1.0);
        c.arrive(0, 1.0);
        c.arrive(0, 1.0); // node 0 polls node 1 (q = 2): both pay 0.25; no transfer
        c.drain();
        assertEquals(1, c.sim.counter(PeerNode.POLLS));
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(3.25, lastCompletionAt(c, 0), EPS);
        assertEquals(2.25, lastCompletionAt(c, 1), EPS);
    }

    @Test
    void pollLatencyAndTransferDelayPostponeTheMessages() {
        Peers c = new Peers(2, SharingProtocol.SENDER_THRESHOLD, costs(0, 0, 0.01, 0.2), 0.001, 1);
        c.arrive(0, 100);
        c.arrive(0, 100);
        c.arrive(0, 100);
        c.sim.runUntil(0.0105);
        assertEquals(0, c.sim.sent(SharingMessage.PollReply.class).size());
        c.sim.runUntil(0.011); // poll sent at 0.01, arrives 0.011, reply sent 0.021
        List<SimHarness.Sent> polls = c.sim.sent(SharingMessage.Poll.class);
        assertEquals(1, polls.size());
        assertEquals(0.01, polls.get(0).at(), EPS, "the poll left after poll-latency");
        c.sim.runUntil(0.0221); // reply arrives 0.022; transfer sent at 0.222, arrives 0.223
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        c.sim.runUntil(0.2225);
        assertEquals(0, c.nodes[1].queueLength(), "still in transit");
        c.checkConservation();
        c.sim.runUntil(0.2231);
        assertEquals(1, c.nodes[1].queueLength());
        c.checkConservation();
    }

    @Test
    void aFailureLosesTheQueueAndEverythingThatReachesTheNodeUntilItRecovers() {
        Peers c = new Peers(2, SharingProtocol.SENDER_RANDOM, Peers.ideal(2), 0, 1);
        c.arrive(1, 10);
        c.arrive(1, 10);
        c.sim.deliver(NodeId.of(1), new NodeMessage.Fail());
        assertEquals(2, c.sim.lost());
        assertTrue(c.nodes[1].failed());
        c.arrive(1, 1); // lost on arrival
        assertEquals(3, c.sim.lost());
        c.arrive(0, 1);
        c.arrive(0, 1);
        c.arrive(0, 1); // random: shipped to the crashed node 1 and lost there
        assertEquals(4, c.sim.lost());
        c.checkConservation();
        c.sim.deliver(NodeId.of(1), new NodeMessage.Recover());
        c.arrive(1, 1);
        c.drain();
        assertEquals(c.sim.requests().arrived(), c.sim.requests().completed() + c.sim.requests().lost());
        c.checkConservation();
    }

    @Test
    void degradationRescalesTheRemainingWork() {
        Peers c = new Peers(1, SharingProtocol.NONE, Peers.ideal(2), 0, 1);
        c.arrive(0, 2.0);
        c.sim.runUntil(1.0);
        c.sim.deliver(NodeId.of(0), new NodeMessage.Degrade(0.5)); // 1 work unit left at 0.5/s: 2 more seconds
        c.drain();
        assertEquals(3.0, completions(c).get(0).time(), EPS);
    }

    @Test
    void rejectsMessagesOfTheBalancerProtocolAndBadArguments() {
        PeerNode p = new PeerNode(NodeId.of(0), 2, 1.0, 1, SharingProtocol.RECEIVER, SharingSettings.defaults());
        SimHarness sim = new SimHarness(1, 2, 1, 0).install(NodeId.of(0), p);
        IllegalArgumentException probe = assertThrows(IllegalArgumentException.class,
                () -> sim.deliver(NodeId.of(0), new NodeMessage.Probe(1, new BalancerId(0))));
        assertTrue(probe.getMessage().contains("Probe"), probe.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new PeerNode(NodeId.of(0), 1, 1.0, 1, SharingProtocol.RECEIVER, SharingSettings.defaults()));
        assertThrows(IllegalArgumentException.class,
                () -> new PeerNode(NodeId.of(0), 2, 0.0, 1, SharingProtocol.RECEIVER, SharingSettings.defaults()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharingProtocol.of("sender"));
        assertTrue(e.getMessage().contains("sender-threshold"), e.getMessage());
    }
}

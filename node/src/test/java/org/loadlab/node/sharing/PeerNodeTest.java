package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.node.FakeEnv;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.NodeMessage;

/** Service, overhead, delays and failure of {@link PeerNode}, whatever the protocol. */
class PeerNodeTest {
    private static final double EPS = 1e-9;

    private static SharingSettings costs(double transferCost, double pollCost, double pollLatency, double transferDelay) {
        SharingSettings d = SharingSettings.defaults();
        return new SharingSettings(2, 3, pollLatency, d.pollTimeout(), transferDelay, transferCost, pollCost, 1,
                d.retryPeriod(), d.aboveAverage());
    }

    @Test
    void noSharingServesFcfsLocallyAndRecordsResponseFromArrival() {
        PeerCluster c = new PeerCluster(2, SharingProtocol.NONE, PeerCluster.ideal(2), 0, 1);
        for (int i = 0; i < 5; i++) {
            c.arrive(0, 1.0);
        }
        c.drain();
        assertEquals(5, c.metrics.completed);
        assertEquals(0, c.sent.size(), "no message at all");
        for (int i = 0; i < 5; i++) {
            assertEquals(i + 1.0, c.metrics.completions.get(i)[0], EPS);
            assertEquals(0, c.metrics.completions.get(i)[2], EPS);
        }
        assertEquals(5, c.metrics.decisions);
        assertEquals(0, c.metrics.queries);
    }

    @Test
    void aTransferCostsTheSenderCpuBeforeItsWaitingTasks() {
        PeerCluster c = new PeerCluster(2, SharingProtocol.SENDER_THRESHOLD, costs(0.5, 0, 0, 0), 0, 1);
        c.arrive(0, 1.0); // A: in service 0..1
        c.arrive(0, 1.0); // B: waits
        c.arrive(0, 1.0); // C: q = 3 > 2, goes to node 1; node 0 spends 0.5 on the transfer after A
        c.drain();
        List<double[]> atZero = c.metrics.completions.stream().filter(x -> x[2] == 0).toList();
        assertEquals(2, atZero.size());
        assertEquals(1.0, atZero.get(0)[0], EPS);
        assertEquals(2.5, atZero.get(1)[0], EPS, "B starts after the 0.5 work units of transfer overhead");
        double[] atOne = c.metrics.completions.stream().filter(x -> x[2] == 1).findFirst().orElseThrow();
        assertEquals(1.0, atOne[0], EPS);
    }

    @Test
    void aPollCostsThePollerAndThePolledNode() {
        PeerCluster c = new PeerCluster(2, SharingProtocol.SENDER_THRESHOLD, costs(0, 0.25, 0, 0), 0, 1);
        c.arrive(1, 1.0); // node 1 busy until 1.0 (then + 0.25 answering the poll)
        c.arrive(1, 1.0); // q1 = 2 = T: not a receiver
        c.arrive(0, 1.0);
        c.arrive(0, 1.0);
        c.arrive(0, 1.0); // node 0 polls node 1 (q = 2): both pay 0.25; no transfer
        c.drain();
        assertEquals(1, c.counter(PeerNode.POLLS));
        assertEquals(0, c.counter(PeerNode.TRANSFERS));
        double lastAtZero = c.metrics.completions.stream().filter(x -> x[2] == 0).mapToDouble(x -> x[0]).max().orElseThrow();
        double lastAtOne = c.metrics.completions.stream().filter(x -> x[2] == 1).mapToDouble(x -> x[0]).max().orElseThrow();
        assertEquals(3.25, lastAtZero, EPS);
        assertEquals(2.25, lastAtOne, EPS);
    }

    @Test
    void pollLatencyAndTransferDelayPostponeTheMessages() {
        PeerCluster c = new PeerCluster(2, SharingProtocol.SENDER_THRESHOLD, costs(0, 0, 0.01, 0.2), 0.001, 1);
        c.arrive(0, 100);
        c.arrive(0, 100);
        c.arrive(0, 100);
        c.run(0.0105);
        assertEquals(0, c.sentOfType(SharingMessage.PollReply.class).size());
        c.run(0.011); // poll sent at 0.01, arrives 0.011, reply sent 0.021
        assertEquals(1, c.sentOfType(SharingMessage.Poll.class).size());
        c.run(0.0221); // reply arrives 0.022; transfer sent at 0.222, arrives 0.223
        assertEquals(1, c.counter(PeerNode.TRANSFERS));
        c.run(0.2225);
        assertEquals(0, c.nodes[1].queueLength(), "still in transit");
        c.checkConservation();
        c.run(0.2231);
        assertEquals(1, c.nodes[1].queueLength());
        c.checkConservation();
    }

    @Test
    void aFailureLosesTheQueueAndEverythingThatReachesTheNodeUntilItRecovers() {
        PeerCluster c = new PeerCluster(2, SharingProtocol.SENDER_RANDOM, PeerCluster.ideal(2), 0, 1);
        c.arrive(1, 10);
        c.arrive(1, 10);
        c.deliver(1, new NodeMessage.Fail());
        assertEquals(2, c.metrics.lost);
        assertTrue(c.nodes[1].failed());
        c.arrive(1, 1); // lost on arrival
        assertEquals(3, c.metrics.lost);
        c.arrive(0, 1);
        c.arrive(0, 1);
        c.arrive(0, 1); // random: shipped to the crashed node 1 and lost there
        c.settle();
        assertEquals(4, c.metrics.lost);
        c.checkConservation();
        c.deliver(1, new NodeMessage.Recover());
        c.arrive(1, 1);
        c.drain();
        assertEquals(c.metrics.arrived, c.metrics.completed + c.metrics.lost);
        c.checkConservation();
    }

    @Test
    void degradationRescalesTheRemainingWork() {
        PeerCluster c = new PeerCluster(1, SharingProtocol.NONE, PeerCluster.ideal(2), 0, 1);
        c.arrive(0, 2.0);
        c.run(1.0);
        c.deliver(0, new NodeMessage.Degrade(0.5)); // 1 work unit left at 0.5/s: 2 more seconds
        c.drain();
        assertEquals(3.0, c.metrics.completions.get(0)[0], EPS);
    }

    @Test
    void rejectsMessagesOfTheBalancerProtocolAndBadArguments() {
        PeerNode p = new PeerNode(NodeId.of(0), 2, 1.0, 1, SharingProtocol.RECEIVER, SharingSettings.defaults());
        FakeEnv env = new FakeEnv(NodeId.of(0), 1);
        p.onStart(env);
        assertThrows(IllegalArgumentException.class, () -> p.on(new NodeMessage.Probe(1, new org.loadlab.kernel.BalancerId(0)), env));
        assertThrows(IllegalArgumentException.class,
                () -> new PeerNode(NodeId.of(0), 1, 1.0, 1, SharingProtocol.RECEIVER, SharingSettings.defaults()));
        assertThrows(IllegalArgumentException.class,
                () -> new PeerNode(NodeId.of(0), 2, 0.0, 1, SharingProtocol.RECEIVER, SharingSettings.defaults()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharingProtocol.of("sender"));
        assertTrue(e.getMessage().contains("sender-threshold"), e.getMessage());
    }
}

package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.Observation;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.NodeMessage;

/** Hand-driven cases of the sender-initiated protocols (Eager, Lazowska, Zahorjan 1986; the slides). */
class SenderInitiatedTest {
    private static final double LONG = 1000; // demand long enough that nothing completes during a case
    private static final int T = 2;

    private static Peers cluster(int n, SharingProtocol p) {
        return new Peers(n, p, Peers.ideal(T), 0, 7);
    }

    /** Node {@code i} gets {@code k} long tasks. */
    private static void load(Peers c, int i, int k) {
        for (int j = 0; j < k; j++) {
            c.arrive(i, LONG);
        }
    }

    @Test
    void thresholdSenderAtTPlusOneWithOneIdlePeerTransfersExactlyOneTask() {
        Peers c = cluster(4, SharingProtocol.SENDER_THRESHOLD);
        load(c, 2, T); // at the threshold: not receivers
        load(c, 3, T);
        load(c, 0, T);
        assertEquals(0, c.sim.counter(PeerNode.POLLS), "nobody exceeded T yet");
        c.arrive(0, LONG); // q = T + 1: a sender
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        List<SimHarness.Sent> transfers = c.sim.sent(SharingMessage.Transfer.class);
        assertEquals(1, transfers.size());
        assertEquals(NodeId.of(0), transfers.get(0).from());
        assertEquals(NodeId.of(1), transfers.get(0).to(), "the only peer below T gets the task");
        assertEquals(1, ((SharingMessage.Transfer) transfers.get(0).message()).task().transfers());
        assertEquals(T, c.nodes[0].queueLength());
        assertEquals(1, c.nodes[1].queueLength());
        assertEquals(T, c.nodes[2].queueLength());
        assertEquals(T, c.nodes[3].queueLength());
        assertTrue(c.sim.counter(PeerNode.POLLS) >= 1 && c.sim.counter(PeerNode.POLLS) <= 3);
        c.checkConservation();
    }

    @Test
    void thresholdSenderKeepsTheTaskWhenLpPollsFindNoReceiver() {
        Peers c = cluster(5, SharingProtocol.SENDER_THRESHOLD);
        for (int i = 1; i < 5; i++) {
            load(c, i, T);
        }
        load(c, 0, T + 1);
        assertEquals(3, c.sim.counter(PeerNode.POLLS), "Lp = 3 distinct peers polled");
        assertEquals(3, c.sim.sent(SharingMessage.Poll.class).stream().map(SimHarness.Sent::to).distinct().count());
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(T + 1, c.nodes[0].queueLength());
    }

    @Test
    void randomSenderShipsTheNewTaskWithoutPolling() {
        Peers c = cluster(4, SharingProtocol.SENDER_RANDOM);
        load(c, 0, T);
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
        c.arrive(0, LONG);
        assertEquals(0, c.sim.counter(PeerNode.POLLS));
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(T, c.nodes[0].queueLength());
        assertEquals(1, c.nodes[1].queueLength() + c.nodes[2].queueLength() + c.nodes[3].queueLength(),
                "exactly one task moved to some peer");
    }

    @Test
    void randomTransferIsNotRepeatedBeyondMaxTransfers() {
        // n = 2: the only peer is already above T; the task goes there anyway (random) but cannot move again.
        Peers c = cluster(2, SharingProtocol.SENDER_RANDOM);
        load(c, 1, T); // q1 = 2
        load(c, 0, T);
        c.arrive(0, LONG); // ships to node 1, which is now at 3 > T, but the task has used its one transfer
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(T + 1, c.nodes[1].queueLength());
        assertEquals(T, c.nodes[0].queueLength());
    }

    @Test
    void shortestPicksTheShortestPolledQueueBelowT() {
        Peers c = cluster(4, SharingProtocol.SENDER_SHORTEST);
        load(c, 1, 1);
        load(c, 3, T);
        load(c, 0, T + 1); // polls 1, 2, 3 at once (Lp = 3 = n - 1)
        assertEquals(3, c.sim.counter(PeerNode.POLLS));
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(1, c.nodes[2].queueLength(), "the idle node, not node 1 with q = 1 < T");
        assertEquals(1, c.nodes[1].queueLength());
    }

    @Test
    void shortestKeepsTheTaskWhenTheShortestIsAtT() {
        Peers c = cluster(3, SharingProtocol.SENDER_SHORTEST);
        load(c, 1, T);
        load(c, 2, T);
        load(c, 0, T + 1);
        assertEquals(2, c.sim.counter(PeerNode.POLLS));
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
    }

    @Test
    void aPollOfACrashedNodeTimesOutAndTheNextPeerIsPolled() {
        SharingSettings s = Peers.ideal(T);
        Peers c = new Peers(2 + 1, SharingProtocol.SENDER_THRESHOLD, s, 0.001, 3);
        c.sim.deliver(NodeId.of(1), new NodeMessage.Fail());
        c.sim.deliver(NodeId.of(2), new NodeMessage.Fail());
        load(c, 0, T + 1);
        c.sim.runUntil(1.0);
        assertEquals(2, c.sim.counter(PeerNode.POLL_TIMEOUTS), "both crashed peers time out");
        assertEquals(2, c.sim.counter(PeerNode.POLLS));
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(T + 1, c.nodes[0].queueLength(), "the task stays; nothing is lost");
        assertEquals(0, c.sim.lost());
        c.checkConservation();
    }

    @Test
    void aTransferredTaskRunsAtItsNewNodeAndItsResponseTimeCountsFromItsFirstArrival() {
        Peers c = cluster(2, SharingProtocol.SENDER_THRESHOLD);
        c.arrive(0, 1.0);
        c.arrive(0, 1.0);
        c.arrive(0, 1.0); // q = 3 > 2: goes to idle node 1 and is served there in 1 s
        c.drain();
        assertEquals(3, c.sim.requests().completed());
        Observation.Completed atOne = c.sim.observed(Observation.Completed.class).stream().filter(x -> x.node() == 1)
                .findFirst().orElseThrow();
        assertEquals(1.0, atOne.time() - atOne.arrivalTime(), 1e-9);
        c.checkConservation();
    }
}

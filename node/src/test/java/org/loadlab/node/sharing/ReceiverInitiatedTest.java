package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;

/** Hand-driven cases of the receiver-initiated and symmetric protocols (Eager et al. 1986; the slides). */
class ReceiverInitiatedTest {
    private static final double LONG = 1000;
    private static final int T = 2;

    private static void load(Peers c, int i, int k, double demand) {
        for (int j = 0; j < k; j++) {
            c.arrive(i, demand);
        }
    }

    private static boolean hasRetryTimer(Peers c, int i) {
        return !c.sim.timersOf(NodeId.of(i), SharingMessage.Retry.class).isEmpty();
    }

    @Test
    void aReceiverPullsOnlyFromANodeAboveT() {
        Peers c = new Peers(4, SharingProtocol.RECEIVER, Peers.ideal(T), 0, 11);
        load(c, 1, T, LONG);      // at T: must not give
        load(c, 2, T + 2, LONG);  // above T: a sender
        load(c, 3, T, LONG);
        c.arrive(0, 1.0);         // node 0 serves one short task; its departure leaves q = 0 < T
        c.sim.runUntil(1.0);
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        List<SimHarness.Sent> transfers = c.sim.sent(SharingMessage.Transfer.class);
        assertEquals(1, transfers.size());
        assertEquals(NodeId.of(2), transfers.get(0).from(), "only the node above T gives a task");
        assertEquals(NodeId.of(0), transfers.get(0).to());
        assertEquals(T, c.nodes[1].queueLength());
        assertEquals(T + 1, c.nodes[2].queueLength());
        assertEquals(T, c.nodes[3].queueLength());
        assertEquals(1, c.nodes[0].queueLength());
        // The pulled task was the newest waiting one; it moved once.
        assertEquals(1, ((SharingMessage.Transfer) transfers.get(0).message()).task().transfers());
        c.checkConservation();
    }

    @Test
    void aReceiverThatFindsNoSenderRetriesAfterThePeriod() {
        SharingSettings s = Peers.ideal(T);
        Peers c = new Peers(5, SharingProtocol.RECEIVER, s, 0, 5);
        for (int i = 1; i < 5; i++) {
            load(c, i, T, LONG);
        }
        c.arrive(0, 0.5);
        c.sim.runUntil(0.5); // departure at 0.5: Lp = 3 polls, all answer "not a sender"
        assertEquals(3, c.sim.counter(PeerNode.POLLS));
        assertTrue(hasRetryTimer(c, 0));
        c.sim.runUntil(0.5 + s.retryPeriod() - 1e-6);
        assertEquals(3, c.sim.counter(PeerNode.POLLS), "nothing before the retry period");
        c.sim.runUntil(0.5 + s.retryPeriod());
        assertEquals(6, c.sim.counter(PeerNode.POLLS), "a new round after the retry period");
        // A node that is no longer a receiver when the period ends does not poll.
        load(c, 0, T, LONG);
        c.sim.runUntil(10);
        assertEquals(6, c.sim.counter(PeerNode.POLLS));
    }

    @Test
    void receiverProtocolNeverPushesFromASender() {
        Peers c = new Peers(3, SharingProtocol.RECEIVER, Peers.ideal(T), 0, 2);
        load(c, 0, T + 3, LONG);
        assertEquals(0, c.sim.counter(PeerNode.POLLS), "arrivals do not trigger the receiver protocol");
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
    }

    @Test
    void symmetricHasBothComponents() {
        Peers c = new Peers(2, SharingProtocol.SYMMETRIC, Peers.ideal(T), 0, 9);
        load(c, 0, T + 1, LONG);   // sender component: node 1 is idle
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(1, c.nodes[1].queueLength());
        // Receiver component: node 1 finishes a short task and pulls from a sender.
        Peers d = new Peers(2, SharingProtocol.SYMMETRIC, Peers.ideal(T), 0, 9);
        d.arrive(1, 0.25);
        load(d, 0, T, LONG);
        d.arrive(0, LONG); // q0 = 3: sender polls node 1 (q = 1 < T) and ships one task there
        assertEquals(1, d.sim.counter(PeerNode.TRANSFERS));
        load(d, 0, 1, LONG); // q0 = 3 again, node 1 at 2 = T: no receiver
        assertEquals(1, d.sim.counter(PeerNode.TRANSFERS));
        d.sim.runUntil(0.25); // node 1's short task departs: q1 = 1 < T, node 0 at 3 > T gives one
        assertEquals(2, d.sim.counter(PeerNode.TRANSFERS));
        assertEquals(T, d.nodes[0].queueLength());
        assertEquals(T, d.nodes[1].queueLength());
        assertFalse(hasRetryTimer(d, 1));
        d.checkConservation();
    }
}

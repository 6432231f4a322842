package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.protocol.NodeMessage;

/** The Senders / Receivers / OK lists and the state vector of the stable protocols (Shivaratri et al. 1992; the slides). */
class StableProtocolsTest {
    private static final double LONG = 1000;
    private static final int T = 2;

    private static StableAgent agent(Peers c, int i) {
        return (StableAgent) c.nodes[i].agent();
    }

    private static StableLists lists(Peers c, int i) {
        return agent(c, i).lists();
    }

    private static void load(Peers c, int i, int k, double demand) {
        for (int j = 0; j < k; j++) {
            c.arrive(i, demand);
        }
    }

    /** The nodes that node {@code from} polled, in order. */
    private static List<Integer> pollTargets(Peers c, int from) {
        return c.sim.sent(SharingMessage.Poll.class).stream().filter(s -> s.from().equals(NodeId.of(from)))
                .map(SimHarness.Sent::to).map(Address::index).toList();
    }

    private static SharingSettings withPollLimit(int lp) {
        SharingSettings d = Peers.ideal(T);
        return new SharingSettings(T, lp, 0, d.pollTimeout(), 0, 0, 0, 1, d.retryPeriod(), d.aboveAverage());
    }

    @Test
    void initiallyEveryOtherNodeIsAReceiver() {
        Peers c = new Peers(5, SharingProtocol.STABLE_SYMMETRIC, Peers.ideal(T), 0, 1);
        for (int i = 0; i < 5; i++) {
            assertEquals(4, lists(c, i).size(PeerState.RECEIVER));
            assertEquals(0, lists(c, i).size(PeerState.SENDER));
            assertEquals(0, lists(c, i).size(PeerState.OK));
            assertNull(lists(c, i).listOf(i));
        }
    }

    @Test
    void aSenderPollsTheReceiversHeadAndEveryoneFilesTheOtherByTheReply() {
        Peers c = new Peers(4, SharingProtocol.STABLE_SYMMETRIC, Peers.ideal(T), 0, 1);
        StableLists l0 = lists(c, 0);
        l0.moveToHead(3, PeerState.RECEIVER);
        l0.moveToHead(2, PeerState.RECEIVER);
        l0.moveToHead(1, PeerState.RECEIVER); // Receivers: 1, 2, 3
        load(c, 1, T, LONG);                  // OK
        load(c, 3, T, LONG);                  // OK; node 2 idle: a receiver
        load(c, 0, T + 1, LONG);
        assertEquals(List.of(1, 2), pollTargets(c, 0), "head first; node 1 answered OK, so the next head is polled");
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(1, c.nodes[2].queueLength());
        assertEquals(List.of(1), l0.members(PeerState.OK), "node 1 moved to the head of the OK list");
        assertEquals(List.of(2, 3), l0.members(PeerState.RECEIVER));
        assertEquals(0, lists(c, 1).head(PeerState.SENDER), "a polled node puts the sender at the head of its Senders list");
        assertEquals(0, lists(c, 2).head(PeerState.SENDER));
        assertEquals(PeerState.RECEIVER, lists(c, 3).listOf(0), "node 3 was not polled and learned nothing");
    }

    @Test
    void aReceiverPollsSendersHeadFirstThenOkAndReceiversTailFirst() {
        Peers c = new Peers(7, SharingProtocol.STABLE_SYMMETRIC, withPollLimit(6), 0, 1);
        StableLists l0 = lists(c, 0);
        l0.moveToHead(6, PeerState.RECEIVER);
        l0.moveToHead(5, PeerState.RECEIVER); // Receivers: 5, 6
        l0.moveToHead(4, PeerState.OK);
        l0.moveToHead(3, PeerState.OK);       // OK: 3, 4
        l0.moveToHead(2, PeerState.SENDER);
        l0.moveToHead(1, PeerState.SENDER);   // Senders: 1, 2
        c.arrive(0, 0.5);
        c.sim.runUntil(0.5); // departure: q = 0 < T; nobody is really a sender, so all six are polled
        assertEquals(List.of(1, 2, 4, 3, 6, 5), pollTargets(c, 0));
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
        for (int j = 1; j < 7; j++) {
            assertEquals(PeerState.RECEIVER, l0.listOf(j), "every reply said receiver");
            assertEquals(0, lists(c, j).head(PeerState.RECEIVER), "a polled non-sender puts the poller at its Receivers head");
        }
    }

    @Test
    void aReceiverStopsAtTheFirstSenderWhichSendsATask() {
        Peers c = new Peers(4, SharingProtocol.STABLE_SYMMETRIC, Peers.ideal(T), 0, 1);
        load(c, 2, T, LONG);
        // Make node 3 a sender without letting it push: it believes nobody is a receiver.
        for (int j = 0; j < 3; j++) {
            lists(c, 3).moveToHead(j, PeerState.OK);
        }
        load(c, 3, T + 2, LONG);
        assertEquals(0, c.sim.counter(PeerNode.POLLS));
        StableLists l0 = lists(c, 0);
        l0.moveToHead(1, PeerState.SENDER);
        l0.moveToHead(3, PeerState.SENDER);
        l0.moveToHead(2, PeerState.SENDER); // Senders: 2, 3, 1
        c.arrive(0, 0.5);
        c.sim.runUntil(0.5);
        assertEquals(List.of(2, 3), pollTargets(c, 0), "node 2 is only OK; node 3 gives a task; node 1 is not polled");
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(1, c.nodes[0].queueLength());
        assertEquals(T + 1, c.nodes[3].queueLength());
        assertEquals(PeerState.SENDER, l0.listOf(3), "after the transfer node 3 (q = 3) still says sender");
        assertEquals(PeerState.OK, l0.listOf(2));
    }

    @Test
    void aTimedOutPollMovesTheCrashedPeerToTheOkHead() {
        Peers c = new Peers(3, SharingProtocol.STABLE_SYMMETRIC, Peers.ideal(T), 0.001, 1);
        StableLists l0 = lists(c, 0);
        l0.moveToHead(2, PeerState.RECEIVER);
        l0.moveToHead(1, PeerState.RECEIVER);
        c.sim.deliver(NodeId.of(1), new NodeMessage.Fail());
        load(c, 0, T + 1, LONG);
        c.sim.runUntil(1);
        assertEquals(1, c.sim.counter(PeerNode.POLL_TIMEOUTS));
        assertEquals(PeerState.OK, l0.listOf(1));
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS), "the next receiver, node 2, got the task");
        assertEquals(1, c.nodes[2].queueLength());
        c.checkConservation();
    }

    @Test
    void stableSenderInformsOnlyMisinformedNodesWhenItBecomesAReceiver() {
        Peers c = new Peers(3, SharingProtocol.STABLE_SENDER, Peers.ideal(T), 0, 1);
        StableLists l0 = lists(c, 0);
        l0.moveToHead(2, PeerState.RECEIVER);
        l0.moveToHead(1, PeerState.RECEIVER);
        for (int j = 1; j < 3; j++) {
            assertEquals(PeerState.RECEIVER, agent(c, 0).believedAt(j), "everybody starts as a receiver everywhere");
        }
        load(c, 0, T + 1, 0.5); // third arrival: polls node 1 (a receiver) and ships the task there
        assertEquals(List.of(1), pollTargets(c, 0));
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(PeerState.SENDER, lists(c, 1).listOf(0), "node 1 filed node 0 as a sender");
        assertEquals(PeerState.SENDER, agent(c, 0).believedAt(1));
        assertEquals(PeerState.RECEIVER, agent(c, 1).believedAt(0), "node 1 told node 0 it is a receiver");
        c.sim.runUntil(0.5); // node 0's first task departs: q = 1 < T, a receiver again
        List<SimHarness.Sent> updates = c.sim.sent(SharingMessage.StateUpdate.class);
        assertEquals(1, updates.size(), "only node 1 was misinformed");
        assertEquals(NodeId.of(1), updates.get(0).to());
        assertEquals(PeerState.RECEIVER, lists(c, 1).listOf(0));
        assertEquals(0, lists(c, 1).head(PeerState.RECEIVER));
        assertEquals(1, c.sim.counter(PeerNode.STATE_UPDATES));
        c.sim.runUntil(0.5 + 0.5); // another departure: nobody is misinformed any more
        assertEquals(1, c.sim.sent(SharingMessage.StateUpdate.class).size());
        assertEquals(0, c.sim.sent(SharingMessage.Poll.class).stream()
                .filter(s -> ((SharingMessage.Poll) s.message()).kind() == SharingMessage.PollKind.RECEIVER).count(),
                "stable-sender never polls as a receiver");
    }
}

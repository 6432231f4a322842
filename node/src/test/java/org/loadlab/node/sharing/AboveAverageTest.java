package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Hand-driven cases of Krueger and Finkel's above-average protocol (1984; the slides). */
class AboveAverageTest {
    private static final double LONG = 1000;

    /**
     * Range 1, step 0.5, awaiting-task timeout 0.1 s, no latency.
     *
     * @param initialAverage every node's first estimate A
     * @param tooHigh TooHigh timeout, seconds
     * @param tooLow TooLow timeout, seconds
     * @param transferDelay seconds a transferred task is in transit
     */
    private static Peers cluster(int n, double initialAverage, double tooHigh, double tooLow, double transferDelay) {
        SharingSettings d = SharingSettings.defaults();
        SharingSettings s = new SharingSettings(2, 3, 0, d.pollTimeout(), transferDelay, 0, 0, 1, d.retryPeriod(),
                new SharingSettings.AboveAverage(1.0, initialAverage, 0.5, tooHigh, tooLow, 0.1));
        return new Peers(n, SharingProtocol.ABOVE_AVERAGE, s, 0, 1);
    }

    /** {@link #cluster(int, double, double, double, double)} with master seed {@code seed}, zero delays and long timeouts. */
    private static Peers seeded(int n, long seed) {
        SharingSettings d = SharingSettings.defaults();
        SharingSettings s = new SharingSettings(2, 3, 0, d.pollTimeout(), 0, 0, 0, 1, d.retryPeriod(),
                new SharingSettings.AboveAverage(1.0, 1.5, 0.5, 10, 10, 0.1));
        return new Peers(n, SharingProtocol.ABOVE_AVERAGE, s, 0, seed);
    }

    private static AboveAverageAgent agent(Peers c, int i) {
        return (AboveAverageAgent) c.nodes[i].agent();
    }

    private static void load(Peers c, int i, int k, double demand) {
        for (int j = 0; j < k; j++) {
            c.arrive(i, demand);
        }
    }

    /** How many messages of {@code type} the nodes have sent so far. */
    private static int sent(Peers c, Class<? extends SharingMessage> type) {
        return c.sim.sent(type).size();
    }

    @Test
    void idleNodesBelowTheRangeAnnounceThemselvesOnce() {
        Peers c = cluster(3, 1.5, 10, 10, 0); // range [0.5, 2.5]: an idle node is a receiver
        assertEquals(6, sent(c, SharingMessage.TooLow.class), "each node tells both peers");
        c.arrive(0, 0.25);
        c.sim.runUntil(0.25); // node 0 leaves the receiver state and comes back: one more TooLow round
        assertEquals(8, sent(c, SharingMessage.TooLow.class));
        c.sim.runUntil(5);
        assertEquals(8, sent(c, SharingMessage.TooLow.class), "staying a receiver broadcasts nothing");
    }

    @Test
    void aSenderTransfersOneTaskPerAcceptAndOnlyWhileAboveTheRange() {
        Peers c = cluster(3, 1.5, 10, 10, 0);
        assertEquals(6, sent(c, SharingMessage.TooLow.class), "the idle receivers' first round");
        load(c, 0, 2, LONG);
        assertEquals(0, sent(c, SharingMessage.TooHigh.class));
        load(c, 0, 1, LONG); // load 3 > 2.5: TooHigh to both peers; both accept; one task moves
        assertEquals(2, sent(c, SharingMessage.TooHigh.class));
        assertEquals(2, sent(c, SharingMessage.Accept.class));
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS), "after one transfer node 0 is back in range");
        assertEquals(2, c.nodes[0].queueLength());
        assertEquals(1, c.nodes[1].queueLength() + c.nodes[2].queueLength());
        assertEquals(1, agent(c, 1).promised() + agent(c, 2).promised(), "the unused promise is still open");
        assertEquals(2, agent(c, 1).load() + agent(c, 2).load(), "a promise counts as load");
        c.sim.runUntil(0.1);
        assertEquals(0, agent(c, 1).promised() + agent(c, 2).promised(), "AwaitingTask timeout freed it");
        assertEquals(0, c.sim.counter(PeerNode.AVERAGE_CHANGES));
        c.checkConservation();
    }

    @Test
    void theFirstAcceptComesFromAnyReceiverNotTheLowestNumbered() {
        // Every receiver answers a TooHigh over the same latency, so the first Accept is from the
        // receiver the broadcast reached first. In index order that was always node 1; in a random
        // order each of the 9 idle receivers gets the task in about 1 of 9 runs.
        int n = 10;
        int runs = 180;
        int[] gotIt = new int[n];
        for (long seed = 1; seed <= runs; seed++) {
            Peers c = seeded(n, seed);
            load(c, 0, 3, LONG); // load 3 > A + r = 2.5: TooHigh to all nine; the first Accept gets one task
            assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
            for (int j = 1; j < n; j++) {
                gotIt[j] += c.nodes[j].queueLength();
            }
        }
        for (int j = 1; j < n; j++) {
            // Binomial(180, 1/9): mean 20, sd 4.2; these seeds give 14..25 (index order gave node 1 all 180).
            assertTrue(gotIt[j] >= 8 && gotIt[j] <= 40, "node " + j + " got the task in " + gotIt[j] + " of " + runs
                    + " runs: " + java.util.Arrays.toString(gotIt));
        }
    }

    @Test
    void aTaskForAnExpiredAcceptIsSentBackNeverKept() {
        // Transfers take 0.2 s, promises last 0.1 s: every promised task arrives too late.
        Peers c = cluster(2, 1.5, 10, 10, 0.2);
        load(c, 0, 3, LONG);
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(1, agent(c, 1).promised());
        c.sim.runUntil(0.1);
        assertEquals(0, agent(c, 1).promised());
        c.sim.runUntil(0.2);
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS_RETURNED));
        assertEquals(0, c.nodes[1].queueLength(), "node 1 never holds more than it promised");
        c.sim.runUntil(5); // back at node 0 the load is 3 again: the other waiting task is offered, and comes back too
        assertEquals(0, c.nodes[1].queueLength());
        assertEquals(3, c.nodes[0].queueLength(), "the sender got its tasks back");
        assertEquals(2, c.sim.counter(PeerNode.TRANSFERS), "each waiting task moved once; then none may move");
        assertEquals(2, c.sim.counter(PeerNode.TRANSFERS_RETURNED));
        assertTrue(c.sim.sent(SharingMessage.TaskReturn.class).stream()
                .allMatch(r -> ((SharingMessage.TaskReturn) r.message()).task().transfers() == 1));
        c.checkConservation();
    }

    @Test
    void tooHighWithoutAcceptRaisesEveryEstimateAndThenTheNewReceiversTakeATask() {
        Peers c = cluster(3, 1.0, 0.05, 10, 0); // range [0, 2]: idle nodes are not receivers
        assertEquals(0, c.sim.sent().size());
        load(c, 0, 3, LONG);
        assertEquals(2, c.sim.counter(PeerNode.POLLS));
        assertEquals(0, sent(c, SharingMessage.Accept.class));
        c.sim.runUntil(0.05);
        assertEquals(1, c.sim.counter(PeerNode.AVERAGE_CHANGES));
        for (int i = 0; i < 3; i++) {
            assertEquals(1.5, agent(c, i).average(), 1e-12);
        }
        // With A = 1.5 the idle nodes are receivers: their TooLow meets the sender's TooHigh.
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(2, c.nodes[0].queueLength());
        c.checkConservation();
    }

    @Test
    void tooLowWithoutTooHighLowersEveryEstimate() {
        Peers c = cluster(3, 2.0, 10, 0.5, 0); // range [1, 3]: idle nodes are receivers, nobody a sender
        assertEquals(6, sent(c, SharingMessage.TooLow.class));
        c.sim.runUntil(0.5);
        assertEquals(3, c.sim.counter(PeerNode.AVERAGE_CHANGES), "each node's round expired");
        for (int i = 0; i < 3; i++) {
            assertEquals(1.5, agent(c, i).average(), 1e-12, "lowered once, not three times");
        }
        c.sim.runUntil(5);
        assertEquals(6, sent(c, SharingMessage.TooLow.class), "still receivers: no new round");
    }

    @Test
    void aSenderAnswersTooLowWithTooHighAndTheReceiverAccepts() {
        Peers c = cluster(3, 1.5, 10, 10, 0);
        c.arrive(1, 0.5);
        c.arrive(2, LONG);
        load(c, 0, 3, LONG); // a sender; nodes 1 and 2 (load 1) are in range: no Accept
        assertEquals(0, c.sim.counter(PeerNode.TRANSFERS));
        c.sim.runUntil(0.5); // node 1 becomes a receiver: TooLow; node 0 answers TooHigh; node 1 accepts
        assertEquals(1, c.sim.counter(PeerNode.TRANSFERS));
        assertEquals(1, c.nodes[1].queueLength());
        assertEquals(2, c.nodes[0].queueLength());
        assertEquals(0, agent(c, 1).promised());
        c.checkConservation();
    }
}

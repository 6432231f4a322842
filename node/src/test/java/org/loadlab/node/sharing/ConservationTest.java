package org.loadlab.node.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.RequestLedger;
import org.loadlab.node.protocol.NodeMessage;

/**
 * Every protocol under random load with latency, transfer delay, costs and crashes: no task
 * is lost without being counted or duplicated, at any time, and no task moves more than
 * max-transfers times.
 */
class ConservationTest {
    @Test
    void everyProtocolConservesTasksUnderLatencyDelayCostAndCrashes() {
        for (SharingProtocol protocol : SharingProtocol.values()) {
            for (int maxTransfers = 1; maxTransfers <= 2; maxTransfers++) {
                SharingSettings d = SharingSettings.defaults();
                SharingSettings s = new SharingSettings(2, 3, 0.002, 0.02, 0.03, 0.05, 0.01, maxTransfers, 0.3,
                        new SharingSettings.AboveAverage(1.0, 1.0, 0.5, 0.02, 0.2, 0.04));
                Peers c = new Peers(8, protocol, s, 0.001, 17 + maxTransfers);
                SplittableRandom rng = new SplittableRandom(protocol.ordinal() * 7L + maxTransfers);
                double t = 0;
                for (int k = 0; k < 4000; k++) {
                    t += -Math.log(1 - rng.nextDouble()) / (8 * 0.9);
                    c.sim.runUntil(t);
                    c.arrive(rng.nextInt(8), -Math.log(1 - rng.nextDouble()));
                    if (k % 500 == 250) {
                        c.sim.deliver(NodeId.of(rng.nextInt(8)), new NodeMessage.Fail());
                    }
                    if (k % 500 == 400) {
                        for (int i = 0; i < 8; i++) {
                            c.sim.deliver(NodeId.of(i), new NodeMessage.Recover());
                        }
                    }
                    if (k % 97 == 0) {
                        c.checkConservation();
                    }
                }
                for (int i = 0; i < 8; i++) {
                    c.sim.deliver(NodeId.of(i), new NodeMessage.Recover());
                }
                c.drain();
                c.checkConservation();
                RequestLedger r = c.sim.requests();
                assertEquals(4000, r.arrived());
                assertEquals(r.arrived(), r.completed() + r.lost(), protocol + ": every task resolved once");
                assertTrue(r.lost() > 0, "the crashes lost something");
                int max = maxTransfers;
                assertTrue(c.sim.sent(SharingMessage.Transfer.class).stream()
                                .allMatch(x -> ((SharingMessage.Transfer) x.message()).task().transfers() <= max),
                        protocol + ": a task moved more than " + max + " times");
                if (protocol != SharingProtocol.NONE) {
                    assertTrue(c.sim.counter(PeerNode.TRANSFERS) > 0, protocol + " transferred nothing");
                }
            }
        }
    }

    @Test
    void aViolationIsReportedWithEveryCount() {
        Peers c = new Peers(2, SharingProtocol.NONE, Peers.ideal(2), 0, 1);
        c.arrive(0, 5);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TaskConservation.checkPeers("x / none / seed 1", 2, 0, 0, 0, c.nodes));
        assertTrue(e.getMessage().contains("arrived 2") && e.getMessage().contains("queued at nodes 1"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> TaskConservation.checkBalanced("x", 5, 3, 0, 0, 3));
        TaskConservation.checkBalanced("x", 5, 3, 0, 0, 2);
    }
}

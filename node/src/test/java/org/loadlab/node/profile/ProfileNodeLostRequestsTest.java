package org.loadlab.node.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.SimHarness;
import org.loadlab.node.backend.FeedbackSettings;
import org.loadlab.node.backend.NodeSettings;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * A profile node (seed 003's model) tells its {@link org.loadlab.node.backend.LostRequests}
 * listener of each request it loses when it fails or while it is failed, as the queue node
 * does; a crash of its member tells nothing.
 */
class ProfileNodeLostRequestsTest {
    private static final NodeId SELF = NodeId.of(0);
    private static final BalancerId B0 = new BalancerId(0);

    private final List<String> heard = new ArrayList<>();
    private SimHarness sim;

    private void setUp() {
        ProfileNode node = new ProfileNode(SELF, NodeProfile.SLOW_LEGACY,
                new NodeSettings(1, 0, 0.1, 0, 0, List.of(), FeedbackSettings.OFF));
        node.lostRequests((r, now) -> heard.add(r.id() + "@" + now));
        sim = new SimHarness(7, 1, 1, 0).install(SELF, node);
        sim.start();
    }

    private void at(double t, NodeMessage message) {
        sim.sendAt(t, SELF, message);
        sim.runUntil(t);
    }

    private void request(double t, long id) {
        at(t, new NodeMessage.Request(id, 1.0, t, B0));
    }

    @Test
    void aFailLosesEveryActiveRequestInIdOrderAndThoseArrivingWhileFailed() {
        setUp();
        request(0.0, 9);
        request(0.001, 2);
        request(0.002, 5);
        at(0.01, new NodeMessage.Fail()); // slow-legacy takes 80 ms and more: all three are active
        assertEquals(List.of("2@0.01", "5@0.01", "9@0.01"), heard, "in request-id order, at the failure");
        request(0.5, 11);
        assertEquals("11@0.5", heard.get(3));
        assertEquals(sim.lost(), heard.size(), "one heard per request counted lost");
        at(1.0, new NodeMessage.Recover());
        request(1.0, 12);
        sim.runUntil(5);
        assertEquals(1, sim.delivered(BalancerMessage.Response.class).size(), "served after the recovery");
        assertEquals(4, heard.size());
    }

    @Test
    void aChaosCrashLosesLikeAFailButAMembersCrashTellsNothing() {
        setUp();
        request(0.0, 1);
        at(0.01, new NodeMessage.InjectFault("crash", 1.0));
        assertEquals(List.of("1@0.01"), heard, "a chaos crash fails the node: counted and told");
        at(0.5, new NodeMessage.ClearFaults());
        request(0.6, 2);
        at(0.61, new NodeMessage.Crash());
        request(0.7, 3);
        assertEquals(List.of("1@0.01"), heard, "a member's crash counts nothing: membership removal ends those");
    }
}

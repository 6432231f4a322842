package org.loadlab.experiment.ope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The target policies' probabilities from a logged pool, computed by hand. */
class TargetPoliciesTest {
    private static final List<DecisionLogFile.PoolNode> POOL = List.of(new DecisionLogFile.PoolNode(0, 2, 1, 0.1),
            new DecisionLogFile.PoolNode(3, 0, 4, 0.5), new DecisionLogFile.PoolNode(5, 0, 1, 0.2),
            new DecisionLogFile.PoolNode(7, 1, 0, 0.3));

    @Test
    void p2cWinsEveryPairAgainstLongerQueuesAndHalfTheTies() {
        // Pairs: C(4, 2) = 6. Node 7 (queue 0) wins all its 3 pairs; node 0 and node 5 (queue 1) each beat node 3,
        // tie with each other (1/2) and lose to node 7: 1.5 / 6; node 3 (queue 4) wins none.
        assertEquals(3 / 6.0, TargetPolicies.probability("p2c", POOL, 7), 1e-12);
        assertEquals(1.5 / 6, TargetPolicies.probability("p2c", POOL, 0), 1e-12);
        assertEquals(1.5 / 6, TargetPolicies.probability("p2c", POOL, 5), 1e-12);
        assertEquals(0, TargetPolicies.probability("p2c", POOL, 3), 1e-12);
        double sum = 0;
        for (DecisionLogFile.PoolNode p : POOL) {
            sum += TargetPolicies.probability("p2c", POOL, p.node());
        }
        assertEquals(1, sum, 1e-12);
    }

    @Test
    void uniformLeastConnectionsAndOutsiders() {
        assertEquals(0.25, TargetPolicies.probability("random", POOL, 3), 0);
        assertEquals(0.25, TargetPolicies.probability("round-robin", POOL, 3), 0);
        assertEquals(0.5, TargetPolicies.probability("least-connections", POOL, 3), 0, "nodes 3 and 5 have none in flight");
        assertEquals(0, TargetPolicies.probability("least-connections", POOL, 0), 0);
        assertEquals(0, TargetPolicies.probability("random", POOL, 9), 0, "a node outside the pool");
        assertThrows(IllegalArgumentException.class, () -> TargetPolicies.probability("lin-ts", POOL, 3));
    }
}

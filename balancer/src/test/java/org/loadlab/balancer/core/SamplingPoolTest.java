package org.loadlab.balancer.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The sampling pool's membership answers, with every node allowed (the fast path) and with a subset. */
class SamplingPoolTest {
    @Test
    void everyNodeAllowedAnswersFromTheBounds() {
        SamplingPool pool = new SamplingPool(new int[] {2, 0, 1}, 3);
        for (int node = 0; node < 3; node++) {
            assertTrue(pool.allowed(node), "node " + node);
        }
        assertFalse(pool.allowed(-1));
        assertFalse(pool.allowed(3));
    }

    @Test
    void aSubsetAllowsOnlyItsNodes() {
        SamplingPool pool = new SamplingPool(new int[] {4, 1}, 6);
        for (int node = -1; node <= 6; node++) {
            assertEquals(node == 1 || node == 4, pool.allowed(node), "node " + node);
        }
    }

    @Test
    void containsFollowsSetWhileSamplesShuffleTheBuffer() {
        SamplingPool pool = new SamplingPool(new int[] {0, 1, 2, 3, 4}, 5);
        boolean[] in = {true, true, true, true, true};
        SplittableRandom rng = new SplittableRandom(3);
        for (int step = 0; step < 2_000; step++) {
            int node = rng.nextInt(5);
            boolean put = rng.nextBoolean();
            pool.set(node, put);
            in[node] = put;
            int size = 0;
            for (boolean b : in) {
                size += b ? 1 : 0;
            }
            assertEquals(size, pool.size());
            if (size >= 2) {
                for (int drawn : pool.sample(2, rng)) {
                    assertTrue(in[drawn], "drew node " + drawn + " that is out of the pool");
                }
            }
            for (int j = 0; j < 5; j++) {
                assertEquals(in[j], pool.contains(j), "step " + step + ", node " + j);
            }
        }
    }
}

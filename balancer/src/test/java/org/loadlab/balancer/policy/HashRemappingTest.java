package org.loadlab.balancer.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Ring hash and maglev against the theory of consistent hashing (issue 14): when one of n
 * nodes leaves, the share of keys that moves is that node's share (1/n on average); on a
 * ring nothing else moves, in maglev a little more does, in exchange for an even spread.
 */
class HashRemappingTest {
    private static final int N = 20;
    private static final int KEYS = 100_000;

    private static int[] nodesWithout(int gone) {
        int[] out = new int[gone < 0 ? N : N - 1];
        int k = 0;
        for (int j = 0; j < N; j++) {
            if (j != gone) {
                out[k++] = j;
            }
        }
        return out;
    }

    @Test
    void onARingOnlyTheLeavingNodesKeysMove() {
        HashRing all = new HashRing(nodesWithout(-1), 1024, N);
        assertEquals(52 * N, all.size(), "ceil(1024 / 20) = 52 points per node");
        double movedShareSum = 0;
        for (int gone = 0; gone < N; gone++) {
            HashRing without = new HashRing(nodesWithout(gone), 1024, N);
            int onGone = 0;
            int moved = 0;
            for (long key = 0; key < KEYS; key++) {
                long h = KeyHash.ofKey(key);
                int before = all.node(h);
                int after = without.node(h);
                if (before == gone) {
                    onGone++;
                }
                if (before != after) {
                    moved++;
                    assertEquals(gone, before, "key " + key + " moved although its node stayed");
                }
            }
            assertEquals(onGone, moved, "exactly the leaving node's keys move");
            movedShareSum += (double) moved / KEYS;
        }
        assertEquals(1.0 / N, movedShareSum / N, 1e-12, "on average 1/n moves (each key is on exactly one node)");
    }

    @Test
    void aRingsSpreadTightensWithMorePoints() {
        double small = spread(new HashRing(nodesWithout(-1), 1024, N));
        double large = spread(new HashRing(nodesWithout(-1), 65536, N));
        // about 1/sqrt(points per node): 52 points -> ~14 %, 3277 points -> ~2 % relative sd
        assertTrue(small > 0.05 && small < 0.3, "relative sd of node shares, 52 points each: " + small);
        assertTrue(large < 0.05, "relative sd of node shares, 3277 points each: " + large);
    }

    private static double spread(HashRing ring) {
        int[] count = new int[N];
        for (long key = 0; key < KEYS; key++) {
            count[ring.node(KeyHash.ofKey(key))]++;
        }
        double mean = (double) KEYS / N;
        double ss = 0;
        for (int c : count) {
            ss += (c - mean) * (c - mean);
        }
        return Math.sqrt(ss / N) / mean;
    }

    @Test
    void maglevSpreadsEvenlyAndMovesLittleMoreThanTheLeavingNodesShare() {
        MaglevTable all = new MaglevTable(nodesWithout(-1), 65537);
        int[] slots = new int[N];
        for (long slot = 0; slot < 65537; slot++) {
            slots[all.node(slot)]++;
        }
        for (int j = 0; j < N; j++) {
            assertTrue(slots[j] == 65537 / N || slots[j] == 65537 / N + 1, "node " + j + " owns " + slots[j] + " slots");
        }
        double excessSum = 0;
        double movedSum = 0;
        for (int gone = 0; gone < N; gone++) {
            MaglevTable without = new MaglevTable(nodesWithout(gone), 65537);
            int onGone = 0;
            int moved = 0;
            for (long key = 0; key < KEYS; key++) {
                long h = KeyHash.ofKey(key);
                int before = all.node(h);
                if (before == gone) {
                    onGone++;
                }
                if (before != without.node(h)) {
                    moved++;
                }
            }
            assertTrue(moved >= onGone, "every key of the leaving node moves");
            movedSum += (double) moved / KEYS;
            excessSum += (double) (moved - onGone) / KEYS;
        }
        double meanMoved = movedSum / N;
        // Eisenbud et al. (NSDI 2016, fig. 11): with M >> n a removal disturbs only slightly more than 1/n.
        assertTrue(meanMoved >= 1.0 / N - 0.002 && meanMoved < 1.3 / N, "mean share moved " + meanMoved);
        assertTrue(excessSum / N < 0.3 / N, "keys of staying nodes that moved: " + excessSum / N);
    }

    @Test
    void tablesAndRingsDependOnlyOnTheNodeSet() {
        int[] a = {3, 1, 2, 0};
        int[] b = {0, 1, 2, 3};
        for (long key = 0; key < 1000; key++) {
            long h = KeyHash.ofKey(key);
            assertEquals(new HashRing(a, 64, 4).node(h), new HashRing(b, 64, 4).node(h));
            assertEquals(new MaglevTable(a, 251).node(h), new MaglevTable(b, 251).node(h));
        }
    }
}

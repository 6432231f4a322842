package org.loadlab.balancer.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The seed 001 caching rule and its invariants, on the shared {@link StickyCache}. */
class StickyCacheTest {

    @Test
    void cachesBelowTWithCreditTMinusLoadAndSpendsOneCreditPerBlindRequest() {
        StickyCache c = new StickyCache(3);
        assertEquals(StickyCache.NONE, c.takeBlind());
        assertTrue(c.offer(7, 1));
        assertEquals(7, c.node());
        assertEquals(2, c.credit());
        assertEquals(1, c.loadAtCaching());
        assertEquals(7, c.takeBlind());
        assertEquals(7, c.takeBlind());
        assertEquals(StickyCache.NONE, c.takeBlind(), "credit T - L = 2 is spent");
        assertEquals(0, c.credit());
        assertTrue(c.offer(4, 0));
        assertEquals(3, c.credit());
        assertEquals(2, c.caches());
        assertEquals(5, c.creditGranted());
    }

    @Test
    void aServerAtOrAboveTIsNeverCached() {
        StickyCache c = new StickyCache(3);
        assertFalse(c.offer(1, 3));
        assertFalse(c.offer(1, 10));
        assertEquals(StickyCache.NONE, c.node());
        assertTrue(c.offer(2, 2));
        assertFalse(c.offer(5, 3), "a load at T must not replace the cache");
        assertEquals(2, c.node());
        assertEquals(1, c.credit());
    }

    @Test
    void invalidateAndForget() {
        StickyCache c = new StickyCache(4);
        c.offer(3, 0);
        assertFalse(c.forget(2));
        assertEquals(3, c.node());
        assertTrue(c.forget(3));
        assertEquals(StickyCache.NONE, c.takeBlind());
        c.offer(3, 0);
        c.invalidate();
        assertEquals(StickyCache.NONE, c.node());
        assertEquals(0, c.credit());
        assertEquals(StickyCache.NONE, c.takeBlind());
    }

    @Test
    void randomSequencesKeepCreditWithinTMinusLoadAtCaching() {
        for (int t = 1; t <= 8; t++) {
            StickyCache c = new StickyCache(t);
            int threshold = t;
            int[] events = new int[1];
            c.listener((node, load, credit) -> {
                events[0]++;
                assertTrue(load < threshold, "cached at load " + load + " >= T " + threshold);
                assertEquals(threshold - load, credit);
            });
            SplittableRandom rng = new SplittableRandom(t);
            for (int i = 0; i < 20_000; i++) {
                switch (rng.nextInt(5)) {
                    case 0, 1 -> {
                        int load = rng.nextInt(2 * threshold + 1);
                        boolean cached = c.offer(rng.nextInt(10), load);
                        assertEquals(load < threshold, cached);
                    }
                    case 2 -> c.invalidate();
                    default -> c.takeBlind();
                }
                assertTrue(c.credit() >= 0);
                assertTrue(c.credit() <= threshold - c.loadAtCaching(),
                        "credit " + c.credit() + " > T - load at caching " + (threshold - c.loadAtCaching()));
                if (c.node() != StickyCache.NONE) {
                    assertTrue(c.loadAtCaching() < threshold);
                }
            }
            assertEquals(events[0], c.caches());
        }
    }

    @Test
    void validation() {
        assertThrows(IllegalArgumentException.class, () -> new StickyCache(0));
        StickyCache c = new StickyCache(2);
        assertThrows(IllegalArgumentException.class, () -> c.offer(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> c.offer(1, -1));
    }
}

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
    void creditRuleTMinusQMinusOneGrantsOneLessAndNothingAtTMinusOne() {
        StickyCache c = new StickyCache(3, StickyCache.Credit.HEADROOM_MINUS_ONE);
        assertEquals(StickyCache.Credit.HEADROOM_MINUS_ONE, c.rule());
        assertTrue(c.offer(7, 0));
        assertEquals(2, c.credit(), "T - L - 1 = 3 - 0 - 1");
        assertEquals(7, c.takeBlind());
        assertEquals(7, c.takeBlind());
        assertEquals(StickyCache.NONE, c.takeBlind(), "with the probed request a cycle sends T - L = 3 requests");
        assertTrue(c.offer(5, 2), "L = T - 1 < T: cached ...");
        assertEquals(0, c.credit(), "... with no credit");
        assertEquals(StickyCache.NONE, c.takeBlind(), "so the next request probes again");
        assertFalse(c.offer(5, 3));
        assertEquals(2, c.creditGranted());
        assertEquals(StickyCache.Credit.HEADROOM, new StickyCache(3).rule(), "the seed's T - q stays the default");
    }

    @Test
    void creditRulesByName() {
        assertEquals(StickyCache.Credit.HEADROOM, StickyCache.Credit.of("T-q"));
        assertEquals(StickyCache.Credit.HEADROOM_MINUS_ONE, StickyCache.Credit.of("T-q-1"));
        assertEquals(java.util.List.of("T-q", "T-q-1"), StickyCache.Credit.keys());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StickyCache.Credit.of("T"));
        assertTrue(e.getMessage().contains("'T'") && e.getMessage().contains("T-q, T-q-1"), e.getMessage());
        assertEquals(4, StickyCache.Credit.HEADROOM.credit(5, 1));
        assertEquals(3, StickyCache.Credit.HEADROOM_MINUS_ONE.credit(5, 1));
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

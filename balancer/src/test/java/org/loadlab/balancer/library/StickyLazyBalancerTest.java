package org.loadlab.balancer.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The in-process Sticky-Lazy and strict Po2C balancers, one thread (seed 001's library API). */
class StickyLazyBalancerTest {
    static List<String> servers(int n) {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add("s" + i);
        }
        return s;
    }

    @Test
    void idleServerIsCachedWithCreditTThenServedBlindly() {
        StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(servers(4), 3, new SplittableRandom(1));
        String first = lb.next();
        assertEquals(first, lb.cachedServer(), "load 0 < T: cached");
        assertEquals(3, lb.credit(), "credit T - 0");
        for (int i = 0; i < 3; i++) {
            assertEquals(first, lb.next(), "blind route " + i);
        }
        assertEquals(0, lb.credit());
        BalancerStats s = lb.stats();
        assertEquals(4, s.requests());
        assertEquals(1, s.probes());
        assertEquals(3, s.blindRoutes());
        assertEquals(1, s.firstProbeHits());
        assertEquals(4, lb.outstanding(first));
        assertEquals(4, s.outstanding());
        lb.next();
        assertEquals(2, lb.stats().firstProbes(), "credit spent: the fifth request probes");
    }

    @Test
    void creditNeverExceedsTMinusLoadAtCachingAndServersAtOrAboveTAreNeverCached() {
        for (int t : new int[] {1, 2, 3, 4, 8}) {
            StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(servers(6), t, new SplittableRandom(t));
            int threshold = t;
            int[] events = new int[1];
            int[] lastLoad = new int[1];
            lb.cacheListener((id, load, credit) -> {
                events[0]++;
                lastLoad[0] = load;
                assertTrue(load < threshold, "cached at load " + load + " >= T " + threshold);
                assertEquals(threshold - load, credit);
            });
            SplittableRandom rng = new SplittableRandom(10 + t);
            List<String> held = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                if (held.isEmpty() || (held.size() < 3 * threshold && rng.nextBoolean())) {
                    held.add(lb.next());
                } else {
                    lb.release(held.remove(rng.nextInt(held.size())));
                }
                if (lb.cachedServer() != null) {
                    assertTrue(lb.credit() <= threshold - lastLoad[0],
                            "credit " + lb.credit() + " > T - load at caching " + (threshold - lastLoad[0]));
                } else {
                    assertEquals(0, lb.credit());
                }
            }
            assertTrue(events[0] > 100, "caching happened: " + events[0]);
        }
    }

    @Test
    void idleServersGiveOneProbePerTPlusOneRequestsBelowTheSeedsOneOverT() {
        for (int t : new int[] {1, 3, 8}) {
            StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(servers(10), t, new SplittableRandom(t));
            for (int i = 0; i < 1000 * (t + 1); i++) {
                lb.release(lb.next()); // every request completes before the next: every probe finds L = 0
            }
            BalancerStats s = lb.stats();
            assertEquals(1.0 / (t + 1), s.probesPerRequest(), 1e-12,
                    "the probe-routed request plus T blind ones per probe");
            assertEquals(1.0, s.firstProbeHitRate(), 1e-12);
        }
    }

    @Test
    void overloadedServersAreNeverCached() {
        StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(servers(3), 2, new SplittableRandom(3));
        lb.cacheListener((id, load, credit) -> assertTrue(load < 2));
        for (int i = 0; i < 200; i++) {
            lb.next(); // nothing is released: every server climbs far above T
        }
        assertNull(lb.cachedServer(), "all servers at or above T: the safety net invalidated the cache");
        BalancerStats s = lb.stats();
        assertTrue(s.fallbackProbes() > 150);
        assertEquals(s.requests(), s.blindRoutes() + s.firstProbes());
        assertEquals(s.probes(), s.firstProbes() + s.fallbackProbes());
        assertEquals(s.firstProbes() - s.firstProbeHits(), s.fallbackProbes());
    }

    @Test
    void noBlindRequestGoesToARemovedServer() {
        for (long seed = 0; seed < 300; seed++) {
            StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(servers(5), 8, new SplittableRandom(seed));
            String cached = lb.next();
            assertEquals(cached, lb.cachedServer());
            assertTrue(lb.credit() > 0);
            assertTrue(lb.remove(cached));
            assertNull(lb.cachedServer(), "removal drops the blind cache");
            for (int i = 0; i < 50; i++) {
                assertNotEquals(cached, lb.next());
            }
            assertFalse(lb.servers().contains(cached));
            lb.release(cached); // its outstanding request can still complete
            assertEquals(0, lb.outstanding(cached));
            assertThrows(IllegalStateException.class, () -> lb.release(cached));
        }
    }

    @Test
    void releaseMustMatchANext() {
        StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(servers(2), 3, new SplittableRandom(4));
        assertThrows(IllegalStateException.class, () -> lb.release("s0"));
        assertThrows(IllegalStateException.class, () -> lb.release("unknown"));
        String s = lb.next();
        lb.release(s);
        assertThrows(IllegalStateException.class, () -> lb.release(s), "double release");
        assertEquals(1, lb.stats().releases());
        assertThrows(NullPointerException.class, () -> lb.release(null));
    }

    @Test
    void serverSetChangesAtRunTime() {
        StickyLazyBalancer<String> lb = new StickyLazyBalancer<>(List.of(), 3, new SplittableRandom(5));
        assertThrows(NoSuchElementException.class, lb::next);
        assertTrue(lb.add("a"));
        assertFalse(lb.add("a"));
        assertEquals("a", lb.next());
        assertTrue(lb.add("b"));
        assertTrue(lb.remove("a"));
        assertFalse(lb.remove("a"));
        for (int i = 0; i < 20; i++) {
            assertEquals("b", lb.next());
        }
        assertTrue(lb.add("a"), "a removed server can come back");
        assertEquals(1, lb.outstanding("a"), "its outstanding request is still known");
        lb.release("a");
        assertEquals(List.of("b", "a"), lb.servers());
        assertThrows(IllegalArgumentException.class, () -> new StickyLazyBalancer<>(List.of("x", "x"), 3));
        assertThrows(IllegalArgumentException.class, () -> new StickyLazyBalancer<>(List.of("x"), 0));
    }

    @Test
    void strictPo2cProbesTwoDistinctServersAndPicksTheLighter() {
        StrictPo2cBalancer<String> lb = new StrictPo2cBalancer<>(servers(2), new SplittableRandom(6));
        String a = lb.next();
        String b = lb.next();
        assertNotEquals(a, b, "the idle server wins");
        lb.release(a);
        assertEquals(a, lb.next());
        BalancerStats s = lb.stats();
        assertEquals(3, s.requests());
        assertEquals(6, s.probes());
        assertEquals(2.0, s.probesPerRequest(), 1e-12);
        StrictPo2cBalancer<String> one = new StrictPo2cBalancer<>(List.of("only"));
        one.next();
        assertEquals(1, one.stats().probes());
    }
}

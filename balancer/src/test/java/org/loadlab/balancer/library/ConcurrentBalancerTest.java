package org.loadlab.balancer.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Eight threads share one balancer: every next() is released exactly once (no lost or double
 * release), the counters add up, and a server removed for good is never returned by a next()
 * that started after its removal — also not from the blind cache.
 */
class ConcurrentBalancerTest {
    private static final int THREADS = 8;
    private static final int OPS = 40_000;
    private static final int STABLE = 12;
    private static final int DOOMED = 6;
    private static final int CHURN = 4;

    @Test
    void stickyLazyFromEightThreads() throws Exception {
        run(() -> new StickyLazyBalancer<>(initial(), 3, new SplittableRandom(1)));
    }

    @Test
    void strictPo2cFromEightThreads() throws Exception {
        run(() -> new StrictPo2cBalancer<>(initial(), new SplittableRandom(2)));
    }

    private static List<String> initial() {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < STABLE; i++) {
            s.add("stable-" + i);
        }
        for (int i = 0; i < DOOMED; i++) {
            s.add("doomed-" + i);
        }
        return s;
    }

    private static void run(Supplier<LocalBalancer<String>> factory) throws Exception {
        LocalBalancer<String> lb = factory.get();
        Set<String> removedForGood = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<Map<String, Integer>>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            results.add(pool.submit(() -> {
                SplittableRandom rng = new SplittableRandom(100 + thread);
                Map<String, Integer> handedOut = new HashMap<>();
                List<String> held = new ArrayList<>();
                start.await();
                for (int i = 0; i < OPS; i++) {
                    int op = rng.nextInt(1000);
                    if (op < 3 && thread < DOOMED) {
                        String d = "doomed-" + thread; // each doomed server is removed by one thread, once
                        if (lb.remove(d)) {
                            removedForGood.add(d);
                        }
                    } else if (op < 10) {
                        String c = "churn-" + rng.nextInt(CHURN);
                        if (rng.nextBoolean()) {
                            lb.add(c);
                        } else {
                            lb.remove(c);
                        }
                    } else if (held.size() < 4 && (held.isEmpty() || op < 600)) {
                        Set<String> goneBefore = Set.copyOf(removedForGood);
                        String s = lb.next();
                        assertFalse(goneBefore.contains(s), "next() returned " + s + " after its removal");
                        held.add(s);
                        handedOut.merge(s, 1, Integer::sum);
                    } else {
                        lb.release(held.remove(rng.nextInt(held.size())));
                    }
                }
                for (String s : held) {
                    lb.release(s);
                }
                return handedOut;
            }));
        }
        start.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        Map<String, Integer> total = new HashMap<>();
        for (Future<Map<String, Integer>> f : results) {
            f.get().forEach((k, v) -> total.merge(k, v, Integer::sum)); // rethrows a worker's assertion
        }
        long handed = total.values().stream().mapToLong(Integer::longValue).sum();
        BalancerStats s = lb.stats();
        assertEquals(handed, s.requests(), "every next() counted once");
        assertEquals(handed, s.releases(), "every request released exactly once");
        assertEquals(0, s.outstanding());
        for (String server : total.keySet()) {
            assertEquals(0, lb.outstanding(server), server);
        }
        assertEquals(DOOMED, removedForGood.size());
        for (String d : removedForGood) {
            assertFalse(lb.servers().contains(d));
        }
        if (lb instanceof StickyLazyBalancer) {
            assertEquals(s.requests(), s.blindRoutes() + s.firstProbes());
            assertEquals(s.probes(), s.firstProbes() + s.fallbackProbes());
            assertEquals(s.firstProbes() - s.firstProbeHits(), s.fallbackProbes());
            assertTrue(s.blindRoutes() > 0);
            assertTrue(s.probesPerRequest() >= 1.0 / 4 && s.probesPerRequest() < 2);
        } else {
            assertEquals(2 * s.requests(), s.probes());
        }
    }
}

package org.loadlab.balancer.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Exponential backoff with full jitter after the cap, and the budget's limit (issue 14). */
class BackoffTest {
    @Test
    void theCeilingDoublesUntilTheCap() {
        assertEquals(0.025, Backoff.ceiling(1, 0.025, 0.25), 1e-15);
        assertEquals(0.05, Backoff.ceiling(2, 0.025, 0.25), 1e-15);
        assertEquals(0.2, Backoff.ceiling(4, 0.025, 0.25), 1e-15);
        assertEquals(0.25, Backoff.ceiling(5, 0.025, 0.25), 1e-15, "0.4 capped at 0.25");
        assertEquals(0.25, Backoff.ceiling(500, 0.025, 0.25), 1e-15, "no overflow for many retries");
        assertEquals(0, Backoff.wait(3, 0, 0, new SplittableRandom(1)), "no backoff: at once");
    }

    @Test
    void afterTheCapTheWaitIsUniformOnZeroToTheCap() {
        SplittableRandom rng = new SplittableRandom(2);
        int n = 20000;
        double cap = 0.25;
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            w[i] = Backoff.wait(12, 0.025, cap, rng);
            assertTrue(w[i] >= 0 && w[i] < cap);
        }
        Arrays.sort(w);
        double d = 0;
        for (int i = 0; i < n; i++) {
            double f = w[i] / cap;
            d = Math.max(d, Math.max(Math.abs(f - (double) i / n), Math.abs(f - (double) (i + 1) / n)));
        }
        // Kolmogorov-Smirnov against U(0, cap): critical value at alpha = 0.001 is 1.95 / sqrt(n)
        assertTrue(d < 1.95 / Math.sqrt(n), "KS distance " + d);
        long atCap = Arrays.stream(w).filter(x -> x > cap * 0.999).count();
        assertTrue(atCap < n * 0.002, "jitter after the cap: no pile-up at the cap (" + atCap + ")");
    }

    @Test
    void theBudgetIsAShareOfActiveRequestsWithAMinimum() {
        RetryBudget b = new RetryBudget(true, 20, 3);
        assertEquals(3, b.limit(0));
        assertEquals(3, b.limit(19));
        assertEquals(4, b.limit(20));
        assertEquals(20, b.limit(100));
        assertTrue(b.allows(19, 100) && !b.allows(20, 100));
        assertEquals(Integer.MAX_VALUE, new RetryBudget(false, 20, 3).limit(5));
    }

    @Test
    void settingsAreValidatedWithKeyValueAndWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RetrySettings(1,
                RetrySettings.OFF.retryOn(), 0, 0.5, 0.1, true, 20, 3, "same"));
        assertTrue(e.getMessage().startsWith("retry.backoff.max = 0.1: allowed >= backoff.base = 0.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RetrySettings(1, RetrySettings.OFF.retryOn(), 0, 0.1, 0.1,
                true, 120, 3, "same"));
    }
}

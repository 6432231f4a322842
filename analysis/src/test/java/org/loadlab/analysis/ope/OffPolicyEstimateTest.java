package org.loadlab.analysis.ope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * IPS and SNIPS on a bandit whose true values are known: three actions with Bernoulli rewards
 * of means 0.2, 0.5 and 0.9, logged by a skewed random policy (0.6, 0.3, 0.1); the target
 * "always action 2" is worth 0.9 and the uniform target (0.2 + 0.5 + 0.9) / 3.
 */
class OffPolicyEstimateTest {
    private static final double[] MEANS = {0.2, 0.5, 0.9};
    private static final double[] LOGGING = {0.6, 0.3, 0.1};

    private static OffPolicyEstimate estimate(double[] target, int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[] r = new double[n];
        double[] mu = new double[n];
        double[] pi = new double[n];
        for (int i = 0; i < n; i++) {
            double u = rng.nextDouble();
            int a = u < LOGGING[0] ? 0 : u < LOGGING[0] + LOGGING[1] ? 1 : 2;
            r[i] = rng.nextDouble() < MEANS[a] ? 1 : 0;
            mu[i] = LOGGING[a];
            pi[i] = target[a];
        }
        return OffPolicyEstimate.of(r, mu, pi, 7);
    }

    @Test
    void bothEstimatorsFindTheKnownValueAndTheirIntervalsCoverIt() {
        OffPolicyEstimate best = estimate(new double[] {0, 0, 1}, 50_000, 1);
        assertEquals(0.9, best.ips(), 0.03);
        assertEquals(0.9, best.snips(), 0.02);
        assertTrue(best.ipsLow() <= 0.9 && 0.9 <= best.ipsHigh(), "IPS interval covers the truth: " + best);
        assertTrue(best.snipsLow() <= 0.9 && 0.9 <= best.snipsHigh(), "SNIPS interval covers the truth: " + best);
        assertEquals(10, best.maxWeight(), 1e-12, "weight 1 / 0.1 of the rarely logged action");
        assertEquals(0.6 * 0.2 + 0.3 * 0.5 + 0.1 * 0.9, best.loggedValue(), 0.01, "the logging policy's own value");
        double uniform = (0.2 + 0.5 + 0.9) / 3;
        OffPolicyEstimate u = estimate(new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0}, 50_000, 2);
        assertEquals(uniform, u.ips(), 0.02);
        assertEquals(uniform, u.snips(), 0.02);
        assertTrue(u.effectiveSampleSize() > best.effectiveSampleSize(), "a target closer to the logging policy rests on more decisions");
    }

    @Test
    void coverageOfTheIpsIntervalIsAboutNinetyFivePercent() {
        int covered = 0;
        for (int k = 0; k < 200; k++) {
            OffPolicyEstimate e = estimate(new double[] {0, 0, 1}, 2_000, 100 + k);
            if (e.ipsLow() <= 0.9 && 0.9 <= e.ipsHigh()) {
                covered++;
            }
        }
        assertTrue(covered >= 180 && covered <= 199, covered + " of 200 intervals cover the truth");
    }

    @Test
    void badPropensitiesAreRefusedNamingTheDecision() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OffPolicyEstimate.of(new double[] {1, 0}, new double[] {0.5, 0}, new double[] {1, 1}, 1));
        assertTrue(e.getMessage().contains("decision 1"), e.getMessage());
    }
}

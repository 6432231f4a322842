package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** SPEC §1 resource formula, noise band, clipping and lazy period updates of {@link NodeLoadState}'s resource model. */
class NodeLoadStateResourcesTest {
    private static final double[] BASE = {0.35, 0.30, 0.25, 0.20};
    private static final double[] SLOPE = {0.55, 0.45, 0.40, 0.50};

    private static double[] values(NodeLoadState m) {
        return new double[] {m.cpu(), m.mem(), m.io(), m.net()};
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 20, 40, 79, 80, 81, 200, 10_000})
    void valuesFollowTheSpecFormulaWithinNoise(int q) {
        NodeLoadState m = new NodeLoadState(0.1, FeedbackSettings.OFF);
        SplittableRandom rng = new SplittableRandom(q + 1);
        double p = Math.min(1.0, q / 80.0);
        double[] min = {9, 9, 9, 9};
        double[] max = {-9, -9, -9, -9};
        double[] sum = new double[4];
        int n = 2000;
        for (int i = 0; i < n; i++) {
            m.advanceResources(i * 0.1 + 0.05, q, rng);
            double[] v = values(m);
            for (int r = 0; r < 4; r++) {
                double expected = BASE[r] + SLOPE[r] * p;
                assertTrue(v[r] >= 0 && v[r] <= 1, "resource " + r + " out of [0,1]: " + v[r]);
                assertEquals(expected, v[r], 0.05 + 1e-12, "resource " + r + " at q=" + q);
                min[r] = Math.min(min[r], v[r]);
                max[r] = Math.max(max[r], v[r]);
                sum[r] += v[r];
            }
        }
        for (int r = 0; r < 4; r++) {
            // The noise is really there and spans the band, centred on the formula.
            assertTrue(max[r] - min[r] > 0.09, "noise span of resource " + r + ": " + (max[r] - min[r]));
            assertEquals(BASE[r] + SLOPE[r] * p, sum[r] / n, 0.005);
        }
    }

    @Test
    void twoReadsWithinOnePeriodAreIdenticalAndANewPeriodRedraws() {
        NodeLoadState m = new NodeLoadState(0.1, FeedbackSettings.OFF);
        SplittableRandom rng = new SplittableRandom(7);
        m.advanceResources(0.31, 0, rng);
        double[] first = values(m);
        m.advanceResources(0.35, 80, rng); // same period: no change even though q differs
        m.advanceResources(0.399, 80, rng);
        assertEquals(java.util.Arrays.toString(first), java.util.Arrays.toString(values(m)));
        m.advanceResources(0.41, 80, rng);
        double[] next = values(m);
        assertNotEquals(first[0], next[0]);
        assertEquals(0.90, next[0], 0.05 + 1e-12);
        assertEquals(0.75, next[1], 0.05 + 1e-12);
        assertEquals(0.65, next[2], 0.05 + 1e-12);
        assertEquals(0.70, next[3], 0.05 + 1e-12);
    }

    @Test
    void noiseDrawnPerUpdateAndPerResource() {
        NodeLoadState m = new NodeLoadState(0.1, FeedbackSettings.OFF);
        SplittableRandom rng = new SplittableRandom(11);
        int differentNoise = 0;
        for (int i = 0; i < 100; i++) {
            m.advanceResources(i * 0.1 + 0.05, 0, rng);
            double uCpu = m.cpu() - BASE[0];
            double uMem = m.mem() - BASE[1];
            if (Math.abs(uCpu - uMem) > 1e-12) {
                differentNoise++;
            }
        }
        assertTrue(differentNoise > 90, "each resource draws its own noise");
    }

    @Test
    void pinnedResourceKeepsItsValueAndUnpinRestoresTheFormula() {
        NodeLoadState m = new NodeLoadState(0.1, FeedbackSettings.OFF);
        SplittableRandom rng = new SplittableRandom(3);
        m.advanceResources(0.05, 0, rng);
        m.pinResource(0, 0.99);
        assertEquals(0.99, m.cpu());
        for (int i = 1; i < 20; i++) {
            m.advanceResources(i * 0.1 + 0.05, 0, rng);
            assertEquals(0.99, m.cpu());
            assertEquals(0.30, m.mem(), 0.05 + 1e-12);
        }
        m.pinResource(0, Double.NaN);
        m.advanceResources(5.05, 0, rng);
        assertEquals(0.35, m.cpu(), 0.05 + 1e-12);
    }

    @Test
    void otherPeriodsScaleTheTick() {
        NodeLoadState m = new NodeLoadState(2.0, FeedbackSettings.OFF);
        SplittableRandom rng = new SplittableRandom(5);
        m.advanceResources(0.5, 0, rng);
        double[] a = values(m);
        m.advanceResources(1.9, 80, rng);
        assertEquals(a[0], m.cpu());
        m.advanceResources(2.1, 80, rng);
        assertEquals(0.90, m.cpu(), 0.05 + 1e-12);
    }

    /**
     * The bounds that skip the division must not move one draw: over non-decreasing times
     * with many exactly on or one ulp around period boundaries, the state redraws exactly
     * when ⌊t/P⌋ changes.
     */
    @Test
    void redrawsExactlyWhenTheExactTickChanges() {
        for (double period : new double[] {0.1, 0.3, 1.0 / 3, 2.0}) {
            NodeLoadState m = new NodeLoadState(period, FeedbackSettings.OFF);
            SplittableRandom times = new SplittableRandom(41);
            long[] draws = {0};
            java.util.random.RandomGenerator counting = () -> {
                draws[0]++;
                return 0;
            };
            long lastTick = Long.MIN_VALUE;
            long expected = 0;
            double t = 0;
            for (int i = 0; i < 200_000; i++) {
                int kind = times.nextInt(4);
                double edge = Math.ceil(t / period) * period;
                t = kind == 0 ? Math.max(t, edge) : kind == 1 ? Math.max(t, Math.nextDown(edge))
                        : kind == 2 ? Math.max(t, Math.nextUp(edge)) : t + times.nextDouble() * period * 0.4;
                long tick = (long) Math.floor(t / period);
                if (tick != lastTick) {
                    lastTick = tick;
                    expected += 4;
                }
                m.advanceResources(t, 0, counting);
                assertEquals(expected, draws[0], "draws after t=" + t + " period=" + period);
            }
        }
    }
}

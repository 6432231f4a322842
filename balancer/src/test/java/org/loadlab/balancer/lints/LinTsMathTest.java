package org.loadlab.balancer.lints;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * LinTS math against values computed by hand (SPEC.md §6): B, f and θ̂ after known updates,
 * the mean and covariance of posterior draws, the softmax with masking, the reward, the
 * annealed exploration and the context's clipping.
 */
class LinTsMathTest {
    private static final double[] E1 = {1, 0, 0, 0, 0, 0};
    private static final double[] E12 = {1, 1, 0, 0, 0, 0};

    @Test
    void twoUpdatesGiveTheHandComputedPrecisionVectorAndMean() {
        LinTsArm arm = new LinTsArm(6);
        arm.update(E1, -1);
        // B = I + e1 e1^T = diag(2, 1, 1, 1, 1, 1), f = -e1, theta = B^-1 f = (-0.5, 0, ...).
        assertEquals(2, arm.precision()[0], 0);
        assertArrayEquals(new double[] {-1, 0, 0, 0, 0, 0}, arm.accumulated(), 0);
        assertArrayEquals(new double[] {-0.5, 0, 0, 0, 0, 0}, arm.mean(), 1e-12);
        arm.update(E12, -2);
        // B = [[3, 1], [1, 2]] (+ I elsewhere), f = (-3, -2); B^-1 = [[2, -1], [-1, 3]] / 5,
        // theta = ((-6 + 2) / 5, (3 - 6) / 5) = (-0.8, -0.6).
        double[] b = arm.precision();
        assertArrayEquals(new double[] {3, 1, 0, 0, 0, 0}, java.util.Arrays.copyOfRange(b, 0, 6), 0);
        assertArrayEquals(new double[] {1, 2, 0, 0, 0, 0}, java.util.Arrays.copyOfRange(b, 6, 12), 0);
        assertArrayEquals(new double[] {-3, -2, 0, 0, 0, 0}, arm.accumulated(), 0);
        assertArrayEquals(new double[] {-0.8, -0.6, 0, 0, 0, 0}, arm.mean(), 1e-12);
    }

    @Test
    void drawsHaveThePosteriorMeanAndCovarianceVSquaredTimesBInversePlusJitter() {
        LinTsArm arm = new LinTsArm(6);
        arm.update(E1, -1);
        arm.update(E12, -2);
        double v2 = 0.5;
        int draws = 200_000;
        SplittableRandom rng = new SplittableRandom(7);
        double[] sum = new double[6];
        double[][] sq = new double[6][6];
        for (int k = 0; k < draws; k++) {
            double[] t = arm.sample(v2, rng);
            for (int i = 0; i < 6; i++) {
                sum[i] += t[i];
                for (int j = 0; j < 6; j++) {
                    sq[i][j] += t[i] * t[j];
                }
            }
        }
        double[] expectedMean = {-0.8, -0.6, 0, 0, 0, 0};
        // v^2 (B^-1 + 1e-6 I): the 2x2 block [[0.4, -0.2], [-0.2, 0.6]], 1 on the rest of the diagonal.
        double[][] inverse = new double[6][6];
        inverse[0][0] = 0.4;
        inverse[0][1] = -0.2;
        inverse[1][0] = -0.2;
        inverse[1][1] = 0.6;
        for (int i = 2; i < 6; i++) {
            inverse[i][i] = 1;
        }
        for (int i = 0; i < 6; i++) {
            double mean = sum[i] / draws;
            assertEquals(expectedMean[i], mean, 0.01, "mean of component " + i);
            for (int j = 0; j < 6; j++) {
                double cov = sq[i][j] / draws - mean * (sum[j] / draws);
                double expected = v2 * (inverse[i][j] + (i == j ? LinTsArm.JITTER : 0));
                assertEquals(expected, cov, 0.01, "covariance " + i + "," + j);
            }
        }
    }

    @Test
    void snapshotAndRestoreGiveTheSameModelBackNotThePrior() {
        LinTsModel model = new LinTsModel(LinTsSettings.DEFAULTS, 2);
        model.weights(new double[][] {E1, E12}, new SplittableRandom(1));
        model.update(new RewardWindow.NodeFeedback[] {new RewardWindow.NodeFeedback(0, 10, 50, 0, 0),
                new RewardWindow.NodeFeedback(1, 10, 400, 0.5, 1)});
        LinTsModel.Posterior p = model.snapshot();
        LinTsModel restarted = new LinTsModel(LinTsSettings.DEFAULTS, 2);
        restarted.restore(p);
        for (int j = 0; j < 2; j++) {
            assertArrayEquals(model.arm(j).precision(), restarted.arm(j).precision(), 0);
            assertArrayEquals(model.arm(j).accumulated(), restarted.arm(j).accumulated(), 0);
            assertArrayEquals(model.arm(j).mean(), restarted.arm(j).mean(), 1e-12);
        }
        assertEquals(1, restarted.steps(), "the annealing resumes where it was");
        // Node 1 (reward -(2 + 2.5 + 10) = -14.5 on E12) is not at the prior any more.
        assertEquals(-14.5, restarted.arm(1).accumulated()[0], 1e-12);
        assertThrows(IllegalArgumentException.class, () -> restarted.arm(0).restore(new double[36], new double[6]),
                "a zero B is not positive definite");
    }

    @Test
    void softmaxWithTemperatureAndMask() {
        double[] w = Softmax.weights(new double[] {0, -0.2, 5, Math.log(2) * 0.2}, 0.2, new boolean[] {false, false, true, false});
        // Unmasked scores 0, -0.2, 0.2 ln 2 over tau 0.2: exponents e^(-ln2), e^(-1-ln2), 1 after subtracting the max.
        double a = Math.exp(-Math.log(2));
        double b = Math.exp(-1 - Math.log(2));
        double total = a + b + 1;
        assertArrayEquals(new double[] {a / total, b / total, 0, 1 / total}, w, 1e-12);
        assertArrayEquals(new double[3], Softmax.weights(new double[] {1, 2, 3}, 0.2, new boolean[] {true, true, true}), 0,
                "all masked: no weight");
        double[] big = Softmax.weights(new double[] {1000, 999}, 0.2, null);
        assertEquals(1.0, big[0] + big[1], 1e-12, "large scores do not overflow");
    }

    @Test
    void rewardVarianceScaleAndContext() {
        LinTsSettings s = LinTsSettings.DEFAULTS;
        assertEquals(-(50 / 200.0 + 5 * 0.1 + 10 * 0.2), s.reward(50, 0.1, 0.2), 1e-12);
        assertEquals(-15, s.reward(5000, 1, 1), 0, "floored at -15");
        assertEquals(0.3 * 0.9995, s.varianceScale(1), 1e-15);
        assertEquals(0.03, s.varianceScale(100_000), 0, "annealed to the floor 0.03");
        assertArrayEquals(new double[] {1, 1, 1.5, 2, 2, -2}, ContextVector.of(150, 100, 1000, 1000, -500), 0, "clipped");
        assertArrayEquals(new double[] {1, 0.4, 0.25, 0.5, 0.5, 0.2}, ContextVector.of(40, 5, 100, 75, 10), 1e-12);
    }
}

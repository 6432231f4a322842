package org.loadlab.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The closed forms and numerical limits the validation table compares LoadLab against. */
class TheoryModelsTest {

    @Test
    void supermarketModelReducesToMm1AndGivesTheKnownJsq2Values() {
        for (double lambda : new double[] {0.3, 0.7, 0.95}) {
            assertEquals(1 / (1 - lambda), SupermarketModel.meanResponse(lambda, 1), 1e-12);
            assertEquals(Math.pow(lambda, 3), SupermarketModel.fractionAtLeast(3, lambda, 1), 1e-15);
        }
        // d = 2, lambda 0.9: sum of 0.9^(2^i - 2) = 1 + 0.9^2 + 0.9^6 + 0.9^14 + 0.9^30 + ... = 2.6141
        double t = 1 + Math.pow(0.9, 2) + Math.pow(0.9, 6) + Math.pow(0.9, 14) + Math.pow(0.9, 30) + Math.pow(0.9, 62)
                + Math.pow(0.9, 126) + Math.pow(0.9, 254);
        assertEquals(t, SupermarketModel.meanResponse(0.9, 2), 1e-12);
        assertEquals(2.6141, SupermarketModel.meanResponse(0.9, 2), 5e-5);
        assertEquals(Math.pow(0.9, 7), SupermarketModel.fractionAtLeast(3, 0.9, 2), 1e-15, "(2^3 - 1)/(2 - 1) = 7");
        assertEquals(1.0, SupermarketModel.fractionAtLeast(0, 0.9, 3));
        assertThrows(IllegalArgumentException.class, () -> SupermarketModel.meanResponse(1.0, 2));
        assertThrows(IllegalArgumentException.class, () -> SupermarketModel.meanResponse(0.5, 0));
    }

    @Test
    void ballsIntoBinsTails() {
        // One choice: exact binomial tails; the fluid limit of d = 1 is the Poisson(1) tail.
        double[] exact = BallsIntoBinsTheory.randomTail(10_000, 10_000, 6);
        double[] fluid = BallsIntoBinsTheory.fluidTail(1.0, 1, 6);
        double poisson = 0;
        double term = Math.exp(-1);
        for (int k = 0; k <= 6; k++) {
            assertEquals(1 - poisson, fluid[k], 1e-9, "P(Poisson(1) >= " + k + ")");
            assertEquals(fluid[k], exact[k], 1e-4, "binomial(10^4, 10^-4) is close to Poisson(1)");
            poisson += term;
            term /= k + 1;
        }
        assertEquals(1 - Math.pow(1 - 1e-4, 10_000), exact[1], 1e-12, "P(load >= 1) = 1 - (1 - 1/n)^m");
        // Two choices, n balls into n bins: s_1 = 0.7616, s_2 = 0.2295, s_3 = 0.0089 (Mitzenmacher, Richa,
        // Sitaraman 2001, the table of the fluid limit for d = 2 at t = 1).
        double[] two = BallsIntoBinsTheory.fluidTail(1.0, 2, 4);
        assertEquals(Math.tanh(1), two[1], 1e-9, "ds1/dt = 1 - s1^2 gives s1 = tanh t");
        assertEquals(0.2295, two[2], 5e-4);
        assertEquals(0.0089, two[3], 5e-4);
        assertTrue(two[4] < 1e-4 && two[4] > 0);
    }

    @Test
    void senderInitiatedModelSitsBetweenMm1AndItsBoundsAndOrdersThePolicies() {
        for (double lambda : new double[] {0.5, 0.8, 0.9}) {
            double mm1 = 1 / (1 - lambda);
            double random = SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.RANDOM, lambda, 2, 3);
            double threshold = SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.THRESHOLD, lambda, 2, 3);
            double shortest = SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.SHORTEST, lambda, 2, 3);
            assertTrue(1 < shortest && shortest < threshold && threshold < random && random < mm1,
                    lambda + ": " + shortest + " < " + threshold + " < " + random + " < " + mm1);
        }
        // A threshold no queue reaches leaves every node an M/M/1 queue.
        assertEquals(1 / (1 - 0.5), SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.RANDOM, 0.5, 200, 3), 1e-9);
        // The values the validation table quotes (T = 2, Lp = 3).
        assertEquals(1.444, SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.RANDOM, 0.5, 2, 3), 5e-4);
        assertEquals(1.384, SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.THRESHOLD, 0.5, 2, 3), 5e-4);
        assertEquals(1.349, SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.SHORTEST, 0.5, 2, 3), 5e-4);
        assertThrows(IllegalArgumentException.class,
                () -> SenderInitiatedModel.meanResponse(SenderInitiatedModel.Policy.RANDOM, 1.0, 2, 3));
    }
}

package org.loadlab.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JainFairnessTest {

    @Test
    void equalAllocationsArePerfectlyFair() {
        assertEquals(1.0, JainFairness.of(new double[] {0.7, 0.7, 0.7, 0.7}), 1e-15);
    }

    @Test
    void oneNodeDoingEverythingGivesOneOverN() {
        assertEquals(0.25, JainFairness.of(new double[] {0.9, 0, 0, 0}), 1e-15);
    }

    @Test
    void unequalAllocationsAgainstHandValue() {
        // (1 + 2 + 3)² / (3 · (1 + 4 + 9)) = 36 / 42
        assertEquals(36.0 / 42.0, JainFairness.of(new double[] {1, 2, 3}), 1e-15);
    }

    @Test
    void undefinedAndInvalidInputs() {
        assertTrue(Double.isNaN(JainFairness.of(new double[] {0, 0})));
        assertTrue(Double.isNaN(JainFairness.of(new double[] {0.5, Double.NaN})));
        assertThrows(IllegalArgumentException.class, () -> JainFairness.of(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> JainFairness.of(new double[] {1, -0.1}));
    }
}

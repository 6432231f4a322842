package org.loadlab.experiment.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;

class AnalyticCurvesTest {
    @Test
    void erlangCMatchesHandValues() {
        assertEquals(0.5, AnalyticCurves.erlangC(1, 0.5), 1e-12, "M/M/1: P(wait) = rho");
        assertEquals(1.0 / 3.0, AnalyticCurves.erlangC(2, 1.0), 1e-12, "M/M/2 at a = 1");
        // M/M/40 at rho 0.9, from the closed form (a^n/n!)(n/(n-a)) / (sum_{k<n} a^k/k! + that).
        assertEquals(0.4115624767, AnalyticCurves.erlangC(40, 36.0), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> AnalyticCurves.erlangC(2, 2.0));
    }

    @Test
    void curvesGiveTheTextbookMeans() {
        var curves = AnalyticCurves.of(java.util.List.of("mm1", "mmn"), TestScenarios.load("mm1-random"));
        assertEquals(5.0, curves.get(0).function().applyAsDouble(0.8), 1e-12);
        double mm20 = curves.get(1).function().applyAsDouble(0.8);
        assertEquals(1.0 + AnalyticCurves.erlangC(20, 16.0) / (20 * 0.2), mm20, 1e-12);
    }
}

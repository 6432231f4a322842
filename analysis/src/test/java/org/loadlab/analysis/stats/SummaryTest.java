package org.loadlab.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void oneToFiveAgainstHandValues() {
        Summary s = Summary.of(new double[] {1, 2, 3, 4, 5});
        assertEquals(5, s.n());
        assertEquals(3.0, s.mean(), 1e-12);
        // sd = sqrt(10 / 4) = 1.58113883; t_{0.975,4} = 2.776445105; half-width = t·sd/√5
        assertEquals(1.5811388300841898, s.sd(), 1e-12);
        assertEquals(1.9632432, s.ci95(), 1e-6);
    }

    @Test
    void twoValuesUseOneDegreeOfFreedom() {
        Summary s = Summary.of(new double[] {2, 4});
        assertEquals(3.0, s.mean(), 1e-12);
        assertEquals(Math.sqrt(2), s.sd(), 1e-12);
        // t_{0.975,1} = 12.7062047; sd/√2 = 1
        assertEquals(12.7062047, s.ci95(), 1e-6);
    }

    @Test
    void constantValuesHaveZeroWidth() {
        Summary s = Summary.of(new double[] {0.5, 0.5, 0.5});
        assertEquals(0.5, s.mean(), 1e-15);
        assertEquals(0.0, s.sd(), 0.0);
        assertEquals(0.0, s.ci95(), 0.0);
    }

    @Test
    void fewerThanTwoValuesHaveNoSpread() {
        Summary one = Summary.of(new double[] {7});
        assertEquals(1, one.n());
        assertEquals(7.0, one.mean());
        assertTrue(Double.isNaN(one.sd()));
        assertTrue(Double.isNaN(one.ci95()));
        Summary none = Summary.of(new double[0]);
        assertEquals(0, none.n());
        assertTrue(Double.isNaN(none.mean()));
        assertTrue(Double.isNaN(none.ci95()));
    }

    @Test
    void nanPropagatesAndNullIsRejected() {
        assertTrue(Double.isNaN(Summary.of(new double[] {1, Double.NaN, 3}).mean()));
        assertThrows(NullPointerException.class, () -> Summary.of(null));
    }
}

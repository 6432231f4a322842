package org.loadlab.analysis.campaign;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Deterministic, locale-independent number text for CSV cells, the same rule as the
 * single-run result files ({@code org.loadlab.analysis.io.ResultsCsv}): plain decimal notation,
 * at most {@value #SIGNIFICANT_DIGITS} significant digits, no trailing zeros; {@code NaN},
 * {@code Infinity}, {@code -Infinity} for non-finite values. {@link BigDecimal} makes the text
 * identical on every JVM.
 */
final class Numbers {

    /** Significant decimal digits kept for doubles in CSV cells. */
    static final int SIGNIFICANT_DIGITS = 10;

    private static final MathContext CONTEXT = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);

    private Numbers() {
    }

    /**
     * @param value any double
     * @return e.g. {@code 0.1721}, {@code 2056}, {@code NaN}
     */
    static String csv(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0) {
            return "0";
        }
        return new BigDecimal(value).round(CONTEXT).stripTrailingZeros().toPlainString();
    }

    /**
     * @param value any long
     * @return its decimal text
     */
    static String csv(long value) {
        return Long.toString(value);
    }
}

package org.loadlab.analysis.io;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.StringJoiner;

/**
 * Deterministic, locale-independent number text for CSV cells: plain decimal notation (no
 * exponent), at most {@value #SIGNIFICANT_DIGITS} significant digits, no trailing zeros;
 * {@code NaN}, {@code Infinity} and {@code -Infinity} for non-finite values. Uses
 * {@link BigDecimal} (exact binary-to-decimal conversion), so the text is the same on every JVM.
 */
public final class CsvNumbers {

    /** Significant decimal digits kept for doubles. */
    static final int SIGNIFICANT_DIGITS = 10;

    /** Separator between the elements of a per-node list inside one cell. */
    static final String LIST_SEPARATOR = ";";

    private static final MathContext CONTEXT = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);

    private CsvNumbers() {
    }

    /**
     * @param value any double
     * @return e.g. {@code 0.1721}, {@code 2056}, {@code 0.000001}, {@code NaN}
     */
    public static String format(double value) {
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
    public static String format(long value) {
        return Long.toString(value);
    }

    /**
     * @param values numbers, e.g. per-node values
     * @return the formatted values joined by {@value #LIST_SEPARATOR}
     */
    static String join(List<? extends Number> values) {
        StringJoiner joiner = new StringJoiner(LIST_SEPARATOR);
        for (Number value : values) {
            if (value instanceof Double || value instanceof Float) {
                joiner.add(format(value.doubleValue()));
            } else {
                joiner.add(format(value.longValue()));
            }
        }
        return joiner.toString();
    }
}

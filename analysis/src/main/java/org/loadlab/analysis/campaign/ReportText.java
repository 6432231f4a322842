package org.loadlab.analysis.campaign;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Number text for report tables (not CSV): short, locale-independent, deterministic
 * ({@link BigDecimal} rounding, half-even).
 */
final class ReportText {

    /** Text for an undefined value. */
    static final String UNDEFINED = "n/a";

    private static final int SIGNIFICANT_DIGITS = 4;
    private static final int MAX_DECIMALS = 6;

    private ReportText() {
    }

    /**
     * @param mean a mean
     * @param halfWidth its CI half-width, or NaN
     * @return e.g. {@code 0.1090 ± 0.0041}: about 4 significant digits of the mean, the
     *     half-width with the same decimals; the mean alone when the half-width is NaN;
     *     {@code n/a} when the mean is NaN
     */
    static String meanCi(double mean, double halfWidth) {
        if (Double.isNaN(mean)) {
            return UNDEFINED;
        }
        int decimals = decimals(mean);
        String text = fixed(mean, decimals);
        return Double.isNaN(halfWidth) ? text : text + " ± " + fixed(halfWidth, decimals);
    }

    /**
     * @param value a value
     * @return about 4 significant digits, e.g. {@code 0.1090}, {@code 2056}; {@code n/a} for NaN
     */
    static String value(double value) {
        return Double.isNaN(value) ? UNDEFINED : fixed(value, decimals(value));
    }

    /**
     * @param percent a relative change in percent
     * @return e.g. {@code +12.3%}, {@code -4.0%}, {@code n/a}
     */
    static String percent(double percent) {
        if (Double.isNaN(percent)) {
            return UNDEFINED;
        }
        String text = fixed(percent, 1);
        return (percent >= 0 && !text.startsWith("-") ? "+" : "") + text + "%";
    }

    /**
     * @param p a p-value
     * @return 3 significant digits (e.g. {@code 0.0313}), {@code <0.001} below 0.001, {@code n/a} for NaN
     */
    static String p(double p) {
        if (Double.isNaN(p)) {
            return UNDEFINED;
        }
        if (p < 0.001) {
            return "<0.001";
        }
        return new BigDecimal(p).round(new MathContext(3, RoundingMode.HALF_EVEN)).toPlainString();
    }

    private static int decimals(double value) {
        if (!Double.isFinite(value) || value == 0) {
            return 1;
        }
        int exponent = (int) Math.floor(Math.log10(Math.abs(value)));
        return Math.max(0, Math.min(MAX_DECIMALS, SIGNIFICANT_DIGITS - 1 - exponent));
    }

    private static String fixed(double value, int decimals) {
        if (Double.isNaN(value)) {
            return UNDEFINED;
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }
}

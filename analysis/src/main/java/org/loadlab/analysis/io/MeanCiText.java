package org.loadlab.analysis.io;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.loadlab.analysis.stats.Summary;

/**
 * Text of a {@link Summary} for terminal tables: the mean and, when defined, the 95% CI
 * half-width, both with the same number of decimals. Locale-independent (always {@code .}).
 *
 * @param mean the mean's text, or {@code n/a} when undefined
 * @param ci95 the half-width's text, or null when undefined (a single run)
 */
record MeanCiText(String mean, String ci95) {

    /** Text shown for an undefined (NaN) mean. */
    static final String UNDEFINED = "n/a";

    private static final int SIGNIFICANT_DIGITS = 4;
    private static final int MAX_DECIMALS = 6;

    /**
     * For continuous quantities: about 4 significant digits of the mean (0 to 6 decimals).
     *
     * @param summary the values' summary
     * @return the text parts
     */
    static MeanCiText continuous(Summary summary) {
        double mean = summary.mean();
        int decimals = 1; // an exact zero reads "0.0 ± 0.0", like its neighbours
        if (Double.isFinite(mean) && mean != 0) {
            int exponent = (int) Math.floor(Math.log10(Math.abs(mean)));
            decimals = Math.max(0, Math.min(MAX_DECIMALS, SIGNIFICANT_DIGITS - 1 - exponent));
        }
        return withDecimals(summary, decimals);
    }

    /**
     * For counts: an integer for one run, one decimal for a mean over several runs.
     *
     * @param summary the counts' summary
     * @return the text parts
     */
    static MeanCiText count(Summary summary) {
        return withDecimals(summary, summary.n() > 1 ? 1 : 0);
    }

    private static MeanCiText withDecimals(Summary summary, int decimals) {
        String mean = fixed(summary.mean(), decimals);
        String ci = Double.isNaN(summary.ci95()) || Double.isNaN(summary.mean())
                ? null
                : fixed(summary.ci95(), decimals);
        return new MeanCiText(mean, ci);
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

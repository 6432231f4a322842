package org.loadlab.app.cli;

/**
 * A count and its noun in the right number for the CLI's messages ("1 run", "3 runs"), so
 * that no message says "1 runs". English only, like every message of the CLI.
 */
final class Plural {
    private Plural() {
    }

    /**
     * The count followed by its noun.
     *
     * @param n the count
     * @param one the noun for exactly one ("run")
     * @param many the noun for any other count, zero included ("runs")
     * @return e.g. {@code "1 run"}, {@code "0 runs"}
     */
    static String count(long n, String one, String many) {
        return n + " " + word(n, one, many);
    }

    /**
     * The noun (or verb) alone, agreeing with {@code n}: {@code word(n, "needs", "need")}.
     *
     * @param n the count it agrees with
     * @param one the form for exactly one
     * @param many the form for any other count
     * @return {@code one} if {@code n == 1}, else {@code many}
     */
    static String word(long n, String one, String many) {
        return n == 1 ? one : many;
    }
}

package org.loadlab.balancer.pipeline;

import java.util.random.RandomGenerator;

/**
 * Running arg-min over candidate positions with ties broken uniformly at random
 * (reservoir sampling over the tied positions), never by index: SPEC.md §2.
 * Reused between decisions; not thread-safe.
 */
final class ArgBest {
    private int best;
    private double bestValue;
    private int ties;
    private RandomGenerator rng;

    ArgBest start(RandomGenerator rng) {
        this.rng = rng;
        best = -1;
        bestValue = Double.POSITIVE_INFINITY;
        ties = 0;
        return this;
    }

    /** Offers position {@code position} with value {@code value} (smaller is better). */
    void offer(int position, double value) {
        if (value < bestValue || best < 0) {
            best = position;
            bestValue = value;
            ties = 1;
        } else if (value == bestValue) {
            ties++;
            if (rng.nextInt(ties) == 0) {
                best = position;
            }
        }
    }

    /** The chosen position, or -1 if nothing was offered. */
    int best() {
        return best;
    }

    /** Value of the chosen position (+∞ if none). */
    double bestValue() {
        return bestValue;
    }
}

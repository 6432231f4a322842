package org.loadlab.balancer.pipeline;

import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.Candidates;

/**
 * The last stage of a policy pipeline: chooses one candidate position from the
 * candidates the guardrails left eligible and, for ranked pickers, the scorer's values.
 * Pickers keep their own state across decisions (a round-robin cursor, smooth weights).
 *
 * <p>Source: DESIGN.md ("a picker chooses: argmax with random ties, best of k samples,
 * weighted draw, softmax").
 */
public interface Picker {
    /** {@link #pick} result meaning: reject the request. */
    int REJECT = -1;

    /**
     * Chooses a candidate.
     *
     * @param candidates the candidates, with loads and masks (≥ 1 candidate)
     * @param scorer the pipeline's scorer, or null for pickers that rank nothing
     * @param rng the balancer's random stream
     * @return a position in {@code [0, candidates.count())}, or {@link #REJECT}
     */
    int pick(Candidates candidates, Scorer scorer, RandomGenerator rng);

    /**
     * True if the picker honours the candidates' dynamic weights ({@link Candidates#weight})
     * itself (weighted draws and weighted round robins); false for pickers that rank by a
     * score, which the balancer serves with candidates thinned by weight. Default false.
     */
    default boolean appliesWeights() {
        return false;
    }
}

package org.loadlab.workload.demand;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Finite mixture: each sample first picks component {@code i} with probability
 * {@code w_i / Σw}, then draws from it. The mean is the weighted mean {@code Σ w_i E[D_i] / Σw}.
 *
 * <p>Each {@link #sample()} consumes one uniform from {@code rng} for the choice plus whatever the
 * chosen component consumes from its own stream. The choice is a linear scan over the cumulative
 * weights (mixtures have few components); no allocation.
 * Source: SPEC.md §5 (seed 001 size mix: 90% log-normal, 10% Pareto).
 */
public final class MixtureDemand implements DemandDistribution {

    private final double[] cumulative;
    private final double[] probabilities;
    private final DemandDistribution[] components;
    private final double mean;
    private final RandomGenerator rng;

    /**
     * @param weights non-negative finite weights, one per component, not all zero (normalised here)
     * @param components the component distributions; same length as {@code weights}, at least one
     * @param rng the random stream used to choose a component
     * @throws IllegalArgumentException if the lengths differ, there are no components, a weight is
     *     negative or not finite, or all weights are zero
     * @throws NullPointerException if an argument or a component is {@code null}
     */
    public MixtureDemand(double[] weights, DemandDistribution[] components, RandomGenerator rng) {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(components, "components");
        this.rng = Objects.requireNonNull(rng, "rng");
        if (components.length == 0) {
            throw new IllegalArgumentException("mixture components must number >= 1, was 0");
        }
        if (weights.length != components.length) {
            throw new IllegalArgumentException("mixture weights must have one entry per component ("
                    + components.length + "), had " + weights.length);
        }
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            Checks.nonNegative(weights[i], "mixture weight[" + i + "]", "");
            Objects.requireNonNull(components[i], "components[" + i + "]");
            total += weights[i];
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("mixture weights must not all be 0, were all 0");
        }
        this.components = components.clone();
        this.probabilities = new double[weights.length];
        this.cumulative = new double[weights.length];
        double acc = 0;
        double m = 0;
        for (int i = 0; i < weights.length; i++) {
            probabilities[i] = weights[i] / total;
            acc += probabilities[i];
            cumulative[i] = acc;
            m += probabilities[i] * components[i].mean();
        }
        // guard against rounding: from the last positive weight on, the cumulative is exactly 1,
        // so every u in [0, 1) lands on a component with positive weight
        int last = weights.length - 1;
        while (weights[last] == 0) {
            last--;
        }
        for (int i = last; i < weights.length; i++) {
            cumulative[i] = 1.0;
        }
        this.mean = m;
    }

    /** @return a demand in work units drawn from a randomly chosen component */
    @Override
    public double sample() {
        double u = rng.nextDouble();
        int i = 0;
        while (u >= cumulative[i]) {
            i++;
        }
        return components[i].sample();
    }

    /** @return the weighted mean {@code Σ p_i E[D_i]} in work units */
    @Override
    public double mean() {
        return mean;
    }

    /** @return number of components */
    public int size() {
        return components.length;
    }

    /**
     * @param i component index, {@code 0 <= i < size()}
     * @return the normalised probability of component {@code i}
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public double probability(int i) {
        return probabilities[i];
    }
}

package org.loadlab.workload.split;

import java.util.Objects;
import java.util.random.RandomGenerator;
import org.hipparchus.util.FastMath;

/**
 * Picks which of B balancers (frontends) an arrival enters, i.i.d. per arrival.
 *
 * <ul>
 *   <li>{@link #uniform(int, RandomGenerator)}: each balancer with probability 1/B (one
 *       {@code nextInt(B)} per pick).</li>
 *   <li>{@link #zipf(int, double, RandomGenerator)}: balancer {@code i} (0-based) with weight
 *       {@code 1/(i+1)^α}, so balancer 0 is the hottest.</li>
 *   <li>{@link #weighted(double[], RandomGenerator)}: arbitrary non-negative weights.</li>
 * </ul>
 * Non-uniform splits use Walker's alias method (Vose's construction): O(B) set-up, O(1) and
 * allocation-free per pick (one {@code nextInt(B)} and one {@code nextDouble()}).
 * Source: SPEC.md §4 (seed 000 {@code zipf_skew_medium}: Zipf over frontends, α = 1.35);
 * Vose, "A linear algorithm for generating random numbers with a given distribution", IEEE TSE
 * 17(9), 1991.
 */
public final class BalancerSplit {

    private final int balancers;
    private final double[] probabilities;
    private final double[] threshold;
    private final int[] alias;
    private final boolean uniform;
    private final RandomGenerator rng;

    private BalancerSplit(double[] weights, boolean uniform, RandomGenerator rng) {
        this.rng = Objects.requireNonNull(rng, "rng");
        this.balancers = weights.length;
        this.uniform = uniform;
        this.probabilities = new double[balancers];
        this.threshold = new double[balancers];
        this.alias = new int[balancers];
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        for (int i = 0; i < balancers; i++) {
            probabilities[i] = weights[i] / total;
        }
        buildAlias();
    }

    /** Vose's alias construction; deterministic (work lists are index-ordered stacks). */
    private void buildAlias() {
        int b = balancers;
        double[] scaled = new double[b];
        int[] small = new int[b];
        int[] large = new int[b];
        int ns = 0;
        int nl = 0;
        for (int i = 0; i < b; i++) {
            scaled[i] = probabilities[i] * b;
            if (scaled[i] < 1) {
                small[ns++] = i;
            } else {
                large[nl++] = i;
            }
        }
        while (ns > 0 && nl > 0) {
            int s = small[--ns];
            int l = large[--nl];
            threshold[s] = scaled[s];
            alias[s] = l;
            scaled[l] = (scaled[l] + scaled[s]) - 1;
            if (scaled[l] < 1) {
                small[ns++] = l;
            } else {
                large[nl++] = l;
            }
        }
        while (nl > 0) {
            int l = large[--nl];
            threshold[l] = 1;
            alias[l] = l;
        }
        while (ns > 0) { // only through rounding: these are really 1
            int s = small[--ns];
            threshold[s] = 1;
            alias[s] = s;
        }
    }

    /**
     * Uniform split over {@code balancers} frontends.
     *
     * @param balancers number of balancers B, {@code >= 1}
     * @param rng the random stream (the engine's split stream)
     * @return the split
     * @throws IllegalArgumentException if {@code balancers < 1}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public static BalancerSplit uniform(int balancers, RandomGenerator rng) {
        checkCount(balancers);
        double[] w = new double[balancers];
        java.util.Arrays.fill(w, 1.0);
        return new BalancerSplit(w, true, rng);
    }

    /**
     * Zipf split: balancer {@code i} (0-based) has weight {@code 1/(i+1)^α}, normalised.
     * α = 0 is uniform; larger α concentrates arrivals on balancer 0.
     *
     * @param balancers number of balancers B, {@code >= 1}
     * @param exponent α, finite and {@code >= 0} (seed 000: 1.35)
     * @param rng the random stream
     * @return the split
     * @throws IllegalArgumentException if {@code balancers < 1} or {@code exponent} is not finite and {@code >= 0}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public static BalancerSplit zipf(int balancers, double exponent, RandomGenerator rng) {
        checkCount(balancers);
        if (!(exponent >= 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("Zipf exponent alpha must be finite and >= 0, was " + exponent);
        }
        double[] w = new double[balancers];
        for (int i = 0; i < balancers; i++) {
            w[i] = 1 / FastMath.pow(i + 1, exponent);
        }
        return new BalancerSplit(w, false, rng);
    }

    /**
     * Split with arbitrary weights: balancer {@code i} with probability {@code w_i/Σw}.
     *
     * @param weights one finite weight {@code >= 0} per balancer, at least one, not all 0
     * @param rng the random stream
     * @return the split
     * @throws IllegalArgumentException if {@code weights} is empty, a weight is negative or not
     *     finite, or all are 0
     * @throws NullPointerException if an argument is {@code null}
     */
    public static BalancerSplit weighted(double[] weights, RandomGenerator rng) {
        Objects.requireNonNull(weights, "weights");
        checkCount(weights.length);
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("balancer weight[" + i + "] must be finite and >= 0, was " + weights[i]);
            }
            total += weights[i];
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("balancer weights must not all be 0, were all 0");
        }
        return new BalancerSplit(weights.clone(), false, rng);
    }

    private static void checkCount(int balancers) {
        if (balancers < 1) {
            throw new IllegalArgumentException("number of balancers must be >= 1, was " + balancers);
        }
    }

    /**
     * Picks the balancer for the next arrival; O(1), no allocation.
     *
     * @return a balancer index in {@code [0, balancers())}
     */
    public int pick() {
        int i = rng.nextInt(balancers);
        if (uniform) {
            return i;
        }
        return rng.nextDouble() < threshold[i] ? i : alias[i];
    }

    /** @return the number of balancers B */
    public int balancers() {
        return balancers;
    }

    /**
     * @param i balancer index, {@code 0 <= i < balancers()}
     * @return the probability that an arrival enters balancer {@code i}
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public double probability(int i) {
        return probabilities[i];
    }
}

package org.loadlab.workload.keys;

import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.loadlab.workload.demand.HipparchusRandomAdapter;

/**
 * Keys 0 … count−1 with Zipf popularity: key r−1 has probability ∝ 1/r^s (s = 0 is uniform),
 * drawn by Hipparchus' rejection-inversion sampler in O(1).
 *
 * <p>Source: Hörmann and Derflinger, "Rejection-inversion to generate variates from monotone
 * discrete distributions" (1996), as implemented by Hipparchus {@code RandomDataGenerator.nextZipf}.
 */
public final class ZipfKeys implements KeySequence {
    private final RandomDataGenerator rng;
    private final int count;
    private final double exponent;

    /**
     * @param count number of distinct keys, ≥ 1
     * @param exponent s ≥ 0
     * @param rng the keys' random stream
     * @throws IllegalArgumentException if count &lt; 1 or s &lt; 0
     */
    public ZipfKeys(int count, double exponent, RandomGenerator rng) {
        if (count < 1 || !(exponent >= 0)) {
            throw new IllegalArgumentException("keys need count >= 1 and zipf-exponent >= 0, were " + count + ", " + exponent);
        }
        this.rng = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
        this.count = count;
        this.exponent = exponent;
    }

    @Override
    public long next() {
        if (exponent == 0) {
            return rng.nextInt(0, count - 1);
        }
        return rng.nextZipf(count, exponent) - 1L;
    }
}

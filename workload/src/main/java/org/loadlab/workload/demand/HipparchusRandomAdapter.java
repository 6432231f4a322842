package org.loadlab.workload.demand;

import java.util.Objects;

/**
 * Presents a {@link java.util.random.RandomGenerator} (the seeded stream the engine derives per
 * entity, or {@code new SplittableRandom(seed)} in tests) as a Hipparchus
 * {@link org.hipparchus.random.RandomGenerator}, so Hipparchus samplers such as
 * {@link org.hipparchus.random.RandomDataGenerator} draw from LoadLab's deterministic streams.
 *
 * <p>Every call forwards to the wrapped generator; nothing is allocated per call. The stream
 * cannot be re-seeded through this view: streams are derived from the master seed by the engine
 * (DESIGN.md, "one seeded random stream per entity"), so the {@code setSeed} methods throw.
 *
 * <p>Source: DESIGN.md conventions (no {@code Math.random}, seeded streams only).
 */
public final class HipparchusRandomAdapter implements org.hipparchus.random.RandomGenerator {

    private final java.util.random.RandomGenerator rng;

    /**
     * Wraps a Java random generator.
     *
     * @param rng the stream to draw from; not {@code null}
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public HipparchusRandomAdapter(java.util.random.RandomGenerator rng) {
        this.rng = Objects.requireNonNull(rng, "rng");
    }

    /**
     * Not supported: LoadLab streams are seeded once by the engine.
     *
     * @param seed ignored
     * @throws UnsupportedOperationException always
     */
    @Override
    public void setSeed(int seed) {
        throw new UnsupportedOperationException("re-seeding is not supported: streams are derived from the master seed");
    }

    /**
     * Not supported: LoadLab streams are seeded once by the engine.
     *
     * @param seed ignored
     * @throws UnsupportedOperationException always
     */
    @Override
    public void setSeed(int[] seed) {
        throw new UnsupportedOperationException("re-seeding is not supported: streams are derived from the master seed");
    }

    /**
     * Not supported: LoadLab streams are seeded once by the engine.
     *
     * @param seed ignored
     * @throws UnsupportedOperationException always
     */
    @Override
    public void setSeed(long seed) {
        throw new UnsupportedOperationException("re-seeding is not supported: streams are derived from the master seed");
    }

    /**
     * Fills {@code bytes} with random bytes from the wrapped stream.
     *
     * @param bytes the array to fill
     */
    @Override
    public void nextBytes(byte[] bytes) {
        rng.nextBytes(bytes);
    }

    /**
     * Fills {@code bytes[offset, offset + len)} with random bytes from the wrapped stream.
     *
     * @param bytes the array to fill
     * @param offset first index to fill, {@code >= 0}
     * @param len number of bytes, {@code >= 0}, {@code offset + len <= bytes.length}
     * @throws IndexOutOfBoundsException if the range does not fit in {@code bytes}
     */
    @Override
    public void nextBytes(byte[] bytes, int offset, int len) {
        Objects.checkFromIndexSize(offset, len, bytes.length);
        int i = offset;
        final int end = offset + len;
        while (i < end) {
            long bits = rng.nextLong();
            for (int k = 0; k < Long.BYTES && i < end; k++, bits >>>= Byte.SIZE) {
                bytes[i++] = (byte) bits;
            }
        }
    }

    /** @return a uniform {@code int} from the wrapped stream */
    @Override
    public int nextInt() {
        return rng.nextInt();
    }

    /**
     * @param n exclusive upper bound, {@code > 0}
     * @return a uniform {@code int} in {@code [0, n)}
     * @throws IllegalArgumentException if {@code n <= 0}
     */
    @Override
    public int nextInt(int n) {
        return rng.nextInt(n);
    }

    /** @return a uniform {@code long} from the wrapped stream */
    @Override
    public long nextLong() {
        return rng.nextLong();
    }

    /**
     * @param n exclusive upper bound, {@code > 0}
     * @return a uniform {@code long} in {@code [0, n)}
     * @throws IllegalArgumentException if {@code n <= 0}
     */
    @Override
    public long nextLong(long n) {
        return rng.nextLong(n);
    }

    /** @return a uniform {@code boolean} from the wrapped stream */
    @Override
    public boolean nextBoolean() {
        return rng.nextBoolean();
    }

    /** @return a uniform {@code float} in {@code [0, 1)} */
    @Override
    public float nextFloat() {
        return rng.nextFloat();
    }

    /** @return a uniform {@code double} in {@code [0, 1)} */
    @Override
    public double nextDouble() {
        return rng.nextDouble();
    }

    /** @return a standard normal deviate (mean 0, standard deviation 1) from the wrapped stream */
    @Override
    public double nextGaussian() {
        return rng.nextGaussian();
    }
}

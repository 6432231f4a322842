package org.loadlab.studies.asmf;

/**
 * The random source of the ASMF seed's reference model: CPython's {@code random.Random}
 * (Mersenne Twister MT19937 and the draws the {@code random} module derives from it),
 * reproduced bit for bit so that the seed's simulator, which uses nothing else, can be
 * replayed exactly (SPEC.md §4).
 *
 * <p>Sources: M. Matsumoto and T. Nishimura, "Mersenne Twister: a 623-dimensionally
 * equidistributed uniform pseudo-random number generator", ACM TOMACS 8(1), 1998 (the
 * 2002 {@code init_by_array} reference code); CPython 3.11 {@code Modules/_randommodule.c}
 * ({@code random_seed}, {@code genrand_uint32}, {@code random_random},
 * {@code getrandbits}) and {@code Lib/random.py} ({@code _randbelow_with_getrandbits},
 * {@code randrange}, {@code randint}, {@code choice}, {@code uniform},
 * {@code expovariate}, {@code sample}). The unit test checks every draw against numbers
 * produced by CPython 3.11.
 *
 * <p>Not thread-safe; one instance per stream. {@link #nextDouble()} and the integer
 * draws allocate nothing.
 */
public final class PythonRandom {
    private static final int N = 624;
    private static final int M = 397;
    private static final int MATRIX_A = 0x9908b0df;
    private static final int UPPER_MASK = 0x80000000;
    private static final int LOWER_MASK = 0x7fffffff;

    private final int[] mt = new int[N];
    private int mti;
    /** Membership marks of {@link #sample}'s set branch: slot i is taken when mark[i] == generation. */
    private int[] mark = new int[0];
    private int generation;

    /**
     * A generator seeded as CPython's {@code random.Random(seed)} for an integer seed:
     * {@code init_by_array} with the 32-bit words of |seed|, least significant first.
     *
     * @param seed any integer; seeds that differ only in sign give the same stream, as in CPython
     */
    public PythonRandom(long seed) {
        // |seed| as an unsigned 64-bit value (|Long.MIN_VALUE| = 2^63 keeps its bit pattern).
        long magnitude = seed < 0 ? -seed : seed;
        int low = (int) magnitude;
        int high = (int) (magnitude >>> 32);
        initByArray(high != 0 ? new int[] {low, high} : new int[] {low});
    }

    private void initGenrand(int s) {
        mt[0] = s;
        for (mti = 1; mti < N; mti++) {
            mt[mti] = 1812433253 * (mt[mti - 1] ^ (mt[mti - 1] >>> 30)) + mti;
        }
    }

    private void initByArray(int[] key) {
        initGenrand(19650218);
        int i = 1;
        int j = 0;
        for (int k = Math.max(N, key.length); k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
            i++;
            j++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if (j >= key.length) {
                j = 0;
            }
        }
        for (int k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = UPPER_MASK; // MSB is 1, assuring a non-zero initial array
    }

    /** The next 32-bit output of MT19937 ({@code genrand_uint32}), as the bits of an int. */
    public int nextUint32() {
        if (mti >= N) {
            twist();
        }
        int y = mt[mti++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y;
    }

    /**
     * Advances the stream by {@code words} 32-bit outputs without computing them: the same
     * state as {@code words} calls of {@link #nextUint32()} (each {@link #nextDouble()} takes
     * two), for draws whose values are never read.
     *
     * @throws IllegalArgumentException if words is negative
     */
    public void skip(long words) {
        if (words < 0) {
            throw new IllegalArgumentException("skip: words = " + words + ", must be >= 0");
        }
        while (words > 0) {
            if (mti >= N) {
                twist();
            }
            int take = (int) Math.min(words, N - mti);
            mti += take;
            words -= take;
        }
    }

    /** Regenerates the 624 words of state (the first half of {@code genrand_uint32}). */
    private void twist() {
        int kk;
        for (kk = 0; kk < N - M; kk++) {
            int y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
            mt[kk] = mt[kk + M] ^ (y >>> 1) ^ ((y & 1) * MATRIX_A);
        }
        for (; kk < N - 1; kk++) {
            int y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
            mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ ((y & 1) * MATRIX_A);
        }
        int y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
        mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ ((y & 1) * MATRIX_A);
        mti = 0;
    }

    /** {@code random()}: a double in [0, 1) with 53 random bits, from two 32-bit outputs (a >> 5, b >> 6). */
    public double nextDouble() {
        int a = nextUint32() >>> 5;
        int b = nextUint32() >>> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    /**
     * {@code getrandbits(k)}: k random bits; for k &gt; 32 built from 32-bit outputs, least
     * significant word first, the last one shifted right to its remaining width.
     *
     * @param k 0..63
     * @throws IllegalArgumentException if k is outside 0..63
     */
    public long getrandbits(int k) {
        if (k < 0 || k > 63) {
            throw new IllegalArgumentException("getrandbits: k = " + k + ", allowed 0..63");
        }
        if (k <= 32) {
            return k == 0 ? 0 : (nextUint32() & 0xffffffffL) >>> (32 - k);
        }
        long low = nextUint32() & 0xffffffffL;
        long high = (nextUint32() & 0xffffffffL) >>> (64 - k);
        return low | (high << 32);
    }

    /**
     * {@code _randbelow(n)}: uniform in [0, n) by rejection: {@code getrandbits(k)} with
     * k = n.bit_length() until the value is below n.
     *
     * @param n bound, at least 1
     * @throws IllegalArgumentException if n &lt; 1
     */
    public long randbelow(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("randbelow: n = " + n + ", must be at least 1");
        }
        int k = 64 - Long.numberOfLeadingZeros(n);
        long r = getrandbits(k);
        while (r >= n) {
            r = getrandbits(k);
        }
        return r;
    }

    /** {@link #randbelow(long)} for an int bound: uniform in [0, n). */
    public int randbelow(int n) {
        return (int) randbelow((long) n);
    }

    /**
     * {@code randrange(start, stop)}: uniform integer in [start, stop).
     *
     * @throws IllegalArgumentException if stop &lt;= start
     */
    public long randrange(long start, long stop) {
        if (stop <= start) {
            throw new IllegalArgumentException("randrange: empty range [" + start + ", " + stop + ")");
        }
        return start + randbelow(stop - start);
    }

    /** {@code randint(a, b)}: uniform integer in [a, b], both included. */
    public long randint(long a, long b) {
        return randrange(a, b + 1);
    }

    /** {@code choice(seq)} for a sequence of length {@code size}: the index it picks. */
    public int choiceIndex(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("choice: empty sequence");
        }
        return randbelow(size);
    }

    /** {@code uniform(a, b)} = a + (b − a)·random(), evaluated in that order. */
    public double uniform(double a, double b) {
        return a + (b - a) * nextDouble();
    }

    /** {@code expovariate(lambd)} = −log(1 − random())/lambd; lambd is the rate (1/mean). */
    public double expovariate(double lambd) {
        return -Math.log(1.0 - nextDouble()) / lambd;
    }

    /**
     * {@code sample(population, k)} without replacement, in selection order, with both of
     * CPython's branches: when n ≤ setsize (21, plus 4^⌈log₄(3k)⌉ for k &gt; 5) a pool copy
     * from which each pick is replaced by the last unpicked element; otherwise repeated
     * {@code randbelow(n)} draws, rejecting indices already taken.
     *
     * @param population the sequence, of which the first {@code n} elements are sampled
     * @param n population size
     * @param k sample size, 0..n
     * @param out receives the k picked elements (length ≥ k)
     * @param pool scratch of length ≥ n for the pool branch (its content is overwritten)
     * @throws IllegalArgumentException if k is outside 0..n
     */
    public void sample(int[] population, int n, int k, int[] out, int[] pool) {
        if (k < 0 || k > n) {
            throw new IllegalArgumentException("sample: k = " + k + " larger than the population " + n + " or negative");
        }
        if (n <= setsize(k)) {
            System.arraycopy(population, 0, pool, 0, n);
            for (int i = 0; i < k; i++) {
                int j = randbelow(n - i);
                out[i] = pool[j];
                pool[j] = pool[n - i - 1];
            }
            return;
        }
        if (mark.length < n) {
            mark = new int[n];
            generation = 0;
        }
        if (++generation == 0) { // wrapped after 2^32 samples: clear the marks once
            java.util.Arrays.fill(mark, 0);
            generation = 1;
        }
        for (int i = 0; i < k; i++) {
            int j = randbelow(n);
            while (mark[j] == generation) {
                j = randbelow(n);
            }
            mark[j] = generation;
            out[i] = population[j];
        }
    }

    /** CPython's threshold between {@code sample}'s pool and set branches for sample size k. */
    static int setsize(int k) {
        int size = 21; // size of a small set minus size of an empty list
        if (k > 5) {
            size += (int) Math.pow(4, Math.ceil(Math.log(k * 3) / Math.log(4))); // table size for big sets
        }
        return size;
    }
}

package org.loadlab.studies.asmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * {@link PythonRandom} against numbers printed by CPython 3.11.7 here, e.g.
 * {@code r = random.Random(101); [r.randint(1, 8) for _ in range(12)]}. Doubles are compared
 * bit for bit.
 */
class PythonRandomTest {

    private static double[] doubles(int n, DoubleSupplier s) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = s.getAsDouble();
        }
        return out;
    }

    private static long[] longs(int n, LongSupplier s) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = s.getAsLong();
        }
        return out;
    }

    private static int[] range(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static int[] sample(PythonRandom r, int n, int k) {
        int[] out = new int[k];
        r.sample(range(n), n, k, out, new int[n]);
        return out;
    }

    @Test
    void seedingFollowsCPythonForSmallLargeZeroAndNegativeSeeds() {
        PythonRandom seven = new PythonRandom(7);
        assertArrayEquals(new double[] {0.32383276483316237, 0.15084917392450192, 0.6509344730398537}, doubles(3, seven::nextDouble));
        PythonRandom zero = new PythonRandom(0);
        assertArrayEquals(new double[] {0.8444218515250481, 0.7579544029403025}, doubles(2, zero::nextDouble));
        PythonRandom twoWords = new PythonRandom((1L << 40) + 5);
        assertArrayEquals(new double[] {0.5043802970418443, 0.2686044399723282}, doubles(2, twoWords::nextDouble));
        PythonRandom negative = new PythonRandom(-5);
        assertArrayEquals(new double[] {0.6229016948897019, 0.7417869892607294}, doubles(2, negative::nextDouble), "random.Random(-5) == random.Random(5)");
        assertEquals(0.3166448820870279, new PythonRandom(Long.MAX_VALUE).nextDouble());
        PythonRandom long101 = new PythonRandom(101);
        for (int i = 0; i < 10_000; i++) {
            long101.nextDouble();
        }
        assertEquals(0.22989896986811076, long101.nextDouble(), "the 10,001st random() of seed 101 (state regenerated 32 times)");
    }

    @Test
    void getrandbitsTakesTheTopBitsOfEachWordAndBuildsWideValuesLowWordFirst() {
        PythonRandom r = new PythonRandom(101);
        assertArrayEquals(new long[] {2496029389L, 3638342495L, 836464178L}, longs(3, () -> r.getrandbits(32)));
        PythonRandom s = new PythonRandom(101);
        int[] ks = {0, 1, 5, 31, 32, 40, 63};
        long[] expected = {0, 1, 27, 418232089L, 3901453713L, 596851208775L, 3308190476289030054L};
        for (int i = 0; i < ks.length; i++) {
            assertEquals(expected[i], s.getrandbits(ks[i]), "getrandbits(" + ks[i] + ")");
        }
        assertThrows(IllegalArgumentException.class, () -> s.getrandbits(64));
    }

    @Test
    void skipLeavesTheStateOfTheSkippedDraws() {
        for (int words : new int[] {0, 1, 623, 624, 625, 5000}) {
            PythonRandom drawn = new PythonRandom(101);
            for (int i = 0; i < words; i++) {
                drawn.nextUint32();
            }
            PythonRandom skipped = new PythonRandom(101);
            skipped.skip(words);
            assertArrayEquals(doubles(700, drawn::nextDouble), doubles(700, skipped::nextDouble), "after " + words + " words");
        }
        assertThrows(IllegalArgumentException.class, () -> new PythonRandom(1).skip(-1));
    }

    @Test
    void integerDrawsRejectValuesAboveTheBound() {
        PythonRandom a = new PythonRandom(101);
        assertArrayEquals(new long[] {4, 6, 8, 1, 4, 4, 5, 8, 4, 6, 8, 2}, longs(12, () -> a.randint(1, 8)));
        PythonRandom b = new PythonRandom(101);
        assertArrayEquals(new long[] {12, 22, 29, 3, 32, 13, 14, 18, 31, 13, 21, 28}, longs(12, () -> b.randrange(0, 33)));
        PythonRandom c = new PythonRandom(101);
        assertArrayEquals(new long[] {3, 5, 7, 0, 3, 3, 4, 7, 3, 5, 7, 1}, longs(12, () -> c.choiceIndex(8)));
        PythonRandom d = new PythonRandom(101);
        assertArrayEquals(new long[] {1248014694L, 1819171247L}, longs(2, () -> d.randbelow(Integer.MAX_VALUE)));
        assertThrows(IllegalArgumentException.class, () -> d.randbelow(0));
        assertThrows(IllegalArgumentException.class, () -> d.choiceIndex(0));
    }

    @Test
    void continuousDrawsKeepCPythonsExpressions() {
        PythonRandom a = new PythonRandom(101);
        assertArrayEquals(new double[] {15.811521325045646, 11.947544955341368, 19.652511070611112}, doubles(3, () -> a.uniform(10.0, 20.0)));
        PythonRandom b = new PythonRandom(101);
        assertArrayEquals(new double[] {0.008115213250456464, -0.03052455044658633, 0.04652511070611112}, doubles(3, () -> b.uniform(-0.05, 0.05)));
        PythonRandom c = new PythonRandom(101);
        assertArrayEquals(new double[] {1.3053712645914795, 0.324912110350628, 5.039411348028768}, doubles(3, () -> c.expovariate(1.0 / 1.5)));
    }

    @Test
    void sampleUsesTheSetBranchForLargePopulations() {
        assertEquals(21, PythonRandom.setsize(5));
        assertEquals(85, PythonRandom.setsize(6));
        assertEquals(277, PythonRandom.setsize(33));
        assertEquals(1045, PythonRandom.setsize(145));
        PythonRandom a = new PythonRandom(101);
        int[][] thirtyThree = {{12, 22, 29}, {3, 32, 13}, {14, 18, 31}, {13, 21, 28}};
        for (int[] expected : thirtyThree) {
            assertArrayEquals(expected, sample(a, 33, 3));
        }
        PythonRandom b = new PythonRandom(101);
        int[][] large = {{148, 216, 49, 138}, {91, 119, 12, 169}, {128, 54, 154, 56}};
        for (int[] expected : large) {
            assertArrayEquals(expected, sample(b, 220, 4));
        }
        // Seed 2 draws 3, 5, 5: the repeated index is drawn again.
        assertArrayEquals(new int[] {3, 5, 23}, sample(new PythonRandom(2), 33, 3));
        assertArrayEquals(new int[] {30, 75, 69, 16, 47, 77, 60}, sample(new PythonRandom(3), 100, 7));
    }

    @Test
    void sampleUsesThePoolBranchForSmallPopulations() {
        PythonRandom a = new PythonRandom(101);
        int[][] six = {{4, 1}, {4, 2}, {3, 0}, {5, 4}};
        for (int[] expected : six) {
            assertArrayEquals(expected, sample(a, 6, 2));
        }
        assertArrayEquals(new int[] {37, 12, 34, 22, 29, 3, 42, 32, 13, 38}, sample(new PythonRandom(101), 50, 10));
        assertArrayEquals(new int[] {20, 9, 25, 41, 3, 4, 34, 6, 23, 37, 45, 32, 13, 2, 5, 27, 26, 44, 15, 36, 17, 40, 1, 33,
            18, 39, 7, 49, 22, 47, 43, 21, 12}, sample(new PythonRandom(7), 50, 33));
        assertArrayEquals(new int[] {15, 37, 34, 8, 23, 30, 4}, sample(new PythonRandom(3), 40, 7));
        assertThrows(IllegalArgumentException.class, () -> sample(new PythonRandom(1), 3, 4));
    }
}

package org.loadlab.workload.demand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.junit.jupiter.api.Test;

/** Sample moments of each demand distribution against its closed form; determinism; validation. */
class DemandDistributionTest {

    static double[] draw(DemandDistribution d, int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = d.sample();
            assertTrue(x[i] > 0 && Double.isFinite(x[i]), "demand must be finite and > 0, was " + x[i]);
        }
        return x;
    }

    static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    static double median(double[] x) {
        double[] y = x.clone();
        Arrays.sort(y);
        return y[y.length / 2];
    }

    @Test
    void exponentialMeanAndCv() {
        ExponentialDemand d = new ExponentialDemand(1.5, new SplittableRandom(1));
        double[] x = draw(d, 400_000);
        double m = mean(x);
        assertEquals(1.5, m, 0.01 * 1.5);
        double var = 0;
        for (double v : x) {
            var += (v - m) * (v - m);
        }
        assertEquals(1.0, Math.sqrt(var / x.length) / m, 0.02);
        assertEquals(1.5 * Math.log(2), median(x), 0.01 * 1.5);
    }

    @Test
    void deterministic() {
        DeterministicDemand d = new DeterministicDemand(2.5);
        assertEquals(2.5, d.sample());
        assertEquals(2.5, d.mean());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DeterministicDemand(0));
        assertEquals("deterministic demand must be finite and > 0 work units, was 0.0", e.getMessage());
    }

    @Test
    void logNormalMeanAndMedian() {
        LogNormalDemand d = new LogNormalDemand(2.0, 1.0, new SplittableRandom(2));
        assertEquals(Math.log(2) - 0.5, d.location(), 1e-12);
        double[] x = draw(d, 1_000_000);
        assertEquals(2.0, mean(x), 0.02 * 2.0);
        assertEquals(Math.exp(d.location()), median(x), 0.01 * Math.exp(d.location()));
    }

    @Test
    void paretoRobustChecks() {
        ParetoDemand d = new ParetoDemand(1.5, 1.0, new SplittableRandom(3));
        double xm = 1.0 / 3;
        assertEquals(xm, d.scale(), 1e-12);
        double[] x = draw(d, 1_000_000);
        double min = Arrays.stream(x).min().orElseThrow();
        assertTrue(min >= xm, "every sample must be >= x_m, min was " + min);
        assertEquals(d.median(), median(x), 0.01 * d.median());
        // tail probability P(X > 2 x_m) = 2^-α
        long above = Arrays.stream(x).filter(v -> v > 2 * xm).count();
        assertEquals(Math.pow(2, -1.5), above / (double) x.length, 0.003);
        // truncated mean E[min(X, c)] = x_m α/(α-1) - x_m^α c^(1-α)/(α-1) has finite variance
        double c = 100;
        double truncated = Arrays.stream(x).map(v -> Math.min(v, c)).average().orElseThrow();
        double expected = xm * 1.5 / 0.5 - Math.pow(xm, 1.5) * Math.pow(c, -0.5) / 0.5;
        assertEquals(expected, truncated, 0.01 * expected);
        // and the raw mean, with a fixed seed and a wide tolerance (infinite variance)
        assertEquals(1.0, mean(x), 0.10);
    }

    @Test
    void mixtureMeanAndComponentShares() {
        MixtureDemand d = new MixtureDemand(new double[] {9, 0, 1},
                new DemandDistribution[] {new DeterministicDemand(1), new DeterministicDemand(5),
                    new DeterministicDemand(10)}, new SplittableRandom(4));
        assertEquals(0.9 * 1 + 0.1 * 10, d.mean(), 1e-12);
        assertEquals(0.1, d.probability(2), 1e-12);
        double[] x = draw(d, 200_000);
        assertEquals(1.9, mean(x), 0.01 * 1.9);
        assertEquals(0, Arrays.stream(x).filter(v -> v == 5).count(), "zero-weight component never drawn");
        assertEquals(0.1, Arrays.stream(x).filter(v -> v == 10).count() / 200_000.0, 0.003);
    }

    @Test
    void scaledToMean() {
        ScaledDemand d = ScaledDemand.toMean(new ExponentialDemand(1.5, new SplittableRandom(5)), 1.0);
        assertEquals(1.0, d.mean(), 1e-12);
        assertEquals(1.0 / 1.5, d.factor(), 1e-12);
        assertEquals(1.0, mean(draw(d, 400_000)), 0.01);
    }

    @Test
    void seed001SizeMixHasMeanOne() {
        DemandDistribution d = SizeMixes.seed001(1.0, new SplittableRandom(6));
        assertEquals(1.0, d.mean(), 1e-12);
        double[] x = draw(d, 2_000_000);
        assertEquals(1.0, mean(x), 0.05);
        // robust check: sample median vs the mixture's median, from its CDF
        // F(y) = 0.9 Φ(ln y) + 0.1 max(0, 1 - y^-1.5) on the raw scale, raw mean 0.9 e^0.5 + 0.1·3
        double rawMean = 0.9 * Math.exp(0.5) + 0.1 * 3;
        NormalDistribution z = new NormalDistribution(0, 1);
        double lo = 1e-3;
        double hi = 1e3;
        for (int i = 0; i < 200; i++) {
            double y = Math.sqrt(lo * hi);
            double cdf = 0.9 * z.cumulativeProbability(Math.log(y)) + 0.1 * Math.max(0, 1 - Math.pow(y, -1.5));
            if (cdf < 0.5) {
                lo = y;
            } else {
                hi = y;
            }
        }
        double expectedMedian = lo / rawMean;
        assertEquals(expectedMedian, median(x), 0.01 * expectedMedian);
    }

    @Test
    void sameSeedSameSamplesDifferentSeedDifferent() {
        assertArrayEquals(draw(SizeMixes.seed001(1, new SplittableRandom(9)), 1000),
                draw(SizeMixes.seed001(1, new SplittableRandom(9)), 1000));
        assertFalse(Arrays.equals(draw(SizeMixes.seed001(1, new SplittableRandom(9)), 1000),
                draw(SizeMixes.seed001(1, new SplittableRandom(10)), 1000)));
        assertArrayEquals(draw(new ParetoDemand(2, 1, new SplittableRandom(9)), 1000),
                draw(new ParetoDemand(2, 1, new SplittableRandom(9)), 1000));
    }

    @Test
    void validationMessages() {
        SplittableRandom r = new SplittableRandom(1);
        assertEquals("exponential demand mean must be finite and > 0 work units, was -1.0",
                assertThrows(IllegalArgumentException.class, () -> new ExponentialDemand(-1, r)).getMessage());
        assertEquals("log-normal sigma (of the underlying normal) must be finite and > 0, was 0.0",
                assertThrows(IllegalArgumentException.class, () -> new LogNormalDemand(1, 0, r)).getMessage());
        assertEquals("Pareto shape alpha must be finite and > 1 (finite mean), was 1.0",
                assertThrows(IllegalArgumentException.class, () -> new ParetoDemand(1, 1, r)).getMessage());
        assertEquals("mixture weights must have one entry per component (2), had 1",
                assertThrows(IllegalArgumentException.class, () -> new MixtureDemand(new double[] {1},
                        new DemandDistribution[] {new DeterministicDemand(1), new DeterministicDemand(2)}, r))
                        .getMessage());
        assertEquals("mixture weight[1] must be finite and >= 0, was -0.5",
                assertThrows(IllegalArgumentException.class, () -> new MixtureDemand(new double[] {1, -0.5},
                        new DemandDistribution[] {new DeterministicDemand(1), new DeterministicDemand(2)}, r))
                        .getMessage());
        assertEquals("mixture weights must not all be 0, were all 0",
                assertThrows(IllegalArgumentException.class, () -> new MixtureDemand(new double[] {0},
                        new DemandDistribution[] {new DeterministicDemand(1)}, r)).getMessage());
        assertEquals("target mean demand must be finite and > 0 work units, was NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> ScaledDemand.toMean(new DeterministicDemand(1), Double.NaN)).getMessage());
    }

    @Test
    void adapterForwardsAndRefusesReseeding() {
        HipparchusRandomAdapter a = new HipparchusRandomAdapter(new SplittableRandom(12));
        SplittableRandom b = new SplittableRandom(12);
        assertEquals(b.nextDouble(), a.nextDouble());
        assertEquals(b.nextLong(), a.nextLong());
        assertEquals(b.nextInt(7), a.nextInt(7));
        byte[] x = new byte[13];
        a.nextBytes(x, 2, 9);
        assertEquals(0, x[0]);
        assertEquals(0, x[11]);
        assertThrows(UnsupportedOperationException.class, () -> a.setSeed(1L));
        assertThrows(IndexOutOfBoundsException.class, () -> a.nextBytes(x, 10, 9));
    }
}

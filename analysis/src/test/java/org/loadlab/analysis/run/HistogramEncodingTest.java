package org.loadlab.analysis.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * {@link PercentileWalk} and {@link V2Encoding} against HdrHistogram 2.2.2's own
 * {@code getValueAtPercentile} and {@code encodeIntoCompressedByteBuffer}, on random
 * histograms of many shapes, resolutions and sizes (one thread, so the reused scratch
 * space goes from large to small histograms and back).
 */
class HistogramEncodingTest {

    private static final double[] FIXED = {0.0, Double.MIN_VALUE, 1e-9, 0.1, 1.0, 25.0, 50.0, 90.0, 95.0,
        99.0, 99.9, 99.99, 99.999, Math.nextDown(100.0), 100.0};

    @Test
    void onePassGivesHdrHistogramsValueAtEveryPercentile() {
        SplittableRandom random = new SplittableRandom(16);
        for (int h = 0; h < 600; h++) {
            Histogram histogram = randomHistogram(random, h);
            double[] percentiles = percentiles(random);
            long[] walked = PercentileWalk.valuesAtPercentiles(histogram, V2Encoding.uncompressed(histogram), percentiles);
            for (int k = 0; k < percentiles.length; k++) {
                assertEquals(histogram.getValueAtPercentile(percentiles[k]), walked[k],
                        "histogram " + h + " (" + histogram.getTotalCount() + " values, "
                                + histogram.getNumberOfSignificantValueDigits() + " digits), percentile " + percentiles[k]);
            }
        }
    }

    @Test
    void encodingIsHdrHistogramsCompressedEncodingByteForByte() {
        SplittableRandom random = new SplittableRandom(17);
        for (int h = 0; h < 600; h++) {
            Histogram histogram = randomHistogram(random, h);
            ByteBuffer reference = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
            int length = histogram.encodeIntoCompressedByteBuffer(reference);
            String expected = Base64.getEncoder().encodeToString(Arrays.copyOf(reference.array(), length));
            assertEquals(expected, V2Encoding.compressedBase64(V2Encoding.uncompressed(histogram)), "histogram " + h);
        }
    }

    @Test
    void responseTimeHistogramAnswersAsTheSingleCallsAndRoundTrips() {
        SplittableRandom random = new SplittableRandom(18);
        for (int h = 0; h < 50; h++) {
            Histogram accumulator = ResponseTimeHistogram.newAccumulator();
            int values = 1 + random.nextInt(5_000);
            for (int i = 0; i < values; i++) {
                accumulator.recordValue(ResponseTimeHistogram.toNanos(Math.exp(random.nextDouble(-9, 3))));
            }
            ResponseTimeHistogram histogram = ResponseTimeHistogram.adopt(accumulator);
            double[] percentiles = {99.9, 0, 50, 100, 95, 99};
            double[] together = histogram.valuesAtPercentiles(percentiles);
            for (int k = 0; k < percentiles.length; k++) {
                assertEquals(histogram.valueAtPercentile(percentiles[k]), together[k]);
            }
            assertEquals(histogram, ResponseTimeHistogram.decode(histogram.encode()));
        }
    }

    @Test
    void emptyHistogramGivesNaNAndBadPercentilesAreRefused() {
        ResponseTimeHistogram empty = ResponseTimeHistogram.empty();
        double[] values = empty.valuesAtPercentiles(0, 50, 100);
        assertEquals(3, values.length);
        assertTrue(Arrays.stream(values).allMatch(Double::isNaN));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> empty.valuesAtPercentiles(50, 100.5));
        assertTrue(e.getMessage().contains("100.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> empty.valuesAtPercentiles(Double.NaN));
        assertEquals(0, PercentileWalk.valuesAtPercentiles(new Histogram(3),
                V2Encoding.uncompressed(new Histogram(3)), 50)[0]);
    }

    @Test
    void sealedDurationsHandTheHistogramOverAndRecordNoMore() {
        DurationStats stats = new DurationStats(true);
        stats.record(0.5);
        ResponseTimeHistogram before = stats.snapshot();
        ResponseTimeHistogram sealed = stats.seal();
        assertEquals(before, sealed);
        assertSame(sealed, stats.seal());
        assertSame(sealed, stats.snapshot());
        assertThrows(IllegalStateException.class, () -> stats.record(1.0));
        assertEquals(1, sealed.count());
        assertThrows(IllegalStateException.class, () -> new DurationStats(false).seal());
    }

    /** A histogram of one of several shapes: log-uniform over a wide range, one value, a narrow cluster, heavy counts. */
    private static Histogram randomHistogram(SplittableRandom random, int h) {
        int digits = h % 5 == 0 ? 1 + random.nextInt(5) : 3;
        Histogram histogram = h % 7 == 0
                ? new Histogram(1L << random.nextInt(12), 1L << 50, digits) // lowest discernible > 1: unit magnitude > 0
                : new Histogram(digits);
        long low = h % 7 == 0 ? histogram.getLowestDiscernibleValue() : 1;
        int values = h % 11 == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(20_000);
        int shape = h % 4;
        double centre = Math.exp(random.nextDouble(0, 23));
        for (int i = 0; i < values; i++) {
            long value = switch (shape) {
                case 0 -> (long) Math.exp(random.nextDouble(0, 30)); // 1 ns .. ~10^13
                case 1 -> (long) centre;
                case 2 -> (long) (centre * (1 + random.nextGaussian() * 0.01));
                default -> (long) Math.exp(random.nextDouble(10, 22));
            };
            long count = shape == 3 ? 1 + random.nextLong(1L << 40) : 1;
            histogram.recordValueWithCount(Math.max(low, Math.min(value, 1L << 49)), count);
        }
        return histogram;
    }

    /** The fixed edge percentiles and some uniform ones, shuffled. */
    private static double[] percentiles(SplittableRandom random) {
        double[] percentiles = Arrays.copyOf(FIXED, FIXED.length + 10);
        for (int k = FIXED.length; k < percentiles.length; k++) {
            percentiles[k] = random.nextDouble(0, 100);
        }
        for (int k = percentiles.length - 1; k > 0; k--) {
            int j = random.nextInt(k + 1);
            double t = percentiles[k];
            percentiles[k] = percentiles[j];
            percentiles[j] = t;
        }
        return percentiles;
    }
}

package org.loadlab.analysis.run;

import org.HdrHistogram.AbstractHistogram;

/**
 * Several percentiles of a histogram in one pass over its uncompressed V2 encoding, with the
 * values {@code AbstractHistogram.getValueAtPercentile} gives, bit for bit.
 *
 * <p>HdrHistogram answers each percentile with a scan of the counts array from index 0; a
 * histogram of nanoseconds with 3 digits has about 20,000 buckets below one second, nearly all
 * empty, so four percentiles cost four such scans. The V2 encoding ({@link V2Encoding}) holds
 * the same counts by index with every run of empty buckets as one number, so one walk over
 * those numbers (one per non-empty bucket or run of empty ones) reaches every percentile.
 *
 * <p>The rule reproduced (HdrHistogram 2.2.2, {@code getValueAtPercentile}): the percentile p
 * less one ulp, clipped to [0, 100], gives the count {@code max(1, ceil(p·total/100))}; the
 * answer is the first bucket whose cumulative count reaches it, as its highest equivalent
 * value, or its lowest for p = 0. A bucket's value comes from its index as in HdrHistogram's
 * {@code valueFromIndex}, with the bucket layout derived from the histogram's significant
 * digits and lowest discernible value as its constructor derives it.
 *
 * <p>Source: HdrHistogram 2.2.2 ({@code AbstractHistogram.getValueAtPercentile}, {@code init},
 * {@code valueFromIndex}, {@code ZigZagEncoding.getLong}).
 */
final class PercentileWalk {

    private PercentileWalk() {
    }

    /**
     * The values at several percentiles.
     *
     * @param histogram the histogram that {@code encoding} encodes (for its bucket layout and
     *     total count); not modified
     * @param encoding {@link V2Encoding#uncompressed} of {@code histogram}
     * @param percentiles percentiles in [0, 100] (not checked here), any order
     * @return for each percentile, in the same order, the value in the histogram's unit;
     *     0 for every percentile when the histogram is empty (as HdrHistogram)
     */
    static long[] valuesAtPercentiles(AbstractHistogram histogram, byte[] encoding, double... percentiles) {
        int n = percentiles.length;
        long total = histogram.getTotalCount();
        long[] target = new long[n];
        long nextTarget = Long.MAX_VALUE; // the smallest target not reached yet
        for (int k = 0; k < n; k++) {
            target[k] = countAtPercentile(percentiles[k], total);
            nextTarget = Math.min(nextTarget, target[k]);
        }
        long[] values = new long[n];
        boolean[] found = new boolean[n];
        int left = total == 0 ? 0 : n;
        int unitMagnitude = (int) (Math.log(histogram.getLowestDiscernibleValue()) / Math.log(2));
        long largestWithUnitResolution = 2 * (long) Math.pow(10, histogram.getNumberOfSignificantValueDigits());
        int halfCountMagnitude = (int) Math.ceil(Math.log(largestWithUnitResolution) / Math.log(2)) - 1;

        int end = V2Encoding.HEADER_BYTES + readInt(encoding, 4);
        int position = V2Encoding.HEADER_BYTES;
        int index = 0;
        long cumulative = 0;
        while (left > 0 && position < end) {
            // ZigZag LEB128-64b9B (ZigZagEncoding.getLong): 7 bits a byte, the ninth byte whole.
            long raw = 0;
            for (int shift = 0; ; shift += 7) {
                int b = encoding[position++];
                if (shift == 56) {
                    raw |= (long) (b & 0xFF) << 56;
                    break;
                }
                raw |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            long count = (raw >>> 1) ^ -(raw & 1);
            if (count < 0) { // a run of -count empty buckets
                index += (int) -count;
                continue;
            }
            cumulative += count;
            if (cumulative < nextTarget) {
                index++;
                continue;
            }
            nextTarget = Long.MAX_VALUE;
            for (int k = 0; k < n; k++) {
                if (!found[k] && cumulative >= target[k]) {
                    long value = valueFromIndex(index, halfCountMagnitude, unitMagnitude);
                    values[k] = percentiles[k] == 0.0
                            ? histogram.lowestEquivalentValue(value)
                            : histogram.highestEquivalentValue(value);
                    found[k] = true;
                    left--;
                } else if (!found[k]) {
                    nextTarget = Math.min(nextTarget, target[k]);
                }
            }
            index++;
        }
        return values;
    }

    /** HdrHistogram's count at a percentile: p less one ulp, clipped, times the total, rounded up, at least 1. */
    private static long countAtPercentile(double percentile, long total) {
        double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0D), 100.0D);
        double fpCount = (requested * total) / 100.0D;
        return Math.max((long) Math.ceil(fpCount), 1);
    }

    /** The lowest value of the bucket at {@code index} (HdrHistogram's {@code valueFromIndex}). */
    private static long valueFromIndex(int index, int halfCountMagnitude, int unitMagnitude) {
        int halfCount = 1 << halfCountMagnitude;
        int bucketIndex = (index >> halfCountMagnitude) - 1;
        int subBucketIndex = (index & (halfCount - 1)) + halfCount;
        if (bucketIndex < 0) {
            subBucketIndex -= halfCount;
            bucketIndex = 0;
        }
        return ((long) subBucketIndex) << (bucketIndex + unitMagnitude);
    }

    private static int readInt(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8 | (bytes[at + 3] & 0xFF);
    }
}

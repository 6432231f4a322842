package org.loadlab.analysis.run;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * An immutable distribution of response (sojourn) times, for percentiles and CDF plots.
 *
 * <p>Backed by an HdrHistogram {@link Histogram} of <b>nanoseconds</b> with 3 significant
 * decimal digits and auto-resizing range (1 ns up to about 292 years), so any quantile is
 * within 0.1% of the true sample quantile and memory depends on the range of values, not on
 * their number. Values are stored rounded to the nearest nanosecond; the API speaks seconds.
 *
 * <p>Encoding: {@link #encode()} gives the Base64 text of HdrHistogram's standard compressed
 * V2 encoding (the format {@code HistogramLogWriter} uses per interval), readable by any
 * HdrHistogram implementation; it carries no timestamps, so it is deterministic.
 *
 * <p>Source: HdrHistogram 2.2.2 ({@code org.HdrHistogram.Histogram}); DESIGN.md (HdrHistogram
 * for latency distributions).
 */
public final class ResponseTimeHistogram {

    /** Nanoseconds per second: the histogram's value unit. */
    static final double NANOS_PER_SECOND = 1e9;

    /** Significant decimal digits kept by every response-time histogram. */
    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram nanos;
    // The uncompressed V2 encoding of nanos, made once when first needed (nanos never changes).
    private volatile byte[] v2;

    private ResponseTimeHistogram(Histogram nanos) {
        this.nanos = nanos;
    }

    /**
     * Creates the mutable accumulator a recorder fills: nanoseconds, 3 significant digits,
     * auto-resizing.
     *
     * @return a new empty histogram
     */
    static Histogram newAccumulator() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }

    /**
     * Converts seconds to the histogram's unit (nanoseconds, rounded).
     *
     * @param seconds a non-negative duration, seconds
     * @return nanoseconds
     */
    static long toNanos(double seconds) {
        return Math.round(seconds * NANOS_PER_SECOND);
    }

    /**
     * An empty histogram, for models that measure no response times (e.g. the ASMF seed's
     * time-stepped reference model, which serves work units, not requests).
     *
     * @return a histogram with no values
     */
    public static ResponseTimeHistogram empty() {
        return new ResponseTimeHistogram(newAccumulator());
    }

    /**
     * Takes an immutable snapshot of an accumulator.
     *
     * @param accumulator histogram of nanoseconds; it is copied, later changes do not show
     * @return the snapshot
     */
    static ResponseTimeHistogram copyOf(Histogram accumulator) {
        return new ResponseTimeHistogram(accumulator.copy());
    }

    /**
     * Wraps an accumulator that its owner hands over and never changes again, without a copy
     * (a finished recorder's histogram: copying it was a tenth of a short run's finish).
     *
     * @param accumulator histogram of nanoseconds; the caller must not record into it afterwards
     * @return the distribution, sharing {@code accumulator}
     */
    static ResponseTimeHistogram adopt(Histogram accumulator) {
        return new ResponseTimeHistogram(accumulator);
    }

    /**
     * Decodes text made by {@link #encode()}.
     *
     * @param base64 Base64 of a compressed HdrHistogram V2 encoding of nanoseconds
     * @return the decoded distribution
     * @throws IllegalArgumentException if the text is not valid Base64 or not a compressed
     *     HdrHistogram encoding
     * @throws NullPointerException if {@code base64} is null
     */
    public static ResponseTimeHistogram decode(String base64) {
        Objects.requireNonNull(base64, "base64");
        try {
            ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
            return new ResponseTimeHistogram(Histogram.decodeFromCompressedByteBuffer(buffer, 0));
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "responseHistogram: not a Base64 compressed HdrHistogram encoding: " + e.getMessage(), e);
        }
    }

    /**
     * Encodes the distribution compactly (see the class comment).
     *
     * @return Base64 text of the compressed HdrHistogram V2 encoding (nanoseconds), byte for
     *     byte what {@code Histogram.encodeIntoCompressedByteBuffer} gives
     */
    public String encode() {
        return V2Encoding.compressedBase64(uncompressedEncoding());
    }

    /**
     * The uncompressed V2 encoding, made on first use and kept: {@link #encode()} and
     * {@link #valuesAtPercentiles} read the counts from it instead of scanning the counts array.
     */
    private byte[] uncompressedEncoding() {
        byte[] encoding = v2;
        if (encoding == null) {
            encoding = V2Encoding.uncompressed(nanos);
            v2 = encoding;
        }
        return encoding;
    }

    /**
     * Number of response times recorded.
     *
     * @return count of observations (after warm-up, when made by a {@link RunRecorder})
     */
    public long count() {
        return nanos.getTotalCount();
    }

    /**
     * The response time at a percentile: the largest value equivalent (within the histogram's
     * 0.1% resolution) to the recorded value below which {@code percentile}% of observations lie.
     *
     * @param percentile percentile in [0, 100], e.g. 99.9
     * @return response time, seconds; NaN when the histogram is empty
     * @throws IllegalArgumentException if {@code percentile} is outside [0, 100] or NaN
     */
    public double valueAtPercentile(double percentile) {
        if (!(percentile >= 0.0 && percentile <= 100.0)) {
            throw new IllegalArgumentException("percentile: " + percentile + " is not in [0, 100]");
        }
        if (nanos.getTotalCount() == 0) {
            return Double.NaN;
        }
        return nanos.getValueAtPercentile(percentile) / NANOS_PER_SECOND;
    }

    /**
     * The response times at several percentiles in one pass over the counts, each exactly
     * {@link #valueAtPercentile(double)}'s value.
     *
     * @param percentiles percentiles in [0, 100], any order, e.g. 50, 95, 99, 99.9
     * @return response times, seconds, in the order of {@code percentiles}; all NaN when the
     *     histogram is empty
     * @throws IllegalArgumentException if a percentile is outside [0, 100] or NaN
     * @throws NullPointerException if {@code percentiles} is null
     */
    public double[] valuesAtPercentiles(double... percentiles) {
        for (double percentile : percentiles) {
            if (!(percentile >= 0.0 && percentile <= 100.0)) {
                throw new IllegalArgumentException("percentile: " + percentile + " is not in [0, 100]");
            }
        }
        double[] seconds = new double[percentiles.length];
        if (nanos.getTotalCount() == 0) {
            Arrays.fill(seconds, Double.NaN);
            return seconds;
        }
        long[] values = PercentileWalk.valuesAtPercentiles(nanos, uncompressedEncoding(), percentiles);
        for (int k = 0; k < values.length; k++) {
            seconds[k] = values[k] / NANOS_PER_SECOND;
        }
        return seconds;
    }

    /**
     * Empirical CDF: the fraction of response times at or below a value, for CDF plots.
     *
     * @param seconds response time, seconds
     * @return fraction in [0, 1]; NaN when the histogram is empty
     */
    public double fractionAtOrBelow(double seconds) {
        if (nanos.getTotalCount() == 0) {
            return Double.NaN;
        }
        if (seconds < 0) {
            return 0.0;
        }
        return nanos.getPercentileAtOrBelowValue(toNanos(seconds)) / 100.0;
    }

    /**
     * The largest recorded response time at the histogram's resolution.
     *
     * @return seconds; NaN when empty
     */
    public double maxSeconds() {
        return nanos.getTotalCount() == 0 ? Double.NaN : nanos.getMaxValue() / NANOS_PER_SECOND;
    }

    /**
     * A mutable copy of the underlying HdrHistogram, for callers that need its iterators
     * (e.g. {@code percentiles(ticks)} for plots).
     *
     * @return a new histogram of <b>nanoseconds</b>
     */
    public Histogram copyOfNanos() {
        return nanos.copy();
    }

    /**
     * Two histograms are equal when they hold the same counts at the same resolution.
     *
     * @param o another object
     * @return true when equal
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof ResponseTimeHistogram other && nanos.equals(other.nanos);
    }

    /**
     * Hash code consistent with {@link #equals(Object)}.
     *
     * @return hash of the underlying histogram
     */
    @Override
    public int hashCode() {
        return nanos.hashCode();
    }

    /**
     * Short description for logs.
     *
     * @return count, p50 and p99 in seconds
     */
    @Override
    public String toString() {
        return "ResponseTimeHistogram[count=" + count() + ", p50=" + valueAtPercentile(50)
                + "s, p99=" + valueAtPercentile(99) + "s]";
    }
}

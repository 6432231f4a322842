package org.loadlab.analysis.run;

import org.HdrHistogram.Histogram;

/**
 * Running count, exact sum and exact maximum of durations (seconds), optionally also an
 * HdrHistogram for quantiles. Allocation-free per observation (except the histogram's rare,
 * bounded range growth).
 */
final class DurationStats {

    private final Histogram histogram;
    private long count;
    private double sum;
    private double max = Double.NaN;

    /**
     * @param withHistogram whether to keep a nanosecond histogram for quantiles
     */
    DurationStats(boolean withHistogram) {
        this.histogram = withHistogram ? ResponseTimeHistogram.newAccumulator() : null;
    }

    /**
     * Adds one observation.
     *
     * @param seconds duration, seconds, non-negative (checked by the caller)
     */
    void record(double seconds) {
        count++;
        sum += seconds;
        if (!(seconds <= max)) { // also true while max is NaN (first observation)
            max = seconds;
        }
        if (histogram != null) {
            histogram.recordValue(ResponseTimeHistogram.toNanos(seconds));
        }
    }

    /** @return number of observations */
    long count() {
        return count;
    }

    /** @return exact mean, seconds; NaN when empty */
    double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    /** @return exact maximum, seconds; NaN when empty */
    double max() {
        return max;
    }

    /**
     * @return an immutable copy of the histogram
     * @throws IllegalStateException if built without a histogram
     */
    ResponseTimeHistogram snapshot() {
        if (histogram == null) {
            throw new IllegalStateException("no histogram kept for these durations");
        }
        return ResponseTimeHistogram.copyOf(histogram);
    }

    /** @return the histogram's estimated memory footprint, bytes (0 without histogram) */
    int histogramFootprintBytes() {
        return histogram == null ? 0 : histogram.getEstimatedFootprintInBytes();
    }
}

package org.loadlab.analysis.run;

import org.HdrHistogram.Histogram;

/**
 * Running count, exact sum and exact maximum of durations (seconds), optionally also an
 * HdrHistogram for quantiles. Allocation-free per observation (except the histogram's rare,
 * bounded range growth).
 */
final class DurationStats {

    private final Histogram histogram;
    // The histogram handed over by seal(); once set, nothing is recorded any more.
    private ResponseTimeHistogram sealed;
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
        if (sealed != null) {
            throw new IllegalStateException("these durations are sealed; no more observations");
        }
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
     * The histogram so far, as an immutable copy; after {@link #seal()} the sealed histogram
     * itself (nothing changes it any more).
     *
     * @return the response-time distribution so far
     * @throws IllegalStateException if built without a histogram
     */
    ResponseTimeHistogram snapshot() {
        if (histogram == null) {
            throw new IllegalStateException("no histogram kept for these durations");
        }
        return sealed != null ? sealed : ResponseTimeHistogram.copyOf(histogram);
    }

    /**
     * Ends the observations and hands the histogram over without copying it: every later
     * {@link #record} throws, so the returned histogram stays immutable. Calling it again
     * returns the same histogram.
     *
     * @return the final distribution
     * @throws IllegalStateException if built without a histogram
     */
    ResponseTimeHistogram seal() {
        if (histogram == null) {
            throw new IllegalStateException("no histogram kept for these durations");
        }
        if (sealed == null) {
            sealed = ResponseTimeHistogram.adopt(histogram);
        }
        return sealed;
    }

    /** @return the histogram's estimated memory footprint, bytes (0 without histogram) */
    int histogramFootprintBytes() {
        return histogram == null ? 0 : histogram.getEstimatedFootprintInBytes();
    }
}

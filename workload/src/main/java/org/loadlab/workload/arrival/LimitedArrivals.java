package org.loadlab.workload.arrival;

import java.util.Objects;

/**
 * Truncates another arrival process: passes through at most {@code maxRequests} arrivals, and
 * only those strictly before {@code endTimeSeconds}; after that {@link #next()} returns
 * {@link Double#POSITIVE_INFINITY} forever (the underlying process is not advanced again).
 *
 * <p>Source: SPEC.md §4 (600 s runs), §5 (30,000 requests).
 */
public final class LimitedArrivals implements ArrivalProcess {

    private final ArrivalProcess source;
    private final long maxRequests;
    private final double endTime;
    private long count;
    private boolean exhausted;

    /**
     * @param source the process to truncate
     * @param maxRequests maximum number of arrivals, {@code >= 0} ({@link Long#MAX_VALUE}: no count limit)
     * @param endTimeSeconds arrivals at or after this time are dropped, in seconds, {@code > 0}
     *     ({@link Double#POSITIVE_INFINITY}: no time limit)
     * @throws IllegalArgumentException if {@code maxRequests < 0} or {@code endTimeSeconds} is not {@code > 0}
     * @throws NullPointerException if {@code source} is {@code null}
     */
    public LimitedArrivals(ArrivalProcess source, long maxRequests, double endTimeSeconds) {
        this.source = Objects.requireNonNull(source, "source");
        if (maxRequests < 0) {
            throw new IllegalArgumentException("maximum number of requests must be >= 0, was " + maxRequests);
        }
        if (!(endTimeSeconds > 0)) {
            throw new IllegalArgumentException("end time must be > 0 seconds (or +Infinity for none), was "
                    + endTimeSeconds);
        }
        this.maxRequests = maxRequests;
        this.endTime = endTimeSeconds;
    }

    /** @return the next arrival time in seconds, or {@code +∞} once the count or time limit is reached */
    @Override
    public double next() {
        if (exhausted) {
            return Double.POSITIVE_INFINITY;
        }
        if (count >= maxRequests) {
            exhausted = true;
            return Double.POSITIVE_INFINITY;
        }
        double t = source.next();
        if (!(t < endTime)) {
            exhausted = true;
            return Double.POSITIVE_INFINITY;
        }
        count++;
        return t;
    }

    /** @return the underlying process's demand for the last arrival, or NaN (also once exhausted) */
    @Override
    public double attachedDemand() {
        return exhausted ? Double.NaN : source.attachedDemand();
    }

    /** @return the underlying process's long-run mean rate in requests/s (the truncation is not reflected) */
    @Override
    public double meanRate() {
        return source.meanRate();
    }

    /** @return number of arrivals returned so far */
    public long count() {
        return count;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "LimitedArrivals[" + source + ", max " + maxRequests + " requests, end " + endTime + " s]";
    }
}

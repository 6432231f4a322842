package org.loadlab.workload.arrival;

import java.util.Objects;

/**
 * A load spike on top of another rate: λ(t) = base(t)·factor for {@code t} in
 * {@code [fromSeconds, toSeconds)}, base(t) elsewhere.
 *
 * <p>The spike is a one-off transient, so {@link #meanRate()} (long-run) is the base's mean; use
 * {@link #meanRateOver(double)} for the offered load of a finite run.
 * Source: SPEC.md §1 (load spike event, λ × m) and §4 ({@code spike_medium}: λ × 2 from 300 s
 * to 360 s).
 */
public final class SpikeRate implements RateFunction {

    private final RateFunction base;
    private final double from;
    private final double to;
    private final double factor;

    /**
     * @param base the rate outside the spike
     * @param fromSeconds start of the spike in seconds, finite and {@code >= 0}
     * @param toSeconds end of the spike (exclusive) in seconds, finite and {@code > fromSeconds}
     * @param factor multiplier during the spike, finite and {@code >= 0} (0 models an outage of
     *     the source, values below 1 a dip)
     * @throws IllegalArgumentException if a parameter is outside its range
     * @throws NullPointerException if {@code base} is {@code null}
     */
    public SpikeRate(RateFunction base, double fromSeconds, double toSeconds, double factor) {
        this.base = Objects.requireNonNull(base, "base");
        this.from = Checks.nonNegative(fromSeconds, "spike start", "seconds");
        if (!(toSeconds > fromSeconds) || Double.isInfinite(toSeconds)) {
            throw new IllegalArgumentException("spike end must be finite and > spike start (" + fromSeconds
                    + " seconds), was " + toSeconds);
        }
        this.to = toSeconds;
        this.factor = Checks.nonNegative(factor, "spike factor", "");
    }

    /**
     * @param t time in seconds
     * @return {@code true} if {@code t} lies in {@code [from, to)}
     */
    public boolean inSpike(double t) {
        return t >= from && t < to;
    }

    /** @return base(t)·factor inside the spike, base(t) outside, in requests/s */
    @Override
    public double rate(double t) {
        double r = base.rate(t);
        return inSpike(t) ? r * factor : r;
    }

    /** @return base.maxRate()·max(1, factor) in requests/s */
    @Override
    public double maxRate() {
        return base.maxRate() * Math.max(1, factor);
    }

    /** @return the base's long-run mean rate in requests/s (the spike is transient) */
    @Override
    public double meanRate() {
        return base.meanRate();
    }

    /**
     * Mean rate over {@code [0, horizonSeconds)}, approximating the base as its mean:
     * {@code base.meanRate()·(1 + (factor − 1)·|[from,to) ∩ [0,horizon)|/horizon)}. Exact for a
     * {@link ConstantRate} base.
     *
     * @param horizonSeconds run length in seconds, finite and {@code > 0}
     * @return the mean rate in requests/s
     * @throws IllegalArgumentException if {@code horizonSeconds} is not finite and {@code > 0}
     */
    public double meanRateOver(double horizonSeconds) {
        Checks.positive(horizonSeconds, "horizon", "seconds");
        double overlap = Math.max(0, Math.min(to, horizonSeconds) - from);
        return base.meanRate() * (1 + (factor - 1) * overlap / horizonSeconds);
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "SpikeRate[" + base + " x" + factor + " in [" + from + ", " + to + ") s]";
    }
}

package org.loadlab.workload.trace;

import java.util.Objects;

/**
 * Time compression for trace replay: replaying offset {@code t_i} at {@code t_i / c} multiplies
 * the arrival rate by {@code c}.
 *
 * <p>Source: Azure trace README (replay "optionally compressed in time to reach a target
 * utilisation").
 */
public final class TraceCompression {

    private TraceCompression() {
    }

    /**
     * The compression factor {@code c = targetArrivalRate / trace.meanRate()} so that the replayed
     * mean rate is {@code targetArrivalRate}. {@code c > 1} speeds the trace up, {@code c < 1}
     * slows it down. For utilisation ρ: {@code targetArrivalRate = ρ·Σμ / E[D]}.
     *
     * @param trace the trace; its span must be {@code > 0}
     * @param targetArrivalRate wanted λ in requests/s, finite and {@code > 0}
     * @return the compression factor, finite and {@code > 0}
     * @throws IllegalArgumentException if the rate is not finite and {@code > 0}, or the trace has no span
     * @throws NullPointerException if {@code trace} is {@code null}
     */
    public static double compressionFor(Trace trace, double targetArrivalRate) {
        Objects.requireNonNull(trace, "trace");
        if (!(targetArrivalRate > 0) || Double.isInfinite(targetArrivalRate)) {
            throw new IllegalArgumentException("target arrival rate must be finite and > 0 requests/s, was "
                    + targetArrivalRate);
        }
        double rate = trace.meanRate();
        if (!(rate > 0)) {
            throw new IllegalArgumentException("trace " + trace.source()
                    + " must span > 0 seconds with >= 2 records to be compressed, spanned " + trace.spanSeconds()
                    + " s with " + trace.size() + " records");
        }
        return targetArrivalRate / rate;
    }
}

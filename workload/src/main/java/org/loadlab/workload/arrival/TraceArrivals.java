package org.loadlab.workload.arrival;

import java.util.Objects;
import org.loadlab.workload.trace.Trace;
import org.loadlab.workload.trace.TokenDemandModel;

/**
 * Replays a trace's arrival instants: record {@code i} arrives at {@code (t_i − t_0)/c} seconds,
 * with {@code c} the compression factor (see
 * {@link org.loadlab.workload.trace.TraceCompression#compressionFor(Trace, double)}); the first
 * record arrives at time 0. Deterministic: consumes no randomness.
 *
 * <p>Looping: when {@code loop} is set, pass {@code k} (from 0) replays every record shifted by
 * {@code k·L} with {@code L = (span + span/(n − 1))/c}, i.e. the next pass starts one mean
 * inter-arrival gap after the last record of the previous pass; the long-run rate is then exactly
 * {@code c·trace.meanRate()}. Without looping the process is exhausted after {@code n} arrivals
 * ({@code +∞}). Combine with {@link LimitedArrivals} to stop at a request count or horizon.
 *
 * <p>Demand: with a {@link TokenDemandModel}, {@link #attachedDemand()} returns the record's demand
 * (work units, precomputed once over the whole trace so its mean is the model's target);
 * otherwise NaN. Source: Azure LLM inference trace 2023 (Patel et al., "Splitwise", ISCA 2024).
 */
public final class TraceArrivals implements ArrivalProcess {

    private final Trace trace;
    private final double compression;
    private final boolean loop;
    private final double[] demands;
    private final double loopLength;
    private final int n;
    private int index = -1;
    private long pass;
    private boolean exhausted;

    /**
     * @param trace the trace; for looping it must span {@code > 0} seconds
     * @param compression time compression c, finite and {@code > 0} (1 replays in real time;
     *     2 twice as fast)
     * @param loop whether to restart from the first record after the last
     * @param demandModel model for attached demands, or {@code null} for none (NaN)
     * @throws IllegalArgumentException if {@code compression} is not finite and {@code > 0}, or the
     *     trace has a zero span (its mean rate would be undefined)
     * @throws NullPointerException if {@code trace} is {@code null}
     */
    public TraceArrivals(Trace trace, double compression, boolean loop, TokenDemandModel demandModel) {
        this.trace = Objects.requireNonNull(trace, "trace");
        this.compression = Checks.positive(compression, "trace compression factor", "");
        if (!(trace.spanSeconds() > 0)) {
            throw new IllegalArgumentException("trace " + trace.source() + " must span > 0 seconds to be replayed, spanned "
                    + trace.spanSeconds() + " s with " + trace.size() + " records");
        }
        this.loop = loop;
        this.n = trace.size();
        this.demands = demandModel == null ? null : demandModel.demands(trace);
        double span = trace.spanSeconds();
        this.loopLength = (span + span / (n - 1)) / compression;
    }

    /**
     * Replay without attached demands ({@link #attachedDemand()} is NaN).
     *
     * @param trace the trace
     * @param compression time compression c, finite and {@code > 0}
     * @param loop whether to loop
     * @throws IllegalArgumentException as {@link #TraceArrivals(Trace, double, boolean, TokenDemandModel)}
     * @throws NullPointerException if {@code trace} is {@code null}
     */
    public TraceArrivals(Trace trace, double compression, boolean loop) {
        this(trace, compression, loop, null);
    }

    /** @return the next replayed arrival time in seconds, or {@code +∞} after the last record when not looping */
    @Override
    public double next() {
        if (exhausted) {
            return Double.POSITIVE_INFINITY;
        }
        index++;
        if (index == n) {
            if (!loop) {
                exhausted = true;
                return Double.POSITIVE_INFINITY;
            }
            index = 0;
            pass++;
        }
        return pass * loopLength + trace.offset(index) / compression;
    }

    /** @return the demand of the last returned record in work units, or NaN without a demand model or before/after the replay */
    @Override
    public double attachedDemand() {
        return demands == null || exhausted || index < 0 ? Double.NaN : demands[index];
    }

    /** @return {@code c·trace.meanRate()} in requests/s (exact long-run rate when looping; over one pass otherwise) */
    @Override
    public double meanRate() {
        return compression * trace.meanRate();
    }

    /** @return the loop length L in seconds (one pass plus one mean gap, compressed) */
    public double loopLengthSeconds() {
        return loopLength;
    }

    /** @return index of the last returned record in the trace, -1 before the first */
    public int recordIndex() {
        return index;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "TraceArrivals[" + trace + ", compression " + compression + (loop ? ", looping]" : "]");
    }
}

package org.loadlab.workload.trace;

import java.util.Objects;

/**
 * An immutable request trace: for each record {@code i}, its arrival offset in seconds from the
 * first record (so {@code offset(0) == 0}, non-decreasing), its prompt size
 * ({@code contextTokens}) and its output size ({@code generatedTokens}).
 *
 * <p>For generic traces read from a {@code timestamp,size} CSV, {@code contextTokens} holds the
 * size and {@code generatedTokens} is 0 (see {@link TraceReader}). Source: Azure LLM inference
 * trace 2023 (Patel et al., "Splitwise", ISCA 2024), DESIGN.md workload module.
 */
public final class Trace {

    private final String source;
    private final double[] offsets;
    private final int[] contextTokens;
    private final int[] generatedTokens;

    /**
     * Creates a trace; the arrays are copied.
     *
     * @param source where the trace came from (file or resource name), used in messages
     * @param offsetsSeconds arrival offsets in seconds from the first record: finite,
     *     {@code offsets[0] == 0}, non-decreasing; at least one record
     * @param contextTokens prompt tokens per record, {@code >= 0}, same length
     * @param generatedTokens generated tokens per record, {@code >= 0}, same length
     * @throws IllegalArgumentException naming the record index if the lengths differ, the trace is
     *     empty, an offset is not finite, the first offset is not 0, offsets decrease, or a token
     *     count is negative
     * @throws NullPointerException if an argument is {@code null}
     */
    public Trace(String source, double[] offsetsSeconds, int[] contextTokens, int[] generatedTokens) {
        this.source = Objects.requireNonNull(source, "source");
        Objects.requireNonNull(offsetsSeconds, "offsetsSeconds");
        Objects.requireNonNull(contextTokens, "contextTokens");
        Objects.requireNonNull(generatedTokens, "generatedTokens");
        int n = offsetsSeconds.length;
        if (n == 0) {
            throw new IllegalArgumentException("trace " + source + " must have >= 1 record, had 0");
        }
        if (contextTokens.length != n || generatedTokens.length != n) {
            throw new IllegalArgumentException("trace " + source + " arrays must have equal lengths, were offsets "
                    + n + ", contextTokens " + contextTokens.length + ", generatedTokens " + generatedTokens.length);
        }
        if (offsetsSeconds[0] != 0) {
            throw new IllegalArgumentException("trace " + source + " offset[0] must be 0 seconds, was " + offsetsSeconds[0]);
        }
        for (int i = 0; i < n; i++) {
            double o = offsetsSeconds[i];
            if (!Double.isFinite(o) || (i > 0 && o < offsetsSeconds[i - 1])) {
                throw new IllegalArgumentException("trace " + source + " offset[" + i
                        + "] must be finite and >= offset[" + (i - 1) + "] (sorted), was " + o);
            }
            if (contextTokens[i] < 0 || generatedTokens[i] < 0) {
                throw new IllegalArgumentException("trace " + source + " token counts of record " + i
                        + " must be >= 0, were " + contextTokens[i] + " and " + generatedTokens[i]);
            }
        }
        this.offsets = offsetsSeconds.clone();
        this.contextTokens = contextTokens.clone();
        this.generatedTokens = generatedTokens.clone();
    }

    /** @return the file or resource the trace came from */
    public String source() {
        return source;
    }

    /** @return number of records, {@code >= 1} */
    public int size() {
        return offsets.length;
    }

    /**
     * @param i record index, {@code 0 <= i < size()}
     * @return the arrival offset of record {@code i} in seconds from the first record
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public double offset(int i) {
        return offsets[i];
    }

    /**
     * @param i record index
     * @return prompt (context) tokens of record {@code i}, or the generic size
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public int contextTokens(int i) {
        return contextTokens[i];
    }

    /**
     * @param i record index
     * @return generated (output) tokens of record {@code i}, 0 for generic traces
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public int generatedTokens(int i) {
        return generatedTokens[i];
    }

    /** @return time from the first to the last arrival in seconds, {@code >= 0} */
    public double spanSeconds() {
        return offsets[offsets.length - 1];
    }

    /**
     * The trace's mean arrival rate {@code (size() − 1)/spanSeconds()}: arrivals per second between
     * the first and the last record. This is also the exact long-run rate of a looped replay
     * (see {@code TraceArrivals}).
     *
     * @return λ in requests/s, or {@code NaN} if the span is 0 (single record or all simultaneous)
     */
    public double meanRate() {
        double span = spanSeconds();
        return span > 0 ? (offsets.length - 1) / span : Double.NaN;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "Trace[" + source + ", " + size() + " records, span " + spanSeconds() + " s, " + meanRate()
                + " requests/s]";
    }
}

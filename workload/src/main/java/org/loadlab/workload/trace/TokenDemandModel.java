package org.loadlab.workload.trace;

import java.util.Objects;

/**
 * Service demand of an LLM inference request from its token counts: raw demand
 * {@code prefill·ContextTokens + decode·GeneratedTokens} (prefill cost per prompt token, decode
 * cost per generated token, in seconds of a reference server), then scaled so the mean over the
 * trace equals {@code targetMean} work units. Only the ratio prefill/decode matters after scaling.
 *
 * <p>Floor: a record whose raw demand is 0 (both token counts 0, or the non-zero count has a zero
 * coefficient) gets the cost of a single token instead, {@code min} of the positive coefficients,
 * before scaling, so every demand is {@code > 0}. Source: Patel et al., "Splitwise" (ISCA 2024):
 * prompt (prefill) and token (decode) phases; defaults 0.0002 s/prompt token, 0.02 s/generated
 * token (LoadLab's choice).
 */
public final class TokenDemandModel {

    /** Default prefill cost, seconds per context (prompt) token. */
    public static final double DEFAULT_PREFILL_SECONDS_PER_TOKEN = 0.0002;
    /** Default decode cost, seconds per generated token. */
    public static final double DEFAULT_DECODE_SECONDS_PER_TOKEN = 0.02;
    /** Default mean demand after scaling, work units. */
    public static final double DEFAULT_TARGET_MEAN = 1.0;

    private final double prefill;
    private final double decode;
    private final double targetMean;
    private final double floor;

    /**
     * @param prefillSecondsPerToken cost per context token, finite and {@code >= 0}
     * @param decodeSecondsPerToken cost per generated token, finite and {@code >= 0}; not both 0
     * @param targetMean mean demand over the trace after scaling, work units, finite and {@code > 0}
     * @throws IllegalArgumentException naming the parameter if one is out of range
     */
    public TokenDemandModel(double prefillSecondsPerToken, double decodeSecondsPerToken, double targetMean) {
        this.prefill = nonNegative(prefillSecondsPerToken, "prefill cost");
        this.decode = nonNegative(decodeSecondsPerToken, "decode cost");
        if (prefill == 0 && decode == 0) {
            throw new IllegalArgumentException("prefill and decode costs must not both be 0 seconds/token, were "
                    + prefill + " and " + decode);
        }
        if (!(targetMean > 0) || Double.isInfinite(targetMean)) {
            throw new IllegalArgumentException("target mean demand must be finite and > 0 work units, was " + targetMean);
        }
        this.targetMean = targetMean;
        this.floor = prefill == 0 ? decode : decode == 0 ? prefill : Math.min(prefill, decode);
    }

    /**
     * The default model: 0.0002 s/prompt token, 0.02 s/generated token, mean 1 work unit.
     *
     * @return the default model
     */
    public static TokenDemandModel defaults() {
        return new TokenDemandModel(DEFAULT_PREFILL_SECONDS_PER_TOKEN, DEFAULT_DECODE_SECONDS_PER_TOKEN,
                DEFAULT_TARGET_MEAN);
    }

    private static double nonNegative(double v, String what) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and >= 0 seconds/token, was " + v);
        }
        return v;
    }

    /**
     * Raw (unscaled) demand of one request, floored as described in the class comment.
     *
     * @param contextTokens prompt tokens, {@code >= 0}
     * @param generatedTokens generated tokens, {@code >= 0}
     * @return seconds of the reference server, {@code > 0}
     */
    public double rawDemand(int contextTokens, int generatedTokens) {
        double raw = prefill * contextTokens + decode * generatedTokens;
        return raw > 0 ? raw : floor;
    }

    /**
     * Demands of all records of {@code trace}, scaled so their arithmetic mean is
     * {@code targetMean} (up to rounding, relative error ~1e-12).
     *
     * @param trace the trace
     * @return a new array, one demand per record in work units, each {@code > 0}
     * @throws NullPointerException if {@code trace} is {@code null}
     */
    public double[] demands(Trace trace) {
        Objects.requireNonNull(trace, "trace");
        int n = trace.size();
        double[] d = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            d[i] = rawDemand(trace.contextTokens(i), trace.generatedTokens(i));
            sum += d[i];
        }
        double scale = targetMean * n / sum;
        for (int i = 0; i < n; i++) {
            d[i] *= scale;
        }
        return d;
    }

    /** @return prefill cost in seconds per context token */
    public double prefillSecondsPerToken() {
        return prefill;
    }

    /** @return decode cost in seconds per generated token */
    public double decodeSecondsPerToken() {
        return decode;
    }

    /** @return the target mean demand in work units */
    public double targetMean() {
        return targetMean;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "TokenDemandModel[prefill " + prefill + " s/token, decode " + decode + " s/token, mean "
                + targetMean + " work units]";
    }
}

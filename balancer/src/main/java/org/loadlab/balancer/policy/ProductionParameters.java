package org.loadlab.balancer.policy;

/**
 * Parameters of the production policies (scenario block {@code policy}): peak-EWMA,
 * least-request, ring-hash, maglev, Prequal, and error-aware scoring for every policy that
 * ranks by a score.
 *
 * @param peakEwmaDecay τ of {@code peak-ewma}'s latency average, seconds, &gt; 0 (Finagle, Linkerd: 10 s)
 * @param peakEwmaPrior the latency {@code peak-ewma} assumes of a node it has not measured
 *     (a new or rejoined node), seconds, ≥ 0 (Finagle: 0, with a penalty while it has requests out)
 * @param leastRequestChoices k of {@code least-request}'s P2C, ≥ 1 (Envoy: 2)
 * @param leastRequestBias {@code least-request}'s active-request bias with unequal weights, ≥ 0 (Envoy: 1)
 * @param ringHashMinRingSize {@code ring-hash}'s smallest ring, entries, ≥ 1 (Envoy: 1024)
 * @param maglevTableSize {@code maglev}'s lookup table size, a prime (Envoy: 65537)
 * @param prequalProbes probes {@code prequal} sends per request, ≥ 0
 * @param prequalPoolSize probes kept in {@code prequal}'s pool, ≥ 1 (the paper: 16)
 * @param prequalMaxAge seconds after which a probe is too old to use, &gt; 0
 * @param prequalReuse times one probe may be used before it is dropped, ≥ 1
 * @param prequalHotQuantile the RIF quantile above which a probed node is hot, in [0, 1]
 * @param errorPenalty error-aware scoring: how much worse a node that fails everything
 *     looks, in its policy's score units, ≥ 0 (0: off)
 * @param errorDecay τ of the recent failure share, seconds, &gt; 0
 *     <p>Source: Finagle / Linkerd (peak EWMA), Envoy (least request, ring hash, maglev),
 *     Wydrowski et al. NSDI 2024 (Prequal), issue 14 (error-aware scoring).
 */
public record ProductionParameters(double peakEwmaDecay, double peakEwmaPrior, int leastRequestChoices,
                                   double leastRequestBias, int ringHashMinRingSize, int maglevTableSize,
                                   int prequalProbes, int prequalPoolSize, double prequalMaxAge, int prequalReuse,
                                   double prequalHotQuantile, double errorPenalty, double errorDecay) {
    /** The defaults of docs/scenarios.md. */
    public static final ProductionParameters DEFAULTS = new ProductionParameters(10.0, 0.0, 2, 1.0, 1024, 65537,
            3, 16, 1.0, 3, 0.8, 0.0, 10.0);

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public ProductionParameters {
        check(peakEwmaDecay > 0 && peakEwmaDecay < Double.POSITIVE_INFINITY, "peak-ewma.decay", peakEwmaDecay, "> 0 s");
        check(peakEwmaPrior >= 0 && peakEwmaPrior < Double.POSITIVE_INFINITY, "peak-ewma.prior", peakEwmaPrior, ">= 0 s");
        check(leastRequestChoices >= 1, "least-request.choices", leastRequestChoices, ">= 1");
        check(leastRequestBias >= 0 && leastRequestBias < Double.POSITIVE_INFINITY, "least-request.active-request-bias",
                leastRequestBias, ">= 0");
        check(ringHashMinRingSize >= 1 && ringHashMinRingSize <= 8_388_608, "ring-hash.min-ring-size", ringHashMinRingSize,
                "1..8388608 entries");
        check(maglevTableSize >= 2 && isPrime(maglevTableSize) && maglevTableSize <= 5_000_011, "maglev.table-size",
                maglevTableSize, "a prime in 2..5000011 (e.g. 65537)");
        check(prequalProbes >= 0, "prequal.probes-per-request", prequalProbes, ">= 0");
        check(prequalPoolSize >= 1, "prequal.pool-size", prequalPoolSize, ">= 1");
        check(prequalMaxAge > 0, "prequal.max-age", prequalMaxAge, "> 0 s");
        check(prequalReuse >= 1, "prequal.reuse", prequalReuse, ">= 1");
        check(prequalHotQuantile >= 0 && prequalHotQuantile <= 1, "prequal.hot-quantile", prequalHotQuantile, "a quantile in [0, 1]");
        check(errorPenalty >= 0 && errorPenalty < Double.POSITIVE_INFINITY, "error-penalty", errorPenalty, ">= 0 (0: off)");
        check(errorDecay > 0 && errorDecay < Double.POSITIVE_INFINITY, "error-decay", errorDecay, "> 0 s");
    }

    private static void check(boolean ok, String key, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("policy." + key + " = " + value + ": allowed " + allowed);
        }
    }

    /** True if {@code n} is prime. */
    public static boolean isPrime(long n) {
        if (n < 2) {
            return false;
        }
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}

package org.loadlab.balancer.policy;

import java.util.Objects;

/**
 * Tunable parameters of the built-in policies, read from a scenario's {@code policy}
 * block.
 *
 * @param k samples per decision for {@code power-of-k} (≥ 1; {@code p2c} always uses 2)
 * @param asmf parameters of {@code asmf} and its ablations
 * @param stickyLazyThreshold T of {@code sticky-lazy} ({@code policy.sticky-lazy.threshold}),
 *     ≥ 1, default 3 (seed 001)
 * @param kWithReplacement {@code power-of-k} draws its k nodes independently with replacement
 *     (the supermarket model's i.i.d. choices; {@code policy.k-sampling = with-replacement})
 *     instead of k distinct nodes (the default)
 * @param stickyLazyCredit the credit rule of {@code sticky-lazy} ({@code policy.sticky-lazy.credit}):
 *     T − q (the seed's pseudo-code, default) or T − q − 1
 * @param production parameters of the production policies and of error-aware scoring
 */
public record PolicyParameters(int k, AsmfSettings asmf, int stickyLazyThreshold, boolean kWithReplacement,
                               StickyCache.Credit stickyLazyCredit, ProductionParameters production) {
    /** Default Sticky-Lazy threshold T (seed 001, SPEC.md §5). */
    public static final int DEFAULT_STICKY_LAZY_THRESHOLD = 3;

    /** k 2, the seed 000 ASMF defaults and Sticky-Lazy T 3. */
    public static final PolicyParameters DEFAULTS = new PolicyParameters(2, AsmfSettings.DEFAULT);

    /** Validates. @throws NullPointerException if {@code stickyLazyCredit} or {@code production} is null */
    public PolicyParameters {
        Objects.requireNonNull(stickyLazyCredit, "stickyLazyCredit");
        Objects.requireNonNull(production, "production");
    }

    /**
     * Parameters with distinct sampling, the seed's credit rule T − q and the default
     * production parameters.
     *
     * @param k see the record
     * @param asmf see the record
     * @param stickyLazyThreshold see the record
     */
    public PolicyParameters(int k, AsmfSettings asmf, int stickyLazyThreshold) {
        this(k, asmf, stickyLazyThreshold, false, StickyCache.Credit.HEADROOM, ProductionParameters.DEFAULTS);
    }

    /**
     * Parameters with the default Sticky-Lazy threshold.
     *
     * @param k see the record
     * @param asmf see the record
     */
    public PolicyParameters(int k, AsmfSettings asmf) {
        this(k, asmf, DEFAULT_STICKY_LAZY_THRESHOLD);
    }

    /** These parameters with {@code p} as the production parameters. */
    public PolicyParameters withProduction(ProductionParameters p) {
        return new PolicyParameters(k, asmf, stickyLazyThreshold, kWithReplacement, stickyLazyCredit, p);
    }
}

package org.loadlab.balancer.policy;

/**
 * Tunable parameters of the built-in policies, read from a scenario's {@code policy}
 * block.
 *
 * @param k samples per decision for {@code power-of-k} (≥ 1; {@code p2c} always uses 2)
 * @param asmf parameters of {@code asmf} and its ablations
 * @param stickyLazyThreshold T of {@code sticky-lazy} ({@code policy.sticky-lazy.threshold}),
 *     ≥ 1, default 3 (seed 001)
 * @param production parameters of the production policies and of error-aware scoring
 */
public record PolicyParameters(int k, AsmfSettings asmf, int stickyLazyThreshold, ProductionParameters production) {
    /** Default Sticky-Lazy threshold T (seed 001, SPEC.md §5). */
    public static final int DEFAULT_STICKY_LAZY_THRESHOLD = 3;

    /** k 2, the seed 000 ASMF defaults and Sticky-Lazy T 3. */
    public static final PolicyParameters DEFAULTS = new PolicyParameters(2, AsmfSettings.DEFAULT);

    /**
     * Parameters with the default Sticky-Lazy threshold.
     *
     * @param k see the record
     * @param asmf see the record
     */
    public PolicyParameters(int k, AsmfSettings asmf) {
        this(k, asmf, DEFAULT_STICKY_LAZY_THRESHOLD);
    }

    /**
     * Parameters with the default production parameters.
     *
     * @param k see the record
     * @param asmf see the record
     * @param stickyLazyThreshold see the record
     */
    public PolicyParameters(int k, AsmfSettings asmf, int stickyLazyThreshold) {
        this(k, asmf, stickyLazyThreshold, ProductionParameters.DEFAULTS);
    }

    /** These parameters with {@code p} as the production parameters. */
    public PolicyParameters withProduction(ProductionParameters p) {
        return new PolicyParameters(k, asmf, stickyLazyThreshold, p);
    }
}

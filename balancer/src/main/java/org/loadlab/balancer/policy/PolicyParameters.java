package org.loadlab.balancer.policy;

/**
 * Tunable parameters of the built-in policies, read from a scenario's {@code policy}
 * block.
 *
 * @param k samples per decision for {@code power-of-k} (≥ 1; {@code p2c} always uses 2)
 * @param asmf parameters of {@code asmf} and its ablations
 * @param stickyLazyThreshold T of {@code sticky-lazy} ({@code policy.sticky-lazy.threshold}),
 *     ≥ 1, default 3 (seed 001)
 */
public record PolicyParameters(int k, AsmfSettings asmf, int stickyLazyThreshold) {
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
}

package org.loadlab.balancer.policy;

/**
 * Tunable parameters of the built-in policies, read from a scenario's {@code policy}
 * block.
 *
 * @param k samples per decision for {@code power-of-k} (≥ 1; {@code p2c} always uses 2)
 * @param asmf parameters of {@code asmf} and its ablations
 */
public record PolicyParameters(int k, AsmfSettings asmf) {
    /** k 2 and the seed 000 ASMF defaults. */
    public static final PolicyParameters DEFAULTS = new PolicyParameters(2, AsmfSettings.DEFAULT);
}

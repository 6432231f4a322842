package org.loadlab.kernel;

/**
 * Address of balancer (frontend) number {@code index} (0-based).
 *
 * @param index balancer index, must be non-negative
 */
public record BalancerId(int index) implements Address {
    /** Validates the index. @throws IllegalArgumentException if {@code index < 0} */
    public BalancerId {
        if (index < 0) {
            throw new IllegalArgumentException("balancer index must be >= 0, was " + index);
        }
    }

    @Override
    public String toString() {
        return "balancer-" + index;
    }
}

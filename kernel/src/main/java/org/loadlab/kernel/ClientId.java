package org.loadlab.kernel;

/**
 * Address of a client / workload driver (0-based). A run has one driver by default.
 *
 * @param index client index, must be non-negative
 */
public record ClientId(int index) implements Address {
    /** Validates the index. @throws IllegalArgumentException if {@code index < 0} */
    public ClientId {
        if (index < 0) {
            throw new IllegalArgumentException("client index must be >= 0, was " + index);
        }
    }

    @Override
    public String toString() {
        return "client-" + index;
    }
}

package org.loadlab.node.protocol;

import java.util.List;

/**
 * The chaos faults a backend node takes ({@link NodeMessage.InjectFault}), their default
 * parameters and their allowed ranges: one definition for scenario events and the
 * cluster's POST /chaos/inject.
 *
 * <p>Source: seed 003 (chaos: cpu spike, latency, error spike), SPEC.md §6.
 */
public final class ChaosFaults {
    private ChaosFaults() {
    }

    /** The fault names. */
    public static final List<String> NAMES = List.of("cpu-spike", "latency", "error-rate", "crash");

    /** Default parameter of {@code fault} when none is given. */
    public static double defaultValue(String fault) {
        return switch (fault) {
            case "cpu-spike" -> 0.99;
            case "latency" -> 0.05;
            case "error-rate" -> 0.5;
            default -> 0.0;
        };
    }

    /**
     * Checks a fault's parameter.
     *
     * @return null if fine, else what is allowed
     */
    public static String checkValue(String fault, double value) {
        return switch (fault) {
            case "cpu-spike" -> value >= 0 && value <= 1 ? null : "a CPU level in [0, 1]";
            case "latency" -> value >= 0 && value <= 60 ? null : "extra scenario seconds in [0, 60]";
            case "error-rate" -> value >= 0 && value <= 1 ? null : "a probability in [0, 1]";
            default -> null;
        };
    }
}

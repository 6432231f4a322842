package org.loadlab.shell.gateway;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway's strategies under seed 003's names and the LoadLab policies that implement
 * them: {@code lin_ts} = lin-ts, {@code least_conn} = least-connections, {@code p2c} = p2c,
 * {@code round_robin} = round-robin, {@code weighted_round_robin} = weighted-random (the
 * seed's "weighted round robin" is a capacity-weighted random draw). Either spelling is accepted.
 *
 * <p>Source: seed 003 ({@code routing_strategies.py} VALID_STRATEGIES), SPEC.md §6.
 */
public final class Strategies {
    private Strategies() {
    }

    private static final Map<String, String> SEED = new LinkedHashMap<>();

    static {
        SEED.put("lin_ts", "lin-ts");
        SEED.put("least_conn", "least-connections");
        SEED.put("p2c", "p2c");
        SEED.put("round_robin", "round-robin");
        SEED.put("weighted_round_robin", "weighted-random");
    }

    /** The seed's names, in its order. */
    public static final List<String> SEED_NAMES = List.copyOf(SEED.keySet());

    /** The LoadLab policies behind them, same order (one balancer each). */
    public static final List<String> POLICIES = List.copyOf(SEED.values());

    /** What the gateway accepts, for error messages. */
    public static String allowed() {
        return String.join(", ", SEED_NAMES) + " (or " + String.join(", ", POLICIES) + ")";
    }

    /** The LoadLab policy of strategy {@code name} (either spelling), if it is one. */
    public static Optional<String> policyOf(String name) {
        if (name == null) {
            return Optional.empty();
        }
        if (SEED.containsKey(name)) {
            return Optional.of(SEED.get(name));
        }
        return POLICIES.contains(name) ? Optional.of(name) : Optional.empty();
    }

    /** The seed's name of LoadLab policy {@code policy}. */
    public static String seedName(String policy) {
        return SEED_NAMES.get(POLICIES.indexOf(policy));
    }
}

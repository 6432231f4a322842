package org.loadlab.experiment.ope;

import java.util.List;

/**
 * The probability a target policy gives a node, from what a decision log recorded of the
 * pool (in-flight counts, queue lengths): the π of off-policy evaluation. Defined for the
 * stateless policies whose choice is a function of that context:
 * <ul>
 *   <li>{@code random}: 1/m over the m pool nodes;</li>
 *   <li>{@code round-robin}: 1/m as well: its cycle gives every node the same share over time,
 *       but its choice depends on the cursor, which the context does not hold: this is the
 *       stateless policy with round robin's marginal shares (say so when reporting it);</li>
 *   <li>{@code p2c}: two distinct nodes drawn uniformly, the shorter queue wins, ties at random:
 *       π(i) = Σ_{j≠i} [q_i &lt; q_j] + ½[q_i = q_j], divided by C(m, 2);</li>
 *   <li>{@code least-connections}: uniform over the nodes with the fewest requests in flight.</li>
 * </ul>
 *
 * <p>Source: SPEC.md §3 (the policies' rules).
 */
public final class TargetPolicies {
    private TargetPolicies() {
    }

    /** The target policies this evaluator knows. */
    public static final List<String> NAMES = List.of("random", "round-robin", "p2c", "least-connections");

    /**
     * π(node | pool) under {@code policy}.
     *
     * @param policy one of {@link #NAMES}
     * @param pool the pool as logged
     * @param node the node
     * @return a probability in [0, 1] (0 for a node outside the pool)
     * @throws IllegalArgumentException for a policy not in {@link #NAMES}, or p2c with an unknown queue
     */
    public static double probability(String policy, List<DecisionLogFile.PoolNode> pool, int node) {
        int m = pool.size();
        int at = -1;
        for (int k = 0; k < m; k++) {
            if (pool.get(k).node() == node) {
                at = k;
            }
        }
        if (at < 0 || m == 0) {
            return 0;
        }
        switch (policy) {
            case "random", "round-robin" -> {
                return 1.0 / m;
            }
            case "p2c" -> {
                if (m == 1) {
                    return 1;
                }
                int qi = pool.get(at).queue();
                double wins = 0;
                for (int k = 0; k < m; k++) {
                    if (k == at) {
                        continue;
                    }
                    int qj = pool.get(k).queue();
                    if (qi < 0 || qj < 0) {
                        throw new IllegalArgumentException("p2c needs the queue of every pool node; the log has none for node "
                                + (qi < 0 ? node : pool.get(k).node()) + " (log with the cached or probe information model)");
                    }
                    wins += qi < qj ? 1 : qi == qj ? 0.5 : 0;
                }
                return wins / (m * (m - 1) / 2.0);
            }
            case "least-connections" -> {
                int min = Integer.MAX_VALUE;
                int ties = 0;
                for (DecisionLogFile.PoolNode p : pool) {
                    if (p.inFlight() < min) {
                        min = p.inFlight();
                        ties = 1;
                    } else if (p.inFlight() == min) {
                        ties++;
                    }
                }
                return pool.get(at).inFlight() == min ? 1.0 / ties : 0;
            }
            default -> throw new IllegalArgumentException("--policy = '" + policy + "': allowed " + String.join(", ", NAMES));
        }
    }
}

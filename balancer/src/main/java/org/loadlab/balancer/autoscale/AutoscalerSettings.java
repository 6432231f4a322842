package org.loadlab.balancer.autoscale;

/**
 * Parameters of seed 003's horizontal autoscaler (scenario block {@code autoscaler}).
 *
 * @param enabled false: no autoscaler
 * @param period seconds between checks, &gt; 0 (seed: 1)
 * @param scaleUpAbove mean CPU share above which the up-counter grows, in (0, 1] (seed: 0.75)
 * @param scaleDownBelow mean CPU share below which the down-counter grows, in [0, scaleUpAbove) (seed: 0.25)
 * @param upChecks up-counter value that adds a node, ≥ 1 (seed: 3)
 * @param downChecks down-counter value that removes one, ≥ 1 (seed: 5)
 * @param decay what a counter loses at a check whose condition fails, ≥ 0, floor 0 (seed: 0.5)
 * @param minNodes nodes never removed (the first ones), ≥ 1 (seed: 5)
 * @param maxNodes most nodes, ≥ minNodes (seed: 10)
 *     <p>Source: seed 003 ({@code autoscaler.py}), SPEC.md §6.
 */
public record AutoscalerSettings(boolean enabled, double period, double scaleUpAbove, double scaleDownBelow, int upChecks,
                                 int downChecks, double decay, int minNodes, int maxNodes) {
    /** Off, with the seed's values for when it is on. */
    public static final AutoscalerSettings OFF = new AutoscalerSettings(false, 1.0, 0.75, 0.25, 3, 5, 0.5, 5, 10);

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public AutoscalerSettings {
        check(period > 0 && period < 3600, "period", period, "> 0 s");
        check(scaleUpAbove > 0 && scaleUpAbove <= 1, "scale-up-above", scaleUpAbove, "a CPU share in (0, 1]");
        check(scaleDownBelow >= 0 && scaleDownBelow < scaleUpAbove, "scale-down-below", scaleDownBelow,
                "a CPU share in [0, scale-up-above = " + scaleUpAbove + ")");
        check(upChecks >= 1, "up-checks", upChecks, ">= 1");
        check(downChecks >= 1, "down-checks", downChecks, ">= 1");
        check(decay >= 0 && decay < 1e6, "decay", decay, ">= 0");
        check(minNodes >= 1, "min-nodes", minNodes, ">= 1");
        check(maxNodes >= minNodes, "max-nodes", maxNodes, ">= min-nodes = " + minNodes);
    }

    private static void check(boolean ok, String key, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("autoscaler." + key + " = " + value + ": allowed " + allowed);
        }
    }
}

package org.loadlab.balancer.guardrail;

/**
 * Slow start (scenario block {@code slow-start}), Envoy's form: a node that joins, or
 * becomes reachable again, is weighted for {@code window} seconds by
 * <pre>  factor(t) = max(minWeight, (max(t, 1 ms) / window)^(1 / aggression))</pre>
 * where t is the time since it (re)entered the pool; from t = window on its weight is 1.
 * Weighted pickers multiply their weights by the factor, draws of k nodes accept a drawn node
 * with that probability, and policies that rank the whole pool see each node in slow start
 * with that probability. Weights are relative: when every node is new at the same moment,
 * every factor is the same and slow start changes nothing (Envoy's documentation says so too).
 * Nodes present when the run starts are not in slow start.
 *
 * @param window seconds of ramp-up, ≥ 0 (0: off)
 * @param aggression &gt; 0: 1 ramps linearly, larger values ramp up faster at first
 * @param minWeight the smallest factor, in (0, 1] (Envoy: 10 %)
 *     <p>Source: Envoy, "Slow start mode" (arch overview, load balancing), and
 *     {@code EdfLoadBalancerBase::applySlowStartFactor}.
 */
public record SlowStart(double window, double aggression, double minWeight) {
    /** Off, with Envoy's defaults for when it is turned on: aggression 1, minimum weight 10 %. */
    public static final SlowStart OFF = new SlowStart(0, 1.0, 0.1);

    /** Shortest age the factor uses, seconds (Envoy floors the time since start at 1 ms). */
    static final double MIN_AGE = 0.001;

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public SlowStart {
        if (!(window >= 0 && window < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("slow-start.window = " + window + ": allowed >= 0 s (0: off)");
        }
        if (!(aggression > 0 && aggression < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("slow-start.aggression = " + aggression + ": allowed > 0");
        }
        if (!(minWeight > 0 && minWeight <= 1)) {
            throw new IllegalArgumentException("slow-start.min-weight = " + minWeight + ": allowed a share in (0, 1]");
        }
    }

    /** True if slow start is on. */
    public boolean enabled() {
        return window > 0;
    }

    /**
     * The weight factor of a node that (re)entered the pool {@code age} seconds ago.
     *
     * @param age seconds, ≥ 0
     * @return the factor in [minWeight, 1]; 1 once {@code age ≥ window} or when off
     */
    public double factor(double age) {
        if (!enabled() || age >= window) {
            return 1.0;
        }
        double timeFactor = Math.max(age, MIN_AGE) / window;
        double ramp = aggression == 1.0 ? timeFactor : Math.pow(timeFactor, 1.0 / aggression);
        return Math.min(1.0, Math.max(minWeight, ramp));
    }
}

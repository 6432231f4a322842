package org.loadlab.balancer.lints;

/**
 * Parameters of seed 003's LinTS control plane (scenario block {@code lin-ts}).
 *
 * @param interval seconds between control-loop runs, &gt; 0 (seed: 0.15)
 * @param slaLatency the SLA latency, seconds, &gt; 0 (seed: 0.2): a slower request is a breach,
 *     and the reward's latency term is p99 / SLA
 * @param exploration v₀², the initial variance scale of the posterior draws, ≥ 0 (seed: 0.3)
 * @param annealing per-step factor of the variance scale: v² = max(floor, v₀²·annealing^step), in (0, 1]
 * @param explorationFloor the smallest variance scale, ≥ 0 (seed: 0.03)
 * @param temperature the softmax temperature τ, &gt; 0 (seed: 0.2)
 * @param errorWeight weight of the error rate in the reward (seed: 5)
 * @param slaWeight weight of the SLA-breach rate in the reward (seed: 10)
 * @param rewardFloor the lowest reward, ≤ 0 (seed: −15)
 * @param feedbackPeriod seconds between a balancer's outcome reports to the control plane, &gt; 0
 *     <p>Source: seed 003 ({@code config.yaml}, {@code agent.py}), SPEC.md §6.
 */
public record LinTsSettings(double interval, double slaLatency, double exploration, double annealing,
                            double explorationFloor, double temperature, double errorWeight, double slaWeight,
                            double rewardFloor, double feedbackPeriod) {
    /** The seed's values, with outcome reports every 0.05 s (a third of the loop). */
    public static final LinTsSettings DEFAULTS = new LinTsSettings(0.15, 0.2, 0.3, 0.9995, 0.03, 0.2, 5, 10, -15, 0.05);

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public LinTsSettings {
        check(interval > 0 && interval < 3600, "interval", interval, "> 0 s");
        check(slaLatency > 0 && slaLatency < 3600, "sla-latency", slaLatency, "> 0 s");
        check(exploration >= 0 && exploration < 1e6, "exploration", exploration, ">= 0");
        check(annealing > 0 && annealing <= 1, "annealing", annealing, "in (0, 1]");
        check(explorationFloor >= 0 && explorationFloor < 1e6, "exploration-floor", explorationFloor, ">= 0");
        check(temperature > 0 && temperature < 1e6, "temperature", temperature, "> 0");
        check(errorWeight >= 0 && errorWeight < 1e6, "error-weight", errorWeight, ">= 0");
        check(slaWeight >= 0 && slaWeight < 1e6, "sla-weight", slaWeight, ">= 0");
        check(rewardFloor <= 0 && rewardFloor > -1e9, "reward-floor", rewardFloor, "<= 0");
        check(feedbackPeriod > 0 && feedbackPeriod < 3600, "feedback-period", feedbackPeriod, "> 0 s");
    }

    private static void check(boolean ok, String key, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("lin-ts." + key + " = " + value + ": allowed " + allowed);
        }
    }

    /**
     * The reward of a window: −(p99/SLA + errorWeight·errorRate + slaWeight·breachRate), at least the floor.
     *
     * @param p99Ms the window's p99 latency, ms
     * @param errorRate failed share
     * @param breachRate share slower than the SLA
     */
    public double reward(double p99Ms, double errorRate, double breachRate) {
        double r = -(p99Ms / (slaLatency * 1000.0) + errorWeight * errorRate + slaWeight * breachRate);
        return Math.max(rewardFloor, r);
    }

    /** The variance scale v² of control step {@code step} (1 for the first draw). */
    public double varianceScale(long step) {
        return Math.max(explorationFloor, exploration * Math.pow(annealing, step));
    }
}

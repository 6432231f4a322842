package org.loadlab.experiment.ope;

import java.util.List;
import org.loadlab.analysis.ope.OffPolicyEstimate;

/**
 * Off-policy evaluation of a decision log: for each logged decision the reward, the logging
 * policy's propensity of the chosen node (as logged by a policy that states it, such as
 * lin-ts; for a stateless logged policy computed from the logged pool by
 * {@link TargetPolicies}) and the target policy's probability of that node, then IPS and SNIPS
 * ({@link OffPolicyEstimate}). Decisions whose logging propensity is unknown (a mode with no
 * stated propensity, e.g. every node masked), or whose context lacks what the target reads (a
 * queue the balancer had not seen yet), are skipped and counted.
 *
 * <p>The estimate is what the target policy would earn on the logged contexts. A balancer's
 * choice changes the queues the next decisions see, so a log of one policy does not hold the
 * contexts another policy would meet: the estimate is exact for a contextual bandit and an
 * approximation for a queueing system, one that {@code docs/autonomous.md} measures.
 */
public final class OffPolicyEvaluation {
    private OffPolicyEvaluation() {
    }

    /** The rewards this evaluator knows: {@code sla} (1 if served within the SLA, else 0) and {@code latency} (−response time, s). */
    public static final List<String> REWARDS = List.of("sla", "latency");

    /**
     * The outcome of an evaluation.
     *
     * @param estimate the estimates
     * @param skipped decisions left out (unknown logging propensity)
     */
    public record Result(OffPolicyEstimate estimate, long skipped) {
    }

    /**
     * Evaluates {@code target} on {@code log}.
     *
     * @param log the decisions
     * @param target a name of {@link TargetPolicies#NAMES}
     * @param reward a name of {@link #REWARDS}
     * @param slaSeconds the SLA latency, s (reward {@code sla})
     * @throws IllegalArgumentException if the target or the reward is unknown, or no decision is usable
     */
    public static Result evaluate(List<DecisionLogFile.Entry> log, String target, String reward, double slaSeconds) {
        if (!TargetPolicies.NAMES.contains(target)) {
            throw new IllegalArgumentException("--policy = '" + target + "': allowed " + String.join(", ", TargetPolicies.NAMES));
        }
        if (!REWARDS.contains(reward)) {
            throw new IllegalArgumentException("--reward = '" + reward + "': allowed " + String.join(", ", REWARDS));
        }
        double[] r = new double[log.size()];
        double[] mu = new double[log.size()];
        double[] pi = new double[log.size()];
        int n = 0;
        long skipped = 0;
        for (DecisionLogFile.Entry e : log) {
            double logging = loggingPropensity(e);
            if (!(logging > 0)) {
                skipped++;
                continue;
            }
            double target0;
            try {
                target0 = TargetPolicies.probability(target, e.pool(), e.node());
            } catch (IllegalArgumentException unknownQueue) {
                skipped++; // the target reads a queue the balancer had not seen yet
                continue;
            }
            r[n] = reward.equals("sla") ? (e.status() == 200 && e.latency() <= slaSeconds ? 1 : 0) : -e.latency();
            mu[n] = logging;
            pi[n] = target0;
            n++;
        }
        if (n == 0) {
            throw new IllegalArgumentException("no decision of the log has a known logging propensity (" + skipped + " skipped)");
        }
        return new Result(OffPolicyEstimate.of(java.util.Arrays.copyOf(r, n), java.util.Arrays.copyOf(mu, n),
                java.util.Arrays.copyOf(pi, n), 1), skipped);
    }

    /** The logging policy's probability of the logged node: as logged, else from the mode's rule when it is stateless. */
    static double loggingPropensity(DecisionLogFile.Entry e) {
        if (!Double.isNaN(e.propensity())) {
            return e.propensity();
        }
        String rule = e.mode().equals("fallback_circuit_breaker_least_conn") ? "least-connections" : e.mode().replace('_', '-');
        if (TargetPolicies.NAMES.contains(rule) && !rule.equals("round-robin")) {
            try {
                return TargetPolicies.probability(rule, e.pool(), e.node());
            } catch (IllegalArgumentException unknownQueue) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }
}

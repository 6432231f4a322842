package org.loadlab.analysis.stats;

/**
 * Mean response time of sender-initiated load sharing in the many-node limit: n identical
 * nodes with Poisson arrivals at rate λ each and exponential service of rate 1; a task
 * arriving at a node that already holds T or more tasks (it would make q &gt; T) is a
 * candidate for transfer, a transferred task is never moved again, and transfers and polls
 * cost nothing. The location policies:
 * <ul>
 *   <li>{@link Policy#RANDOM}: send it to a uniformly random node, which must keep it;</li>
 *   <li>{@link Policy#THRESHOLD}: poll up to Lp random nodes one by one, send it to the
 *       first with q &lt; T, else keep it;</li>
 *   <li>{@link Policy#SHORTEST}: poll Lp random nodes, send it to the shortest if its
 *       q &lt; T, else keep it.</li>
 * </ul>
 * Each node is a birth–death chain (death rate 1) whose birth rates depend on the others only
 * through the stationary distribution p of a node's queue length (exact as n → ∞, where the
 * polled queues are independent): with S_k = P(q ≥ k),
 * <pre>
 *   random:    b_i = λ + λS_T (i &lt; T),   b_i = λS_T (i ≥ T)
 *   threshold: b_i = λ + λS_T (1 − S_T^Lp)/(1 − S_T) (i &lt; T),   b_i = λS_T^Lp (i ≥ T)
 *   shortest:  b_i = λ + λS_T (S_i^Lp − S_{i+1}^Lp)/p_i (i &lt; T),   b_i = λS_T^Lp (i ≥ T)
 * </pre>
 * solved by damped fixed-point iteration from the M/M/1 distribution; the mean response is
 * E[q]/λ (Little's law; every task is served somewhere). A finite system (n = 40) queues a
 * little more than this limit at high load, where the nodes' loads are correlated.
 *
 * <p>Source: after the analytic models of D. L. Eager, E. D. Lazowska, J. Zahorjan, "Adaptive
 * load sharing in homogeneous distributed systems", IEEE Trans. Software Eng. 12(5), 1986
 * (policies Random, Threshold and Shortest); seed 002's slides.
 */
public final class SenderInitiatedModel {
    /** The location policy. */
    public enum Policy {
        /** A random node, which must keep the task. */
        RANDOM,
        /** The first of up to Lp polled nodes below T. */
        THRESHOLD,
        /** The shortest of Lp polled nodes, if below T. */
        SHORTEST
    }

    private static final int MAX_LENGTH = 2000;

    private SenderInitiatedModel() {
    }

    /**
     * Mean response time, in mean service times.
     *
     * @param policy the location policy
     * @param lambda arrival rate per node over the service rate, 0 &lt; λ &lt; 1
     * @param threshold T ≥ 1
     * @param pollLimit Lp ≥ 1 (unused by RANDOM)
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IllegalStateException if the iteration does not converge
     */
    public static double meanResponse(Policy policy, double lambda, int threshold, int pollLimit) {
        return meanQueue(policy, lambda, threshold, pollLimit) / lambda;
    }

    /**
     * Mean number of tasks at a node (waiting and in service).
     *
     * @see #meanResponse
     */
    public static double meanQueue(Policy policy, double lambda, int threshold, int pollLimit) {
        if (!(lambda > 0 && lambda < 1) || threshold < 1 || pollLimit < 1) {
            throw new IllegalArgumentException("need 0 < lambda < 1, threshold >= 1, poll limit >= 1; got " + lambda + ", "
                    + threshold + ", " + pollLimit);
        }
        int k = MAX_LENGTH;
        double[] p = new double[k];
        for (int i = 0; i < k; i++) {
            p[i] = (1 - lambda) * Math.pow(lambda, i);
        }
        double[] tail = new double[k + 1];
        double[] birth = new double[k];
        double[] next = new double[k];
        for (int iteration = 0; iteration < 100_000; iteration++) {
            tail[k] = 0;
            for (int i = k - 1; i >= 0; i--) {
                tail[i] = tail[i + 1] + p[i];
            }
            double st = tail[threshold];
            double stay = Math.pow(st, pollLimit);
            for (int i = 0; i < k; i++) {
                if (i >= threshold) {
                    birth[i] = policy == Policy.RANDOM ? lambda * st : lambda * stay;
                } else {
                    double in = switch (policy) {
                        case RANDOM -> lambda * st;
                        case THRESHOLD -> st < 1 ? lambda * st * (1 - stay) / (1 - st) : 0;
                        case SHORTEST -> p[i] > 0
                                ? lambda * st * (Math.pow(tail[i], pollLimit) - Math.pow(tail[i + 1], pollLimit)) / p[i] : 0;
                    };
                    birth[i] = lambda + in;
                }
            }
            double sum = 1;
            next[0] = 1;
            for (int i = 1; i < k; i++) {
                next[i] = next[i - 1] * birth[i - 1];
                sum += next[i];
            }
            double change = 0;
            for (int i = 0; i < k; i++) {
                double v = next[i] / sum;
                change = Math.max(change, Math.abs(v - p[i]));
                p[i] = 0.5 * p[i] + 0.5 * v;
            }
            if (change < 1e-14) {
                double mean = 0;
                for (int i = 1; i < k; i++) {
                    mean += i * p[i];
                }
                return mean;
            }
        }
        throw new IllegalStateException("sender-initiated model did not converge for lambda " + lambda);
    }
}

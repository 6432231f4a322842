package org.loadlab.analysis.stats;

/**
 * The two analytic bounds the load-sharing curves are drawn between (the slides' "M/M/1" and
 * "M/M/K" lines): n nodes with Poisson arrivals at rate λ each and exponential service of mean
 * s = E[D]/μ, so per-node utilisation ρ = λs.
 * <ul>
 *   <li>no load sharing: n independent M/M/1 queues, mean response s/(1 − ρ);</li>
 *   <li>ideal load sharing: one M/M/n queue with the n servers, mean response
 *       s + C(n, nρ)·s/(n(1 − ρ)), with C the Erlang C probability of waiting.</li>
 * </ul>
 * Erlang C is computed from the Erlang B recurrence B(0) = 1, B(k) = a·B(k−1)/(k + a·B(k−1)),
 * which stays in [0, 1] (no factorials, no overflow for any n), then
 * C = B/(1 − ρ(1 − B)).
 *
 * <p>Source: Kleinrock, Queueing Systems Vol. 1 (1975), §3.2, §3.5; SPEC.md §7.
 */
public final class QueueingFormulas {
    private QueueingFormulas() {
    }

    /**
     * Mean response time of an M/M/1 queue, seconds.
     *
     * @param rho utilisation, 0 ≤ ρ &lt; 1
     * @param meanService mean service time s, seconds &gt; 0
     * @throws IllegalArgumentException if ρ is not in [0, 1) or s ≤ 0
     */
    public static double mm1Response(double rho, double meanService) {
        check(rho, meanService);
        return meanService / (1 - rho);
    }

    /**
     * Erlang C: probability that an arrival to an M/M/n queue waits.
     *
     * @param n servers, ≥ 1
     * @param rho per-server utilisation, 0 ≤ ρ &lt; 1 (offered load a = nρ erlangs)
     * @throws IllegalArgumentException if n &lt; 1 or ρ is not in [0, 1)
     */
    public static double erlangC(int n, double rho) {
        if (n < 1) {
            throw new IllegalArgumentException("Erlang C needs n >= 1 servers, got " + n);
        }
        check(rho, 1);
        double a = n * rho;
        double b = 1.0;
        for (int k = 1; k <= n; k++) {
            b = a * b / (k + a * b);
        }
        return b / (1 - rho * (1 - b));
    }

    /**
     * Mean response time of an M/M/n queue, seconds.
     *
     * @param n servers, ≥ 1
     * @param rho per-server utilisation, 0 ≤ ρ &lt; 1
     * @param meanService mean service time s of one server, seconds &gt; 0
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double mmnResponse(int n, double rho, double meanService) {
        check(rho, meanService);
        return meanService + erlangC(n, rho) * meanService / (n * (1 - rho));
    }

    private static void check(double rho, double meanService) {
        if (!(rho >= 0 && rho < 1)) {
            throw new IllegalArgumentException("utilisation rho must be in [0, 1), was " + rho);
        }
        if (!(meanService > 0) || Double.isInfinite(meanService)) {
            throw new IllegalArgumentException("mean service time must be a finite number > 0 s, was " + meanService);
        }
    }
}

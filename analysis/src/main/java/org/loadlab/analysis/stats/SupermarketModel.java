package org.loadlab.analysis.stats;

/**
 * The supermarket model's limit as the number of queues n → ∞: Poisson arrivals at rate λn,
 * n FIFO queues with exponential service of rate 1, and every arrival joins the shortest of
 * d queues chosen independently and uniformly at random (with replacement; JSQ(d),
 * power-of-d). In equilibrium the fraction of queues with at least i customers is
 * <pre>  s_i = λ^((d^i − 1)/(d − 1))      (s_i = λ^i for d = 1, the M/M/1 queue)</pre>
 * and the mean time in system is T_d(λ) = Σ_{i≥1} λ^((d^i − d)/(d − 1)) (by Little's law,
 * Σ_i s_i / λ), in units of the mean service time.
 *
 * <p>Source: N. D. Vvedenskaya, R. L. Dobrushin, F. I. Karpelevich, "Queueing system with
 * selection of the shortest of two queues: an asymptotic approach", Problems of Information
 * Transmission 32(1), 1996; M. Mitzenmacher, "The power of two choices in randomized load
 * balancing", IEEE TPDS 12(10), 2001, Theorem 3.
 */
public final class SupermarketModel {
    private SupermarketModel() {
    }

    /**
     * Equilibrium fraction of queues holding at least {@code i} customers.
     *
     * @param i queue length, ≥ 0 (s_0 = 1)
     * @param lambda arrival rate per queue over service rate, 0 ≤ λ &lt; 1
     * @param d choices per arrival, ≥ 1
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double fractionAtLeast(int i, double lambda, int d) {
        check(lambda, d);
        if (i < 0) {
            throw new IllegalArgumentException("queue length i must be >= 0, was " + i);
        }
        return Math.pow(lambda, exponent(i, d));
    }

    /**
     * Equilibrium mean time in system (response time), in mean service times.
     *
     * @param lambda arrival rate per queue over service rate, 0 ≤ λ &lt; 1
     * @param d choices per arrival, ≥ 1
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double meanResponse(double lambda, int d) {
        check(lambda, d);
        if (d == 1) {
            return 1 / (1 - lambda);
        }
        double sum = 0;
        for (int i = 1; i < 64; i++) {
            double term = Math.pow(lambda, exponent(i, d) - 1);
            sum += term;
            if (term < 1e-17 * sum) {
                break;
            }
        }
        return sum;
    }

    /** (d^i − 1)/(d − 1) = 1 + d + … + d^(i−1), as a double (it grows doubly exponentially). */
    private static double exponent(int i, int d) {
        double e = 0;
        double power = 1;
        for (int k = 0; k < i; k++) {
            e += power;
            power *= d;
        }
        return e;
    }

    private static void check(double lambda, int d) {
        if (!(lambda >= 0 && lambda < 1)) {
            throw new IllegalArgumentException("lambda (arrival over service rate per queue) must be in [0, 1), was " + lambda);
        }
        if (d < 1) {
            throw new IllegalArgumentException("choices d must be >= 1, was " + d);
        }
    }
}

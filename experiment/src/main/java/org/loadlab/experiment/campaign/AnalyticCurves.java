package org.loadlab.experiment.campaign;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.analysis.campaign.AnalyticCurve;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Queueing-theory reference curves of mean response time against utilisation ρ, for a
 * cluster of n identical nodes with mean service time s = E[D]/μ:
 * <ul>
 *   <li>{@code mm1}: each node its own M/M/1 queue (random routing, no sharing):
 *       R = s/(1 − ρ);</li>
 *   <li>{@code mmn}: one M/M/n queue (perfect sharing, the lower bound of any
 *       dispatching): R = s + C(n, nρ)·s/(n(1 − ρ)), with C the Erlang C probability of
 *       waiting.</li>
 * </ul>
 * Source: Kleinrock, Queueing Systems Vol. 1 (1975), §3.2 and §3.5; SPEC.md §7.
 */
public final class AnalyticCurves {
    private AnalyticCurves() {
    }

    /**
     * The curves named in a campaign's {@code analytic} list.
     *
     * @param names mm1 and/or mmn
     * @param scenario the campaign's first scenario (n, μ, E[D] are read from it)
     */
    public static List<AnalyticCurve> of(List<String> names, Scenario scenario) {
        int n = scenario.nodes().count();
        double s = scenario.demand().mean() / scenario.nodes().rateValue();
        List<AnalyticCurve> out = new ArrayList<>();
        for (String name : names) {
            if (name.equals("mm1")) {
                out.add(new AnalyticCurve("M/M/1", rho -> rho < 1 ? s / (1 - rho) : Double.NaN));
            } else if (name.equals("mmn")) {
                out.add(new AnalyticCurve("M/M/" + n, rho -> rho < 1 ? s + erlangC(n, n * rho) * s / (n * (1 - rho)) : Double.NaN));
            }
        }
        return out;
    }

    /**
     * Erlang C: probability that an arrival waits in an M/M/n queue with offered load
     * a = λ/μ (erlangs), a &lt; n. Computed from the Erlang B recursion
     * B(0) = 1, B(k) = a·B(k−1)/(k + a·B(k−1)), which is stable for large n, then
     * C = B/(1 − (a/n)(1 − B)).
     *
     * @param n servers, ≥ 1
     * @param a offered load in erlangs, 0 ≤ a &lt; n
     * @throws IllegalArgumentException if the arguments are out of range
     */
    public static double erlangC(int n, double a) {
        if (n < 1 || !(a >= 0) || !(a < n)) {
            throw new IllegalArgumentException("Erlang C needs n >= 1 and 0 <= a < n, got n = " + n + ", a = " + a);
        }
        double b = 1.0;
        for (int k = 1; k <= n; k++) {
            b = a * b / (k + a * b);
        }
        return b / (1 - (a / n) * (1 - b));
    }
}

package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.loadlab.analysis.campaign.PolicyColours;
import org.loadlab.balancer.core.BalancerLogic;

/**
 * {@code retry-storm}: a node of 10 crashes at t = 30 s under load (per-try timeout 1 s, up
 * to 2 retries). Without retries, with retries and no budget, with Envoy's budget (20 % of
 * active requests, at least 3): retries issued per request, retries the budget refused,
 * requests served, largest queue, p99 of the served ones, and the attempts routed per second
 * against the arrivals (the load amplification).
 *
 * <p>Source: issue 14; Envoy retry budgets; Bronson et al., "Metastable failures in distributed
 * systems" (HotOS 2021).
 */
public final class RetryStormStudy {
    /** The scenario. */
    public static final String SCENARIO = "retry-storm";

    /**
     * One variant's measures.
     *
     * @param label the variant
     * @param retriesPerRequest retries issued / arrivals, per seed
     * @param overflow retries refused by the budget / arrivals, per seed
     * @param served completed / arrivals, per seed
     * @param maxQueue largest queue, per seed
     * @param p99 p99 response time of the served, per seed
     * @param attemptsPerSecond attempts routed per second (mean over seeds), from 0
     */
    public record Measure(String label, List<Double> retriesPerRequest, List<Double> overflow, List<Double> served,
                          List<Double> maxQueue, List<Double> p99, double[] attemptsPerSecond) {
    }

    private RetryStormStudy() {
    }

    /** The three variants. */
    public static List<StudyRuns.Variant> variants() {
        return List.of(new StudyRuns.Variant("no retries", "least-request", List.of("retry.max-retries = 0")),
                new StudyRuns.Variant("retries, no budget", "least-request", List.of("retry.budget.enabled = false")),
                new StudyRuns.Variant("retries, budget 20 %", "least-request", List.of("retry.budget.enabled = true")));
    }

    /** Runs the variants. */
    public static List<Measure> measure(List<StudyRuns.Variant> variants, List<Long> seeds, List<String> extra) {
        List<Measure> out = new ArrayList<>();
        for (StudyRuns.Variant v : variants) {
            List<StudyRuns.Run> runs = StudyRuns.run(SCENARIO, v, seeds, extra);
            int end = (int) runs.get(0).scenario().duration();
            List<Double> rpr = new ArrayList<>();
            List<Double> over = new ArrayList<>();
            List<Double> served = new ArrayList<>();
            List<Double> q = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            double[] perSecond = new double[end];
            for (StudyRuns.Run r : runs) {
                double arrived = r.metrics().requestsArrived();
                rpr.add(r.metrics().counters().getOrDefault(BalancerLogic.RETRIES, 0L) / arrived);
                over.add(r.metrics().counters().getOrDefault(BalancerLogic.RETRY_OVERFLOW, 0L) / arrived);
                served.add(r.metrics().requestsCompleted() / arrived);
                q.add((double) r.metrics().maxQueue());
                p99.add(r.metrics().responseP99());
                for (int s = 0; s < end; s++) {
                    perSecond[s] += (double) r.trace().routed(s) / runs.size();
                }
            }
            out.add(new Measure(v.label(), rpr, over, served, q, p99, perSecond));
        }
        return out;
    }

    /** The measure of {@code label}. */
    public static Measure of(List<Measure> ms, String label) {
        return ms.stream().filter(m -> m.label().equals(label)).findFirst().orElseThrow();
    }

    /** The table. */
    public static StudyTable table(List<Measure> ms) {
        List<List<String>> rows = new ArrayList<>();
        for (Measure m : ms) {
            rows.add(List.of(m.label(), StudyTable.pm(StudyRuns.mean(m.retriesPerRequest()), StudyRuns.sd(m.retriesPerRequest()), 3),
                    StudyTable.pm(StudyRuns.mean(m.overflow()), StudyRuns.sd(m.overflow()), 3),
                    StudyTable.pm(100 * StudyRuns.mean(m.served()), 100 * StudyRuns.sd(m.served()), 1),
                    StudyTable.pm(StudyRuns.mean(m.maxQueue()), StudyRuns.sd(m.maxQueue()), 0),
                    StudyTable.pm(StudyRuns.mean(m.p99()), StudyRuns.sd(m.p99()), 2)));
        }
        return new StudyTable("Retry storm: 1 of 10 nodes crashes at t = 30 s at utilisation 0.75; per-try timeout 1 s,"
                + " 2 retries (mean ± sd over seeds)", List.of("variant", "retries / request", "refused by budget / request",
                "served (%)", "max queue", "p99 of served (s)"), rows);
    }

    /** The plot: attempts routed per second, against the arrival rate. */
    public static Path plot(List<Measure> ms, double arrivalRate, Path dir) throws IOException {
        XYChart c = StudyPlots.chart("Retry storm: attempts sent per second (a node of 10 crashes at t = 30 s)",
                "time (s)", "attempts routed per second (mean over seeds)");
        java.util.Map<String, java.awt.Color> colours = PolicyColours.of(ms.stream().map(Measure::label).toList());
        for (Measure m : ms) {
            double[] y = m.attemptsPerSecond();
            double[] x = new double[y.length];
            for (int s = 0; s < y.length; s++) {
                x[s] = s + 0.5;
            }
            StudyPlots.line(c, colours.get(m.label()), m.label(), x, y, false);
        }
        StudyPlots.reference(c, "arrival rate", 0, ms.get(0).attemptsPerSecond().length, arrivalRate);
        return StudyPlots.save(c, dir, "retry-storm");
    }
}

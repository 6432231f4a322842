package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.loadlab.analysis.campaign.PolicyColours;

/**
 * {@code slow-host}: 4 of 20 nodes serve 50 times slower. The share of requests routed to
 * them (retries included) after the warm-up, for power-of-k with k = 2 and 4, least-request
 * with 2 and 4 choices and peak-ewma, against C(s,k)/C(n,k) — the share forced onto slow hosts
 * when all k sampled nodes are slow — and the slow hosts' share of the capacity.
 *
 * <p>Source: issue 14; Mitzenmacher (2001) for power-of-k.
 */
public final class SlowHostStudy {
    /** The scenario. */
    public static final String SCENARIO = "slow-host";
    /** The slow nodes. */
    public static final int[] SLOW = {0, 1, 2, 3};
    /** Their speed relative to the others. */
    public static final double FACTOR = 0.02;

    /**
     * One variant's measures.
     *
     * @param label the variant
     * @param k nodes drawn per decision
     * @param slowShare share of requests routed to slow hosts, per seed
     * @param p99 p99 response time per seed, seconds
     * @param maxQueue largest queue per seed
     */
    public record Measure(String label, int k, List<Double> slowShare, List<Double> p99, List<Double> maxQueue) {
    }

    private SlowHostStudy() {
    }

    /** The variants with their k. */
    public static List<StudyRuns.Variant> variants() {
        return List.of(
                new StudyRuns.Variant("p2c (k = 2)", "p2c", List.of()),
                new StudyRuns.Variant("power-of-k, k = 4", "power-of-k", List.of("policy.k = 4")),
                new StudyRuns.Variant("least-request, 2 choices", "least-request", List.of("policy.least-request.choices = 2")),
                new StudyRuns.Variant("least-request, 4 choices", "least-request", List.of("policy.least-request.choices = 4")),
                new StudyRuns.Variant("peak-ewma (k = 2)", "peak-ewma", List.of()));
    }

    /** k of a variant. */
    static int k(StudyRuns.Variant v) {
        return v.overrides().stream().anyMatch(o -> o.endsWith("= 4")) ? 4 : 2;
    }

    /** C(s,k)/C(n,k): the chance that all k of n sampled nodes are among the s slow ones. */
    public static double forcedShare(int slow, int n, int k) {
        double p = 1;
        for (int i = 0; i < k; i++) {
            p *= (double) (slow - i) / (n - i);
        }
        return Math.max(0, p);
    }

    /** Runs the variants. */
    public static List<Measure> measure(List<StudyRuns.Variant> variants, List<Long> seeds, List<String> extra) {
        List<Measure> out = new ArrayList<>();
        for (StudyRuns.Variant v : variants) {
            List<Double> share = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> q = new ArrayList<>();
            for (StudyRuns.Run r : StudyRuns.run(SCENARIO, v, seeds, extra)) {
                int from = (int) r.scenario().warmup();
                int to = (int) r.scenario().duration();
                share.add((double) r.trace().routed(from, to, SLOW) / r.trace().routedBetween(from, to));
                p99.add(r.metrics().responseP99());
                q.add((double) r.metrics().maxQueue());
            }
            out.add(new Measure(v.label(), k(v), share, p99, q));
        }
        return out;
    }

    /** The measure of {@code label}. */
    public static Measure of(List<Measure> ms, String label) {
        return ms.stream().filter(m -> m.label().equals(label)).findFirst().orElseThrow();
    }

    /** The slow hosts' share of the capacity. */
    public static double capacityShare(int n) {
        double slow = SLOW.length * FACTOR;
        return slow / (n - SLOW.length + slow);
    }

    /** The table. */
    public static StudyTable table(List<Measure> ms, int n) {
        List<List<String>> rows = new ArrayList<>();
        for (Measure m : ms) {
            rows.add(List.of(m.label(), StudyTable.pm(100 * StudyRuns.mean(m.slowShare()), 100 * StudyRuns.sd(m.slowShare()), 3),
                    StudyTable.num(100 * forcedShare(SLOW.length, n, m.k()), 3),
                    StudyTable.num(100 * capacityShare(n), 3),
                    StudyTable.pm(StudyRuns.mean(m.p99()), StudyRuns.sd(m.p99()), 2),
                    StudyTable.pm(StudyRuns.mean(m.maxQueue()), StudyRuns.sd(m.maxQueue()), 0)));
        }
        return new StudyTable("Slow hosts: 4 of 20 nodes 50x slower; share of requests routed to them (mean ± sd over"
                + " seeds, after the warm-up)", List.of("variant", "slow share (%)", "forced C(4,k)/C(20,k) (%)",
                "slow capacity share (%)", "p99 (s)", "max queue"), rows);
    }

    /** The plot: slow share per variant against the forced share and the capacity share. */
    public static Path plot(List<Measure> ms, int n, Path dir) throws IOException {
        XYChart c = StudyPlots.chart("Slow hosts: share routed to the 4 slow nodes (of 20)", "variant", "share of requests (%)");
        c.getStyler().setxAxisTickLabelsFormattingFunction(v -> {
            int i = (int) Math.rint(v);
            return Math.abs(v - i) < 1e-9 && i >= 0 && i < ms.size() ? ms.get(i).label() : "";
        });
        double[] x = new double[ms.size()];
        double[] y = new double[ms.size()];
        double[] forced = new double[ms.size()];
        for (int i = 0; i < ms.size(); i++) {
            x[i] = i;
            y[i] = 100 * StudyRuns.mean(ms.get(i).slowShare());
            forced[i] = 100 * forcedShare(SLOW.length, n, ms.get(i).k());
        }
        java.util.Map<String, java.awt.Color> colours = PolicyColours.of(List.of("measured", "forced C(4,k)/C(20,k)"));
        StudyPlots.points(c, 0, colours.get("measured"), "measured", x, y);
        StudyPlots.points(c, 1, colours.get("forced C(4,k)/C(20,k)"), "forced C(4,k)/C(20,k)", x, forced);
        StudyPlots.reference(c, "slow hosts' capacity share", 0, ms.size() - 1, 100 * capacityShare(n));
        return StudyPlots.save(c, dir, "slow-host");
    }
}

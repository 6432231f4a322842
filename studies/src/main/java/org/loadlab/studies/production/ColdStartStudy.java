package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.loadlab.analysis.campaign.PolicyColours;

/**
 * {@code cold-start}: 4 cold nodes join 16 warm ones at t = 60 s (serving at a quarter of their
 * speed until 75 s). For each policy, with slow start off and on (window 30 s), and for
 * peak-ewma also with a cautious latency prior (1 s), second by second: the new nodes' mean
 * share of the routed requests against the fair share 1/20, over {@link Windows#WIDTH}-second
 * windows (so a second's Poisson noise is not taken for an overshoot). Reported: the seconds
 * from the join to the end of the first window whose share reaches 90 % of fair, the overshoot
 * (the largest window share over fair), the new nodes' share of traffic while still cold
 * (60–75 s, as a multiple of fair) and p99 response time.
 *
 * <p>Source: issue 14; Envoy slow start; Finagle / Linkerd peak EWMA (priors of new endpoints).
 */
public final class ColdStartStudy {
    /** The scenario. */
    public static final String SCENARIO = "cold-start";
    /** When the new nodes join, seconds. */
    public static final int JOIN = 60;
    /** When they are warm, seconds. */
    public static final int WARM = 75;
    /** The joining nodes. */
    public static final int[] NEW = {16, 17, 18, 19};
    /** Slow start window of the "on" variants, seconds. */
    public static final double WINDOW = 30;

    /**
     * One variant's measures over seeds.
     *
     * @param label the variant
     * @param timeToFair seconds after the join until the new nodes' share first reached 90 % of fair (NaN: never)
     * @param overshoot largest 1 s share of one new node / fair share, per seed
     * @param coldShare the new nodes' share during the cold phase / fair, per seed
     * @param p99 p99 response time per seed, seconds
     * @param shareBySecond the new nodes' mean share per second (mean over seeds), from 0
     */
    public record Measure(String label, List<Double> timeToFair, List<Double> overshoot, List<Double> coldShare,
                          List<Double> p99, double[] shareBySecond) {
    }

    private ColdStartStudy() {
    }

    /** The variants: each policy with slow start off and on, and peak-ewma with a 1 s prior. */
    public static List<StudyRuns.Variant> variants() {
        List<StudyRuns.Variant> out = new ArrayList<>();
        for (String p : List.of("round-robin", "least-request", "least-connections", "p2c", "peak-ewma")) {
            out.add(StudyRuns.Variant.of(p));
            out.add(StudyRuns.Variant.of(p).with(SLOW_START, "slow-start.window = " + WINDOW));
        }
        StudyRuns.Variant prior = new StudyRuns.Variant("peak-ewma, prior 1 s", "peak-ewma", List.of("policy.peak-ewma.prior = 1.0"));
        out.add(prior);
        out.add(prior.with(SLOW_START, "slow-start.window = " + WINDOW));
        return out;
    }

    /** Runs {@code variants} for {@code seeds}. */
    public static List<Measure> measure(List<StudyRuns.Variant> variants, List<Long> seeds, List<String> extra) {
        List<Measure> out = new ArrayList<>();
        for (StudyRuns.Variant v : variants) {
            List<StudyRuns.Run> runs = StudyRuns.run(SCENARIO, v, seeds, extra);
            int n = runs.get(0).scenario().nodes().count();
            int end = (int) runs.get(0).scenario().duration();
            double fair = 1.0 / n;
            List<Double> ttf = new ArrayList<>();
            List<Double> over = new ArrayList<>();
            List<Double> cold = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            double[] bySecond = new double[end];
            for (StudyRuns.Run r : runs) {
                SecondCounts t = r.trace();
                for (int s = 0; s < end; s++) {
                    int all = t.routed(s);
                    bySecond[s] += (all == 0 ? 0 : (double) t.routed(s, s + 1, NEW) / all / NEW.length) / runs.size();
                }
                ttf.add(Windows.timeToFair(t, NEW, JOIN, end, fair));
                over.add(Windows.peak(t, NEW, JOIN, end) / fair);
                cold.add((double) t.routed(JOIN, WARM, NEW) / t.routedBetween(JOIN, WARM) / NEW.length / fair);
                p99.add(r.metrics().responseP99());
            }
            out.add(new Measure(v.label(), ttf, over, cold, p99, bySecond));
        }
        return out;
    }

    /** The measure of variant {@code label}. */
    public static Measure of(List<Measure> ms, String label) {
        return ms.stream().filter(m -> m.label().equals(label)).findFirst().orElseThrow();
    }

    /** The table. */
    public static StudyTable table(List<Measure> ms) {
        List<List<String>> rows = new ArrayList<>();
        for (Measure m : ms) {
            long never = m.timeToFair().stream().filter(d -> Double.isNaN(d)).count();
            List<Double> reached = m.timeToFair().stream().filter(d -> !Double.isNaN(d)).toList();
            rows.add(List.of(m.label(),
                    reached.isEmpty() ? "never" : StudyTable.num(StudyRuns.mean(reached), 1) + (never > 0 ? " (" + never
                            + " never)" : ""),
                    StudyTable.pm(StudyRuns.mean(m.overshoot()), StudyRuns.sd(m.overshoot()), 2),
                    StudyTable.pm(StudyRuns.mean(m.coldShare()), StudyRuns.sd(m.coldShare()), 2),
                    StudyTable.pm(StudyRuns.mean(m.p99()), StudyRuns.sd(m.p99()), 2)));
        }
        return new StudyTable("Cold start: 4 cold nodes (quarter speed for 15 s) join 16 warm ones at t = 60 s (mean ± sd"
                + " over seeds)", List.of("variant", "s to 90 % of fair share", "overshoot (5 s share / fair)",
                "share while cold / fair", "p99 (s)"), rows);
    }

    /** Suffix of the label of a variant with slow start on. */
    static final String SLOW_START = " + slow start";

    /**
     * The plot: the new nodes' mean share per second for the variants {@code labels}; a variant
     * with slow start on is drawn dashed in the colour of the same policy without it.
     */
    public static Path plot(List<Measure> ms, List<String> labels, Path dir) throws IOException {
        XYChart c = StudyPlots.chart("Cold start: share of each joining node (4 join 16 at t = 60 s; cold until 75 s)",
                "time (s)", "share of requests per joining node (5 s mean)");
        List<String> bases = new ArrayList<>();
        for (String label : labels) {
            String base = label.endsWith(SLOW_START) ? label.substring(0, label.length() - SLOW_START.length()) : label;
            if (!bases.contains(base)) {
                bases.add(base);
            }
        }
        java.util.Map<String, java.awt.Color> colours = PolicyColours.of(bases);
        for (String label : labels) {
            double[] y = of(ms, label).shareBySecond();
            int from = JOIN - 5;
            double[] xs = new double[y.length - from];
            double[] ys = new double[y.length - from];
            for (int s = from; s < y.length; s++) {
                xs[s - from] = s + 1;
                ys[s - from] = Windows.trailing(y, s);
            }
            if (label.endsWith(SLOW_START)) {
                StudyPlots.dashedLine(c, colours.get(label.substring(0, label.length() - SLOW_START.length())), label, xs, ys);
            } else {
                StudyPlots.line(c, colours.get(label), label, xs, ys, false);
            }
        }
        double end = of(ms, labels.get(0)).shareBySecond().length;
        StudyPlots.reference(c, "fair share 1/20", JOIN - 5, end, 0.05);
        return StudyPlots.save(c, dir, "cold-start");
    }
}

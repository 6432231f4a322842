package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.loadlab.analysis.campaign.PolicyColours;
import org.loadlab.balancer.policy.AffinityPolicy;

/**
 * {@code scale-event}: 5 nodes join 10 at t = 60 s, 5 of the first ones leave at t = 120 s.
 * For each policy, over {@link Windows#WIDTH}-second windows: the seconds until the joining
 * nodes reach 90 % of their fair share (1/15), their overshoot (largest window share per
 * joining node / fair), the largest window share of any node after the scale-down, p99; and for ring-hash the share of returning keys remapped after
 * each event (theory: 1/3 of the keys move each time).
 *
 * <p>Source: issue 14 (the imbalance users report on scale-up and scale-down).
 */
public final class ScaleEventStudy {
    /** The scenario. */
    public static final String SCENARIO = "scale-event";
    /** Scale-up time, seconds. */
    public static final int UP = 60;
    /** Scale-down time, seconds. */
    public static final int DOWN = 120;
    /** The joining nodes. */
    public static final int[] JOINING = {10, 11, 12, 13, 14};
    /** The nodes left after the scale-down. */
    public static final int[] REMAINING = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14};

    /**
     * One variant's measures.
     *
     * @param label the variant
     * @param timeToFair seconds after the join to the end of the first 5 s window at 90 % of fair (NaN: never), per seed
     * @param overshoot largest 1 s share of one joining node / fair, per seed
     * @param peakAfterDown largest 1 s share of one node after the scale-down, per seed
     * @param p99 p99 per seed, seconds
     * @param movedUp share of returning keys remapped in the 60 s after the join, per seed (NaN without keys)
     * @param movedDown the same after the scale-down
     * @param shareBySecond the joining nodes' mean share per second (mean over seeds)
     */
    public record Measure(String label, List<Double> timeToFair, List<Double> overshoot, List<Double> peakAfterDown,
                          List<Double> p99, List<Double> movedUp, List<Double> movedDown, double[] shareBySecond) {
    }

    private ScaleEventStudy() {
    }

    /**
     * The variants: the scenario's policies, least-connections with slow start, and least-queue
     * (with and without slow start) and p2c reading a shared view reported every second.
     */
    public static List<StudyRuns.Variant> variants() {
        List<StudyRuns.Variant> out = new ArrayList<>();
        for (String p : List.of("round-robin", "least-request", "least-connections", "p2c", "peak-ewma", "ring-hash")) {
            out.add(StudyRuns.Variant.of(p));
        }
        out.add(StudyRuns.Variant.of("least-connections").with(" + slow start", "slow-start.window = 30"));
        // Loads read from a shared view reported every second: the new nodes' empty queues draw the requests.
        StudyRuns.Variant stale = new StudyRuns.Variant("least-queue, view 1 s old", "least-queue",
                List.of("information.model = cached", "information.report-period = 1.0", "information.report-delay = 0"));
        out.add(stale);
        out.add(stale.with(" + slow start", "slow-start.window = 30"));
        out.add(new StudyRuns.Variant("p2c, view 1 s old", "p2c", stale.overrides()));
        return out;
    }

    /** Runs the variants. */
    public static List<Measure> measure(List<StudyRuns.Variant> variants, List<Long> seeds, List<String> extra) {
        List<Measure> out = new ArrayList<>();
        for (StudyRuns.Variant v : variants) {
            List<StudyRuns.Run> runs = StudyRuns.run(SCENARIO, v, seeds, extra);
            int end = (int) runs.get(0).scenario().duration();
            double fair = 1.0 / 15;
            List<Double> ttf = new ArrayList<>();
            List<Double> over = new ArrayList<>();
            List<Double> down = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> movedUp = new ArrayList<>();
            List<Double> movedDown = new ArrayList<>();
            double[] bySecond = new double[end];
            for (StudyRuns.Run r : runs) {
                SecondCounts t = r.trace();
                for (int s = 0; s < end; s++) {
                    int all = t.routed(s);
                    bySecond[s] += (all == 0 ? 0 : (double) t.routed(s, s + 1, JOINING) / all / JOINING.length) / runs.size();
                }
                ttf.add(Windows.timeToFair(t, JOINING, UP, DOWN, fair));
                over.add(Windows.peak(t, JOINING, UP, DOWN) / fair);
                double peakDown = 0;
                for (int node : REMAINING) {
                    peakDown = Math.max(peakDown, Windows.peak(t, new int[] {node}, DOWN, end));
                }
                down.add(peakDown);
                p99.add(r.metrics().responseP99());
                movedUp.add(moved(t, UP, DOWN));
                movedDown.add(moved(t, DOWN, end));
            }
            out.add(new Measure(v.label(), ttf, over, down, p99, movedUp, movedDown, bySecond));
        }
        return out;
    }

    private static double moved(SecondCounts t, int from, int to) {
        long repeat = t.counted(AffinityPolicy.REPEAT, from, to);
        return repeat == 0 ? Double.NaN : (double) t.counted(AffinityPolicy.MOVED, from, to) / repeat;
    }

    /** The measure of {@code label}. */
    public static Measure of(List<Measure> ms, String label) {
        return ms.stream().filter(m -> m.label().equals(label)).findFirst().orElseThrow();
    }

    /** The table. */
    public static StudyTable table(List<Measure> ms) {
        List<List<String>> rows = new ArrayList<>();
        for (Measure m : ms) {
            List<Double> reached = m.timeToFair().stream().filter(d -> !Double.isNaN(d)).toList();
            long never = m.timeToFair().size() - reached.size();
            rows.add(List.of(m.label(),
                    reached.isEmpty() ? "never" : StudyTable.num(StudyRuns.mean(reached), 1) + (never > 0 ? " (" + never
                            + " never)" : ""),
                    StudyTable.pm(StudyRuns.mean(m.overshoot()), StudyRuns.sd(m.overshoot()), 2),
                    StudyTable.pm(StudyRuns.mean(m.peakAfterDown()), StudyRuns.sd(m.peakAfterDown()), 3),
                    StudyTable.pm(StudyRuns.mean(m.p99()), StudyRuns.sd(m.p99()), 2),
                    Double.isNaN(StudyRuns.mean(m.movedUp())) ? "–" : StudyTable.num(StudyRuns.mean(m.movedUp()), 3)
                            + " / " + StudyTable.num(StudyRuns.mean(m.movedDown()), 3)));
        }
        return new StudyTable("Scale events: 5 nodes join 10 at t = 60 s, 5 of the first leave at t = 120 s (mean ± sd over"
                + " seeds)", List.of("variant", "s to 90 % of fair (join)", "overshoot after join (5 s share / fair)",
                "max 5 s node share after leave (fair 0.1)", "p99 (s)", "returning keys remapped, join / leave"), rows);
    }

    /** The plot: the joining nodes' mean share per second. */
    public static Path plot(List<Measure> ms, List<String> labels, Path dir) throws IOException {
        XYChart c = StudyPlots.chart("Scale events: share of each joining node (5 join 10 at 60 s; 5 old ones leave at 120 s)",
                "time (s)", "share of requests per joining node (5 s mean)");
        java.util.Map<String, java.awt.Color> colours = PolicyColours.of(labels);
        for (String label : labels) {
            double[] y = of(ms, label).shareBySecond();
            int from = UP - 5;
            double[] xs = new double[y.length - from];
            double[] ys = new double[y.length - from];
            for (int s = from; s < y.length; s++) {
                xs[s - from] = s + 1;
                ys[s - from] = Windows.trailing(y, s);
            }
            StudyPlots.line(c, colours.get(label), label, xs, ys, false);
        }
        int end = of(ms, labels.get(0)).shareBySecond().length;
        StudyPlots.reference(c, "fair share 1/15", UP - 5, DOWN, 1.0 / 15);
        StudyPlots.reference(c, "fair share after the leave 1/10", DOWN, end, 0.1);
        return StudyPlots.save(c, dir, "scale-event");
    }
}

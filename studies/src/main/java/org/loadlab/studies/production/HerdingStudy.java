package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.loadlab.analysis.campaign.PolicyColours;

/**
 * {@code herding}: m balancers (1, 4, 16) × the age of the shared view (exact state, loads
 * reported every 0.1 s, every 1 s) × policy (least-queue, p2c, asmf, peak-ewma, and random as
 * the noise floor) on the {@code herding} scenario. The measure is every run's
 * {@code max_node_share_1s}, next to the fair share 1/n and p2c's bound k/n on a frozen view
 * (a node with the lowest reported load is in a sample of 2 with probability 2/n).
 *
 * <p>Source: issue 14; Mitzenmacher, "How useful is old information?" (IEEE TPDS 2000).
 */
public final class HerdingStudy {
    /** The scenario. */
    public static final String SCENARIO = "herding";
    /** The policies, in table order. */
    public static final List<String> POLICIES = List.of("least-queue", "p2c", "asmf", "peak-ewma", "random");
    /** Balancer counts. */
    public static final List<Integer> BALANCERS = List.of(1, 4, 16);
    /** The views: label and overrides. */
    public static final List<String[]> VIEWS = List.of(
            new String[] {"exact", "information.model = oracle"},
            new String[] {"0.1 s", "information.report-period = 0.1"},
            new String[] {"1 s", "information.report-period = 1.0"});

    /**
     * The largest 1 s node share of one cell, over seeds.
     *
     * @param policy the policy
     * @param view the view's label
     * @param balancers m
     * @param shares one value per seed
     * @param p99 p99 response time per seed, seconds
     */
    public record Cell(String policy, String view, int balancers, List<Double> shares, List<Double> p99) {
        /** Mean share over seeds. */
        public double mean() {
            return StudyRuns.mean(shares);
        }
    }

    private HerdingStudy() {
    }

    /**
     * Runs the grid.
     *
     * @param seeds seeds per cell
     * @param balancers the m values
     * @param extra further overrides (e.g. a shorter duration)
     */
    public static List<Cell> measure(List<Long> seeds, List<Integer> balancers, List<String> extra) {
        List<Cell> cells = new ArrayList<>();
        for (String policy : POLICIES) {
            for (String[] view : VIEWS) {
                for (int m : balancers) {
                    StudyRuns.Variant v = new StudyRuns.Variant(policy, policy, List.of(view[1], "balancers.count = " + m));
                    List<Double> shares = new ArrayList<>();
                    List<Double> p99 = new ArrayList<>();
                    for (StudyRuns.Run r : StudyRuns.run(SCENARIO, v, seeds, extra)) {
                        shares.add(r.metrics().maxNodeShare1s());
                        p99.add(r.metrics().responseP99());
                    }
                    cells.add(new Cell(policy, view[0], m, shares, p99));
                }
            }
        }
        return cells;
    }

    /** The cell of {@code policy}, {@code view} and {@code m}. */
    public static Cell cell(List<Cell> cells, String policy, String view, int m) {
        return cells.stream().filter(c -> c.policy().equals(policy) && c.view().equals(view) && c.balancers() == m)
                .findFirst().orElseThrow();
    }

    /** The table: one row per (policy, view), the share for each m, and p99 at the largest m. */
    public static StudyTable table(List<Cell> cells, List<Integer> balancers, int nodes) {
        List<String> cols = new ArrayList<>(List.of("policy", "view"));
        for (int m : balancers) {
            cols.add("max 1 s share, m = " + m);
        }
        int top = balancers.get(balancers.size() - 1);
        cols.add("p99 (s), m = " + top);
        List<List<String>> rows = new ArrayList<>();
        for (String policy : POLICIES) {
            for (String[] view : VIEWS) {
                List<String> row = new ArrayList<>(List.of(policy, view[0]));
                for (int m : balancers) {
                    Cell c = cell(cells, policy, view[0], m);
                    row.add(StudyTable.pm(c.mean(), StudyRuns.sd(c.shares()), 3));
                }
                Cell c = cell(cells, policy, view[0], top);
                row.add(StudyTable.pm(StudyRuns.mean(c.p99()), StudyRuns.sd(c.p99()), 2));
                rows.add(row);
            }
        }
        return new StudyTable(String.format(java.util.Locale.ROOT, "Herding: the largest share of a second's requests"
                + " one of %d nodes received (mean ± sd over seeds); fair share %.3f, p2c's bound on a frozen view"
                + " 2/n = %.3f", nodes, 1.0 / nodes, 2.0 / nodes), cols, rows);
    }

    /** The plot: share against the view's age for each policy at the largest m, with the fair share and 2/n. */
    public static Path plot(List<Cell> cells, List<Integer> balancers, int nodes, Path dir) throws IOException {
        int top = balancers.get(balancers.size() - 1);
        XYChart c = StudyPlots.chart("Herding on a shared view: " + top + " balancers, " + nodes + " nodes",
                "age of the shared view (exact state, reported every 0.1 s, every 1 s)", "largest 1 s share of one node");
        double[] x = {0, 1, 2};
        c.getStyler().setxAxisTickLabelsFormattingFunction(v -> Math.abs(v - Math.rint(v)) < 1e-9 && v >= 0 && v <= 2
                ? VIEWS.get((int) Math.rint(v))[0] : "");
        java.util.Map<String, java.awt.Color> colours = PolicyColours.of(POLICIES);
        for (String policy : POLICIES) {
            double[] y = new double[3];
            for (int k = 0; k < 3; k++) {
                y[k] = cell(cells, policy, VIEWS.get(k)[0], top).mean();
            }
            StudyPlots.line(c, colours.get(policy), policy, x, y, true);
        }
        StudyPlots.reference(c, "p2c bound 2/n", 0, 2, 2.0 / nodes);
        StudyPlots.reference(c, "fair share 1/n", 0, 2, 1.0 / nodes);
        return StudyPlots.save(c, dir, "herding");
    }
}

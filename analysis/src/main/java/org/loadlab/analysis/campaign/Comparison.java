package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.loadlab.analysis.stats.Summary;

/**
 * Two result sets side by side ({@code loadlab compare A B}): for every (scenario, parameters,
 * policy) group present in both, each metric's mean ± 95% CI in A and in B, the relative change,
 * and — where the same seeds ran on both sides — the paired t and Wilcoxon tests of B − A
 * ({@link PairedTests}). Groups are matched by scenario too when both sides ran the same
 * scenarios; otherwise (e.g. a scenario file against its edited copy) by parameters and policy
 * alone, which {@link #note()} says.
 *
 * <p>Source: DESIGN.md (analysis: paired tests); common random numbers make runs with the same
 * seed a natural pair.
 */
public final class Comparison {

    /** Metrics compared when none are named: the headline columns of {@code simulate}. */
    public static final List<Metric> DEFAULT_METRICS = List.of(Metric.THROUGHPUT, Metric.RESPONSE_MEAN,
            Metric.RESPONSE_P99, Metric.WAIT_MEAN, Metric.MAX_QUEUE, Metric.REQUESTS_REJECTED);

    /**
     * One group and metric on both sides.
     *
     * @param group scenario (when matched) and parameters, e.g. {@code quickstart} or {@code u=0.7}
     * @param policy policy (variant) name
     * @param metric the metric
     * @param a A's runs of the group (defined values)
     * @param b B's runs of the group (defined values)
     * @param pairs runs with the same seed on both sides (defined on both)
     * @param pT two-sided paired t-test p of B − A, NaN when undefined
     * @param wilcoxon two-sided Wilcoxon signed-rank test of B − A
     */
    public record Row(String group, String policy, Metric metric, Summary a, Summary b, int pairs, double pT,
                      PairedTests.WilcoxonResult wilcoxon) {
        /** (B − A) / A in percent, NaN when A's mean is 0 or undefined. */
        public double changePercent() {
            return a.mean() == 0 || Double.isNaN(a.mean()) ? Double.NaN : 100 * (b.mean() - a.mean()) / Math.abs(a.mean());
        }
    }

    private final List<Row> rows;
    private final String note;
    private final List<Metric> metrics;

    private Comparison(List<Row> rows, String note, List<Metric> metrics) {
        this.rows = rows;
        this.note = note;
        this.metrics = metrics;
    }

    /**
     * Compares two result sets.
     *
     * @param a the first (baseline) runs
     * @param b the second runs
     * @param metrics metrics to compare, non-empty
     * @return the comparison; its rows are empty when no group is on both sides
     * @throws NullPointerException if an argument is null
     */
    public static Comparison of(List<CampaignRun> a, List<CampaignRun> b, List<Metric> metrics) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        SortedSet<String> scenariosA = new TreeSet<>();
        SortedSet<String> scenariosB = new TreeSet<>();
        a.forEach(r -> scenariosA.add(r.scenario()));
        b.forEach(r -> scenariosB.add(r.scenario()));
        boolean byScenario = scenariosA.equals(scenariosB);
        String note = byScenario ? "" : "A ran " + String.join(", ", scenariosA) + " and B ran " + String.join(", ", scenariosB)
                + ": runs are matched by parameters, policy and seed, not by scenario name.";
        Map<String, Map<Long, CampaignRun>> groupsA = groups(a, byScenario);
        Map<String, Map<Long, CampaignRun>> groupsB = groups(b, byScenario);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Map<Long, CampaignRun>> g : groupsA.entrySet()) {
            Map<Long, CampaignRun> other = groupsB.get(g.getKey());
            if (other == null) {
                continue;
            }
            String[] parts = g.getKey().split("\u0000", -1);
            for (Metric m : metrics) {
                List<Double> ref = new ArrayList<>();
                List<Double> cmp = new ArrayList<>();
                for (Map.Entry<Long, CampaignRun> run : g.getValue().entrySet()) {
                    CampaignRun twin = other.get(run.getKey());
                    if (twin != null) {
                        double x = m.value(run.getValue().metrics());
                        double y = m.value(twin.metrics());
                        if (!Double.isNaN(x) && !Double.isNaN(y)) {
                            ref.add(x);
                            cmp.add(y);
                        }
                    }
                }
                double[] x = ref.stream().mapToDouble(Double::doubleValue).toArray();
                double[] y = cmp.stream().mapToDouble(Double::doubleValue).toArray();
                rows.add(new Row(parts[0], parts[1], m, summary(g.getValue(), m), summary(other, m), x.length,
                        PairedTests.pairedT(x, y), PairedTests.wilcoxon(x, y)));
            }
        }
        return new Comparison(rows, note, List.copyOf(metrics));
    }

    private static Summary summary(Map<Long, CampaignRun> runs, Metric m) {
        return Summary.of(runs.values().stream().mapToDouble(r -> m.value(r.metrics())).filter(v -> !Double.isNaN(v)).toArray());
    }

    /** group label + NUL + policy → seed → run, in first-appearance order of the groups. */
    private static Map<String, Map<Long, CampaignRun>> groups(List<CampaignRun> runs, boolean byScenario) {
        Map<String, Map<Long, CampaignRun>> out = new LinkedHashMap<>();
        for (CampaignRun r : runs) {
            Cell cell = new Cell(r.scenario(), r.parameters());
            String group = byScenario ? cell.label() : r.parameters().isEmpty() ? "all runs" : cell.parameterLabel();
            out.computeIfAbsent(group + "\u0000" + r.policy(), k -> new TreeMap<>()).put(r.seed(), r);
        }
        return out;
    }

    /** The rows, grouped as they appear in A, metrics in the order asked for. */
    public List<Row> rows() {
        return rows;
    }

    /** A remark on how runs were matched, or empty. */
    public String note() {
        return note;
    }

    /**
     * The comparison as a terminal table: one block per metric, one line per group and policy.
     *
     * @param nameA label of A (e.g. its directory)
     * @param nameB label of B
     */
    public String table(String nameA, String nameB) {
        StringBuilder out = new StringBuilder();
        out.append("A = ").append(nameA).append("\nB = ").append(nameB).append('\n');
        if (!note.isEmpty()) {
            out.append(note).append('\n');
        }
        if (rows.isEmpty()) {
            return out.append("No scenario, parameters and policy ran on both sides: nothing to compare.\n").toString();
        }
        for (Metric m : metrics) {
            List<List<String>> cells = new ArrayList<>();
            cells.add(List.of("group", "policy", "A", "B", "change", "pairs", "p (t)", "p (W)"));
            for (Row r : rows) {
                if (r.metric() == m) {
                    cells.add(List.of(r.group(), r.policy(), ReportText.meanCi(r.a().mean(), r.a().ci95()),
                            ReportText.meanCi(r.b().mean(), r.b().ci95()), ReportText.percent(r.changePercent()),
                            Integer.toString(r.pairs()), ReportText.p(r.pT()), ReportText.p(r.wilcoxon().p())));
                }
            }
            out.append('\n').append(m.labelWithUnit()).append(m.lowerIsBetter() ? ", lower is better" : ", higher is better")
                    .append('\n');
            appendAligned(out, cells);
        }
        out.append("\nA, B: mean ± half-width of the 95% confidence interval over seeds; change = (B − A) / A;\n"
                + "pairs: seeds that ran on both sides; p (t), p (W): two-sided paired t and Wilcoxon signed-rank tests\n"
                + "of B − A over those pairs (n/a: fewer than 2 pairs, or for W tied differences among fewer than\n"
                + PairedTests.NORMAL_MIN_PAIRS + " pairs; all n differences the same d: p (t) = 2^(1-n), the exact sign-flip p,\n"
                + "for d ≠ 0, and 1 for d = 0, identical values).\n");
        return out.toString();
    }

    private static void appendAligned(StringBuilder out, List<List<String>> cells) {
        int[] width = new int[cells.get(0).size()];
        for (List<String> row : cells) {
            for (int c = 0; c < row.size(); c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        for (int r = 0; r < cells.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < width.length; c++) {
                String v = cells.get(r).get(c);
                String pad = " ".repeat(width[c] - v.length());
                line.append(c > 0 ? "  " : "").append(c < 2 ? v + pad : pad + v);
            }
            out.append(line.toString().stripTrailing()).append('\n');
            if (r == 0) {
                StringBuilder rule = new StringBuilder();
                for (int c = 0; c < width.length; c++) {
                    rule.append(c > 0 ? "  " : "").append("-".repeat(width[c]));
                }
                out.append(rule).append('\n');
            }
        }
    }

    /**
     * Writes the rows as CSV: group, policy, metric, A and B n/mean/CI, change, pairs, p-values.
     *
     * @param file target file
     * @throws IOException if it cannot be written
     */
    public void writeCsv(Path file) throws IOException {
        StringBuilder out = new StringBuilder("group,policy,metric,a_n,a_mean,a_ci95,b_n,b_mean,b_ci95,change_percent,pairs,"
                + "p_t,p_wilcoxon,wilcoxon_method\n");
        for (Row r : rows) {
            out.append(csv(r.group())).append(',').append(csv(r.policy())).append(',').append(r.metric().columnName())
                    .append(',').append(r.a().n()).append(',').append(num(r.a().mean())).append(',').append(num(r.a().ci95()))
                    .append(',').append(r.b().n()).append(',').append(num(r.b().mean())).append(',').append(num(r.b().ci95()))
                    .append(',').append(num(r.changePercent())).append(',').append(r.pairs()).append(',').append(num(r.pT()))
                    .append(',').append(num(r.wilcoxon().p())).append(',').append(r.wilcoxon().method().text()).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : Double.toString(v);
    }

    private static String csv(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /**
     * One chart per metric: per group and policy, A's and B's mean with its 95% interval (cut at
     * 0) side by side, A as a circle on the left, B as a diamond on the right. Metrics that are
     * zero in every run ({@link #zeroEverywhere()}) get no chart; charts an earlier comparison drew
     * in {@code plotsDir} ({@code compare-*.png|svg}) are deleted first.
     *
     * @param plotsDir target directory
     * @param nameA legend label of A
     * @param nameB legend label of B
     * @param svg whether to write an SVG next to every PNG
     * @return the plots
     * @throws IOException if a file cannot be written
     */
    public List<Plot> plots(Path plotsDir, String nameA, String nameB, boolean svg) throws IOException {
        // An earlier comparison into the same directory may have drawn metrics this one does not.
        if (Files.isDirectory(plotsDir)) {
            try (java.util.stream.Stream<Path> files = Files.list(plotsDir)) {
                for (Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    if (Files.isRegularFile(f) && name.startsWith("compare-") && (name.endsWith(".png") || name.endsWith(".svg"))) {
                        Files.delete(f);
                    }
                }
            }
        }
        boolean before = ChartFiles.svg(svg);
        try {
            List<Plot> plots = new ArrayList<>();
            for (Metric m : metrics) {
                plot(plotsDir, m, nameA, nameB).ifPresent(plots::add);
            }
            return plots;
        } finally {
            ChartFiles.svg(before);
        }
    }

    /**
     * The compared metrics that are 0 (or undefined) in every run on both sides, in the order
     * asked for: {@link #plots} skips them, as a chart of a flat zero line says nothing that
     * "zero in every run" does not (the campaign report does the same).
     */
    public List<Metric> zeroEverywhere() {
        return metrics.stream().filter(m -> rows.stream().filter(r -> r.metric() == m)
                .allMatch(r -> zero(r.a()) && zero(r.b()))).toList();
    }

    private static boolean zero(Summary s) {
        return s.n() == 0 || s.mean() == 0 && (s.n() < 2 || s.sd() == 0);
    }

    private Optional<Plot> plot(Path plotsDir, Metric m, String nameA, String nameB) throws IOException {
        List<Row> own = rows.stream().filter(r -> r.metric() == m && r.a().n() + r.b().n() > 0).toList();
        if (own.isEmpty() || zeroEverywhere().contains(m)) {
            return Optional.empty();
        }
        boolean oneGroup = own.stream().map(Row::group).distinct().count() == 1;
        List<String> labels = own.stream().map(r -> oneGroup ? r.policy() : r.group() + " / " + r.policy()).toList();
        ChartStyle.init();
        CategoryChart chart = new CategoryChartBuilder().width(ChartStyle.WIDTH).height(ChartStyle.HEIGHT)
                .title(m.label() + ": A against B" + (oneGroup ? " — " + own.get(0).group() : ""))
                .xAxisTitle(oneGroup ? "policy" : "group / policy")
                .yAxisTitle(m.labelWithUnit() + ", mean ± 95% CI")
                .build();
        CategoryStyler styler = chart.getStyler();
        ChartStyle.apply(styler);
        styler.setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        styler.setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Scatter);
        styler.setYAxisMin(0.0); // non-negative metric: the plot area also cuts an interval off at 0
        styler.setMarkerSize(11);
        styler.setErrorBarsColorSeriesColor(true);
        styler.setOverlapped(false);
        if (labels.stream().mapToInt(String::length).sum() > 70) {
            styler.setXAxisLabelRotation(25);
        }
        chart.setCustomYAxisTickLabelsFormatter(ChartStyle::tick);
        for (int s = 0; s < 2; s++) {
            List<Double> y = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (Row r : own) {
                Summary sm = s == 0 ? r.a() : r.b();
                y.add(Double.isNaN(sm.mean()) ? 0 : sm.mean());
                e.add(Double.isNaN(sm.ci95()) ? 0 : sm.ci95());
            }
            CategorySeries series = chart.addSeries(s == 0 ? "A: " + nameA : "B: " + nameB, labels, y, e);
            series.setMarker(s == 0 ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND);
            series.setMarkerColor(s == 0 ? A_COLOUR : B_COLOUR);
            series.setLineColor(s == 0 ? A_COLOUR : B_COLOUR);
        }
        return Optional.of(ChartFiles.save(chart, plotsDir, "compare-" + m.columnName()));
    }

    /** Colours of the two sides (policies are on the x axis here, so the sides get the colours). */
    private static final java.awt.Color A_COLOUR = new java.awt.Color(0x00, 0x72, 0xB2);
    private static final java.awt.Color B_COLOUR = new java.awt.Color(0xD5, 0x5E, 0x00);
}

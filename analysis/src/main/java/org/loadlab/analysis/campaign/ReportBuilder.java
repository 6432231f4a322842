package org.loadlab.analysis.campaign;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Lays out a campaign report as a {@link ReportDocument}: what was run; per scenario its sweep
 * charts, then per cell its summary table followed by the charts of that cell (so each chart
 * sits next to the numbers it shows); the paired comparisons per metric (long tables
 * collapsed); and the list of files.
 */
final class ReportBuilder {

    private static final int MAX_LISTED_SEEDS = 20;
    /** Comparison tables longer than this are collapsed in HTML. */
    static final int COLLAPSE_ROWS = 12;

    private ReportBuilder() {
    }

    /**
     * @param meta report metadata
     * @param index the runs
     * @param summaries summary rows for {@code meta.metrics()}
     * @param comparisons paired comparisons for {@code meta.metrics()}
     * @param plots the charts
     * @param dir the report directory (figures link relative to it)
     * @return the document
     */
    static ReportDocument build(ReportMeta meta, RunIndex index, List<SummaryRow> summaries,
            List<PairedComparison> comparisons, ReportPlots plots, Path dir) {
        ReportDocument doc = new ReportDocument("Campaign report: " + meta.name());
        if (!meta.description().isBlank()) {
            doc.add(new ReportDocument.Paragraph(meta.description().strip()));
        }
        whatWasRun(doc, meta, index);
        results(doc, meta, index, summaries, plots, dir);
        comparisons(doc, meta, index, comparisons);
        files(doc);
        return doc;
    }

    private static void whatWasRun(ReportDocument doc, ReportMeta meta, RunIndex index) {
        doc.add(new ReportDocument.Heading(2, "What was run"));
        List<String> items = new ArrayList<>();
        items.add("Scenarios (" + index.scenarios().size() + "): " + String.join(", ", index.scenarios()));
        if (meta.sweptParameters().isEmpty()) {
            items.add("Swept parameters: none");
        }
        for (String key : meta.sweptParameters()) {
            SortedSet<String> values = index.parameterValues(key);
            items.add("Swept " + key + " (" + values.size() + " values): "
                    + (values.isEmpty() ? "no run has it" : String.join(", ", values)));
        }
        List<String> policies = policyOrder(index.policies(), meta.referencePolicy());
        List<String> named = new ArrayList<>();
        for (String policy : policies) {
            named.add(policy.equals(meta.referencePolicy()) ? policy + " (reference)" : policy);
        }
        items.add("Policies (" + policies.size() + "): " + String.join(", ", named));
        items.add("Seeds (" + index.seeds().size() + "): " + seeds(index.seeds()));
        long grid = (long) index.cells().size() * index.policies().size() * index.seeds().size();
        String runs = "Runs: " + index.runs().size();
        if (index.runs().size() < grid) {
            runs += " (a full grid of " + index.cells().size() + " scenario/parameter cells × "
                    + index.policies().size() + " policies × " + index.seeds().size() + " seeds would be "
                    + grid + ": some combinations are missing)";
        }
        items.add(runs);
        List<String> metrics = meta.metrics().stream().map(m -> m.labelWithUnit(index.inWorkUnits())).toList();
        items.add("Metrics: " + String.join(", ", metrics));
        doc.add(new ReportDocument.Bullets(items));
    }

    private static void results(ReportDocument doc, ReportMeta meta, RunIndex index, List<SummaryRow> summaries,
                                ReportPlots plots, Path dir) {
        doc.add(new ReportDocument.Heading(2, "Results by scenario and parameters"));
        doc.add(new ReportDocument.Paragraph("Tables: mean ± half-width of the 95% confidence interval over seeds "
                + "(Student t, n − 1 degrees of freedom); a single run shows its value only; n/a = undefined "
                + "(e.g. nothing completed). Runs with an undefined value are left out of that cell. "
                + SummaryCsv.FILE_NAME + " also holds n, sd and the interval bounds"
                + (meta.bootstrapCi() ? ", plus a 95% percentile-bootstrap interval (" + BootstrapCi.RESAMPLES
                        + " resamples, fixed seed)." : ".")));
        doc.add(new ReportDocument.Paragraph("Charts (also in " + CampaignReport.PLOTS_DIR + "/): sweeps show the mean "
                + "over seeds with its 95% interval, clipped at 0; box plots the quartiles and median over seeds, "
                + "whiskers 1.5 × IQR beyond the box (or to the extreme value when nearer), values beyond as crosses; "
                + "CDFs merge all seeds' response-time histograms; queue plots show one run (the smallest seed) per "
                + "policy. A policy has the same colour in every chart; where lines coincide, the one drawn first is "
                + "wider and shows as a border."));
        Map<Cell, Map<String, Map<Metric, SummaryRow>>> byCell = new TreeMap<>();
        for (SummaryRow row : summaries) {
            byCell.computeIfAbsent(new Cell(row.scenario(), row.parameters()), c -> new TreeMap<>())
                    .computeIfAbsent(row.policy(), p -> new LinkedHashMap<>())
                    .put(row.metric(), row);
        }
        List<String> header = new ArrayList<>();
        header.add("policy");
        header.add("runs");
        meta.metrics().forEach(m -> header.add(m.labelWithUnit(index.inWorkUnits())));
        for (String scenario : index.scenarios()) {
            doc.add(new ReportDocument.Heading(3, "Scenario " + scenario));
            List<Metric> zero = plots.zero().getOrDefault(scenario, List.of());
            if (!zero.isEmpty()) {
                doc.add(new ReportDocument.Paragraph("Zero in every run of " + scenario + ", so not plotted: "
                        + String.join(", ", zero.stream().map(Metric::label).toList()) + "."));
            }
            List<Plot> sweeps = plots.sweeps().getOrDefault(scenario, List.of());
            if (!sweeps.isEmpty()) {
                doc.add(new ReportDocument.Heading(4, "Sweeps of " + scenario));
                sweeps.forEach(p -> doc.add(figure(p, dir)));
            }
            for (Map.Entry<Cell, Map<String, Map<Metric, SummaryRow>>> cell : byCell.entrySet()) {
                if (!cell.getKey().scenario().equals(scenario)) {
                    continue;
                }
                doc.add(new ReportDocument.Heading(4, cell.getKey().parameters().isEmpty()
                        ? "All runs of " + scenario : cell.getKey().label()));
                List<List<String>> rows = new ArrayList<>();
                for (String policy : policyOrder(cell.getValue().keySet(), meta.referencePolicy())) {
                    List<String> row = new ArrayList<>();
                    row.add(policy.equals(meta.referencePolicy()) ? policy + " (ref.)" : policy);
                    row.add(Integer.toString(index.cells().get(cell.getKey()).get(policy).size()));
                    for (Metric metric : meta.metrics()) {
                        SummaryRow s = cell.getValue().get(policy).get(metric);
                        row.add(ReportText.meanCi(s.mean(), s.ciHalfWidth()));
                    }
                    rows.add(row);
                }
                doc.add(new ReportDocument.Table(header, rows, 1));
                plots.cells().getOrDefault(cell.getKey(), List.of()).forEach(p -> doc.add(figure(p, dir)));
            }
        }
    }

    private static void comparisons(ReportDocument doc, ReportMeta meta, RunIndex index,
            List<PairedComparison> comparisons) {
        String reference = meta.referencePolicy();
        doc.add(new ReportDocument.Heading(2, "Paired comparison with the reference policy " + reference));
        doc.add(new ReportDocument.Paragraph("Each policy is paired with " + reference
                + " on runs with the same scenario, parameters and seed (common random numbers); pairs with an "
                + "undefined value are dropped. change = (policy − reference) / reference mean. p (t): two-sided "
                + "paired t-test; p (W): two-sided Wilcoxon signed-rank test (exact for at most "
                + PairedTests.EXACT_WILCOXON_MAX_PAIRS + " non-zero differences without ties, normal approximation "
                + "otherwise; zero differences dropped). Holm: Holm–Bonferroni adjustment over all comparisons of "
                + "the same metric. Marks on the Holm-adjusted t p-value: * < 0.05, ** < 0.01, *** < 0.001. "
                + "verdict: better or worse when the Holm-adjusted t p-value is below 0.05 (direction from the "
                + "metric), n.s. otherwise; same when both policies have equal values in every pair (identical on "
                + "the metric: p = 1, not counted in the Holm adjustment); n/a with fewer than 2 pairs. When all n "
                + "differences are the same d ≠ 0 the t statistic is undefined and p (t) is the exact sign-flip p, "
                + "2^(1−n) (only all-plus and all-minus signs are as extreme): below 0.05 from 6 pairs on. "
                + "A p-value is n/a when its test is undefined (fewer than 2 pairs, or "
                + "for Wilcoxon tied differences among fewer than " + PairedTests.NORMAL_MIN_PAIRS + " pairs). "
                + PairwiseCsv.FILE_NAME + " has the unrounded values."));
        List<String> missing = new ArrayList<>();
        for (Map.Entry<Cell, SortedMap<String, List<CampaignRun>>> cell : index.cells().entrySet()) {
            if (!cell.getValue().containsKey(reference)) {
                missing.add(cell.getKey().label());
            }
        }
        if (!missing.isEmpty()) {
            doc.add(new ReportDocument.Paragraph("No runs of " + reference + " (so no comparison) in: "
                    + String.join("; ", missing) + "."));
        }
        if (comparisons.isEmpty()) {
            doc.add(new ReportDocument.Paragraph("No other policy ran alongside " + reference
                    + "; there is nothing to compare."));
            return;
        }
        List<String> header = List.of("scenario, parameters", "policy", "pairs", reference + " mean", "policy mean",
                "change", "p (t)", "p Holm (t)", "p (W)", "p Holm (W)", "verdict");
        for (Metric metric : meta.metrics()) {
            List<List<String>> rows = new ArrayList<>();
            for (PairedComparison c : comparisons) {
                if (c.metric() != metric) {
                    continue;
                }
                String mark = c.significanceMark();
                rows.add(List.of(
                        new Cell(c.scenario(), c.parameters()).label(),
                        c.policy(),
                        Integer.toString(c.pairs()),
                        ReportText.value(c.referenceMean()),
                        ReportText.value(c.policyMean()),
                        ReportText.percent(c.changePercent()),
                        ReportText.p(c.pT()),
                        ReportText.p(c.pTHolm()) + (mark.isEmpty() ? "" : " " + mark),
                        ReportText.p(c.pWilcoxon()),
                        ReportText.p(c.pWilcoxonHolm()),
                        c.verdict().text()));
            }
            doc.add(new ReportDocument.Heading(3, metric.labelWithUnit(index.inWorkUnits()) + ", "
                    + (metric.lowerIsBetter() ? "lower is better" : "higher is better")));
            doc.add(new ReportDocument.Table(header, rows, 2, rows.size() > COLLAPSE_ROWS));
        }
    }

    private static void files(ReportDocument doc) {
        doc.add(new ReportDocument.Heading(2, "Files"));
        doc.add(new ReportDocument.Bullets(List.of(
                RunsFile.FILE_NAME + ": every run with all its metrics, one JSON object per line (the input of a rebuild)",
                CampaignMetaFile.FILE_NAME + ": the settings of this report",
                RunsCsv.FILE_NAME + ": one row per run",
                SummaryCsv.FILE_NAME + ": mean, sd and 95% intervals per scenario, parameters, policy and metric",
                PairwiseCsv.FILE_NAME + ": paired comparisons with the reference, raw and Holm-adjusted p-values",
                CampaignReport.PLOTS_DIR + "/: all charts as PNG (and SVG with --svg)")));
    }

    private static ReportDocument.Figure figure(Plot plot, Path dir) {
        return new ReportDocument.Figure(plot, relative(dir, plot.png()), plot.svg() == null ? null : relative(dir, plot.svg()));
    }

    private static String relative(Path dir, Path file) {
        return dir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize())
                .toString().replace('\\', '/');
    }

    /**
     * @param policies policy names
     * @param reference the reference policy
     * @return the reference first (when present), then the others in name order
     */
    static List<String> policyOrder(java.util.Collection<String> policies, String reference) {
        List<String> ordered = new ArrayList<>();
        if (policies.contains(reference)) {
            ordered.add(reference);
        }
        new java.util.TreeSet<>(policies).stream().filter(p -> !p.equals(reference)).forEach(ordered::add);
        return ordered;
    }

    /**
     * @param seeds seeds, ascending
     * @return {@code a–b} when more than 2 and contiguous, else listed (at most 20, then
     *     {@code … (k in all)})
     */
    static String seeds(SortedSet<Long> seeds) {
        if (seeds.isEmpty()) {
            return "none";
        }
        long first = seeds.first();
        long last = seeds.last();
        if (seeds.size() > 2 && last - first == seeds.size() - 1) {
            return first + "–" + last;
        }
        StringJoiner joiner = new StringJoiner(", ");
        int shown = 0;
        for (long seed : seeds) {
            if (shown++ == MAX_LISTED_SEEDS) {
                joiner.add("… (" + seeds.size() + " in all)");
                break;
            }
            joiner.add(Long.toString(seed));
        }
        return joiner.toString();
    }
}

package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Writes the full analysis of a campaign into a directory:
 * <pre>
 * DIR/runs.jsonl           every run, all metrics ({@link RunsFile}); input of {@link #rebuild}
 * DIR/campaign-meta.json   the {@link ReportMeta}, analytic curves tabulated; input of {@link #rebuild}
 * DIR/runs.csv             one row per run ({@link RunsCsv})
 * DIR/summary.csv          mean, sd, 95% CIs per group and metric ({@link SummaryCsv})
 * DIR/pairwise.csv         paired comparisons with the reference ({@link PairwiseCsv})
 * DIR/plots/*.png         sweep, box, CDF and queue charts (and *.svg when asked for)
 * DIR/report.md            the report in Markdown, linking the charts
 * DIR/report.html          the same report, self-contained (charts embedded as base64 PNG)
 * </pre>
 *
 * <p><b>Deterministic.</b> Runs are put in canonical order (scenario, parameters with numbers
 * compared as numbers, policy, seed) before anything is written, so the same runs in any order
 * with the same metadata give byte-identical files, and {@link #rebuild} reproduces
 * {@link #write}'s output exactly. Existing files are replaced; other files in {@code plots/}
 * (e.g. from an earlier report with other metrics) are left alone.
 *
 * <p><b>Analytic curves</b> ({@link ReportMeta#analyticCurves()}) are evaluated once, at
 * {@value CurveTable#POINTS} evenly spaced values over the range of the first swept parameter
 * in the runs, stored in {@code campaign-meta.json}, and drawn by linear interpolation of that
 * table, both by {@link #write} and by {@link #rebuild}.
 *
 * <p>Cost: one chart (PNG, and SVG when asked for) per metric and cell, plus CDF and queue charts per cell and
 * sweep charts per scenario, swept key and metric; keep {@link ReportMeta#metrics()} short for
 * large campaigns.
 *
 * <p>Source: DESIGN.md (analysis: summaries, confidence intervals, paired tests, plots, reports;
 * the CLI's {@code loadlab report DIR} calls {@link #rebuild}).
 */
public final class CampaignReport {

    /** The Markdown report's file name. */
    public static final String REPORT_MD = "report.md";

    /** The HTML report's file name. */
    public static final String REPORT_HTML = "report.html";

    /** The metadata file's name (see {@link #write}). */
    public static final String META_FILE = CampaignMetaFile.FILE_NAME;

    /** The charts' sub-directory. */
    public static final String PLOTS_DIR = "plots";

    private CampaignReport() {
    }

    /**
     * Writes runs, metadata, CSV files, charts and both reports into {@code dir}.
     *
     * @param dir the campaign directory; created if needed
     * @param meta what the report is about and shows
     * @param runs the campaign's runs, any order
     * @throws IOException if a file cannot be written
     * @throws IllegalArgumentException if {@code runs} is empty, holds a duplicate (same
     *     scenario, parameters, policy, seed), a run has a parameter key not in
     *     {@link ReportMeta#sweptParameters()}, the reference policy did not run, or analytic
     *     curves are given but the first swept parameter does not have at least 2 distinct
     *     numeric values; nothing is written then
     * @throws NullPointerException if an argument or a run is null
     */
    public static void write(Path dir, ReportMeta meta, List<CampaignRun> runs) throws IOException {
        write(dir, meta, runs, false);
    }

    /**
     * Like {@link #write(Path, ReportMeta, List)}, optionally with an SVG next to every PNG.
     *
     * @param svg whether to write {@code plots/*.svg} too (about ten times the PNGs' size)
     */
    public static void write(Path dir, ReportMeta meta, List<CampaignRun> runs, boolean svg) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(meta, "meta");
        RunIndex index = validate(meta, runs);
        List<CurveTable> tables = tabulate(meta, index);
        List<AnalyticCurve> curves = new ArrayList<>();
        tables.forEach(t -> curves.add(t.toCurve()));
        Files.createDirectories(dir);
        RunsFile.write(dir.resolve(RunsFile.FILE_NAME), index.runs());
        CampaignMetaFile.write(dir.resolve(META_FILE), meta, tables);
        generate(dir, meta.withAnalyticCurves(curves), index, svg);
    }

    /**
     * Regenerates everything but the inputs from {@code DIR/runs.jsonl} and
     * {@code DIR/campaign-meta.json} (which are left untouched): the CSV files, charts and
     * both reports. With the inputs written by {@link #write}, the output is byte-identical
     * to {@link #write}'s.
     *
     * @param dir a campaign directory holding {@code runs.jsonl} and {@code campaign-meta.json}
     * @throws IOException if an input is missing, unreadable or malformed (the message names the
     *     file and, for runs, the line), or an output cannot be written
     * @throws IllegalArgumentException if the inputs are inconsistent, as for {@link #write}
     * @throws NullPointerException if {@code dir} is null
     */
    public static void rebuild(Path dir) throws IOException {
        rebuild(dir, false);
    }

    /**
     * Like {@link #rebuild(Path)}, optionally with an SVG next to every PNG.
     *
     * @param svg whether to write {@code plots/*.svg} too
     */
    public static void rebuild(Path dir, boolean svg) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Path metaFile = dir.resolve(META_FILE);
        Path runsFile = dir.resolve(RunsFile.FILE_NAME);
        for (Path input : List.of(metaFile, runsFile)) {
            if (!Files.isRegularFile(input)) {
                throw new IOException(input + ": missing; a campaign directory needs " + RunsFile.FILE_NAME
                        + " and " + META_FILE + " to rebuild its report");
            }
        }
        ReportMeta meta = CampaignMetaFile.toMeta(metaFile, CampaignMetaFile.read(metaFile));
        List<CampaignRun> runs = RunsFile.read(runsFile);
        generate(dir, meta, validate(meta, runs), svg);
    }

    private static void generate(Path dir, ReportMeta meta, RunIndex index, boolean svg) throws IOException {
        boolean before = ChartFiles.svg(svg);
        try {
            generate(dir, meta, index);
        } finally {
            ChartFiles.svg(before);
        }
    }

    private static void generate(Path dir, ReportMeta meta, RunIndex index) throws IOException {
        List<CampaignRun> runs = index.runs();
        List<SummaryRow> summaries = Summaries.compute(runs, meta.metrics(), meta.bootstrapCi());
        List<PairedComparison> comparisons = PairedComparisons.compute(runs, meta.referencePolicy(), meta.metrics());
        RunsCsv.write(dir.resolve(RunsCsv.FILE_NAME), runs);
        boolean workUnits = index.inWorkUnits(); // the reference model's queues: work units, not requests
        SummaryCsv.write(dir.resolve(SummaryCsv.FILE_NAME), summaries, workUnits);
        PairwiseCsv.write(dir.resolve(PairwiseCsv.FILE_NAME), comparisons, workUnits);
        ReportPlots plots = ReportPlots.write(dir.resolve(PLOTS_DIR), meta, index);
        ReportDocument document = ReportBuilder.build(meta, index, summaries, comparisons, plots, dir);
        Files.writeString(dir.resolve(REPORT_MD), MarkdownRenderer.render(document), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(REPORT_HTML), HtmlRenderer.render(document), StandardCharsets.UTF_8);
    }

    private static RunIndex validate(ReportMeta meta, List<CampaignRun> runs) {
        Objects.requireNonNull(runs, "runs");
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("runs: empty; a campaign report needs at least one finished run");
        }
        RunIndex index = RunIndex.of(runs);
        for (CampaignRun run : index.runs()) {
            for (String key : run.parameters().keySet()) {
                if (!meta.sweptParameters().contains(key)) {
                    throw new IllegalArgumentException("run " + run.describe() + ": parameter '" + key
                            + "' is not among the swept parameters " + meta.sweptParameters()
                            + " of the report metadata");
                }
            }
        }
        if (!index.policies().contains(meta.referencePolicy())) {
            throw new IllegalArgumentException("referencePolicy: '" + meta.referencePolicy()
                    + "' did not run; policies in the runs: " + index.policies());
        }
        return index;
    }

    private static List<CurveTable> tabulate(ReportMeta meta, RunIndex index) {
        if (meta.analyticCurves().isEmpty()) {
            return List.of();
        }
        if (meta.sweptParameters().isEmpty()) {
            throw new IllegalArgumentException("analyticCurves: given, but no swept parameter to draw them against");
        }
        String key = meta.sweptParameters().get(0);
        SortedSet<BigDecimal> values = new TreeSet<>();
        for (String value : index.parameterValues(key)) {
            BigDecimal number = ParameterOrder.number(value);
            if (number == null) {
                throw new IllegalArgumentException("analyticCurves: swept parameter '" + key + "' has the non-numeric value '"
                        + value + "'; curves need a numeric x axis");
            }
            values.add(number);
        }
        if (values.size() < 2) {
            throw new IllegalArgumentException("analyticCurves: swept parameter '" + key + "' has " + values.size()
                    + " distinct value(s) in the runs; curves need at least 2 to span an x range");
        }
        List<CurveTable> tables = new ArrayList<>();
        for (AnalyticCurve curve : meta.analyticCurves()) {
            tables.add(CurveTable.tabulate(curve, key, Metric.RESPONSE_MEAN,
                    values.first().doubleValue(), values.last().doubleValue()));
        }
        return tables;
    }
}

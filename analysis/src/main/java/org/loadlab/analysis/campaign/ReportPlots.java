package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * All charts of a report, written under {@code plots/}: per scenario, the sweep plots (every
 * swept key × combination of the other keys × metric; the analytic curves on
 * {@link Metric#RESPONSE_MEAN} against the first swept key), and per cell the response-time CDF,
 * the queue time series and one box plot per metric.
 *
 * <p>A metric that is zero (or undefined) in every run of a scenario is not plotted for it: a
 * chart of a flat zero line says nothing that "zero in every run" does not ({@link #zero()}).
 *
 * @param sweeps scenario → its sweep plots, in drawing order
 * @param cells cell → its CDF, queue and box plots, in drawing order
 * @param zero scenario → the report's metrics that are zero or undefined in all its runs (not plotted)
 */
record ReportPlots(SortedMap<String, List<Plot>> sweeps, SortedMap<Cell, List<Plot>> cells, SortedMap<String, List<Metric>> zero) {

    /**
     * Draws and writes every chart.
     *
     * @param plotsDir target directory
     * @param meta the report metadata (metrics, swept keys, curves)
     * @param index the runs
     * @return the plots
     * @throws IOException if a file cannot be written
     */
    static ReportPlots write(Path plotsDir, ReportMeta meta, RunIndex index) throws IOException {
        List<CampaignRun> runs = index.runs();
        SortedMap<String, List<Plot>> sweeps = new TreeMap<>();
        SortedMap<String, List<Metric>> zero = new TreeMap<>();
        for (String scenario : index.scenarios()) {
            List<Metric> flat = meta.metrics().stream().filter(m -> zeroEverywhere(runs, scenario, m)).toList();
            zero.put(scenario, flat);
            List<Plot> plots = new ArrayList<>();
            for (int k = 0; k < meta.sweptParameters().size(); k++) {
                String key = meta.sweptParameters().get(k);
                for (SortedMap<String, String> fixed : SweepPlot.fixedCombinations(runs, scenario, key)) {
                    for (Metric metric : meta.metrics()) {
                        if (flat.contains(metric)) {
                            continue;
                        }
                        List<AnalyticCurve> curves = k == 0 && metric == Metric.RESPONSE_MEAN
                                ? meta.analyticCurves() : List.of();
                        add(plots, SweepPlot.write(plotsDir, runs, scenario, key, fixed, metric, curves));
                    }
                }
            }
            if (!plots.isEmpty()) {
                sweeps.put(scenario, plots);
            }
        }
        SortedMap<Cell, List<Plot>> cells = new TreeMap<>();
        for (Map.Entry<Cell, ?> entry : index.cells().entrySet()) {
            Cell cell = entry.getKey();
            List<Plot> plots = new ArrayList<>();
            add(plots, CdfPlot.write(plotsDir, runs, cell.scenario(), cell.parameters()));
            add(plots, QueuePlot.write(plotsDir, runs, cell.scenario(), cell.parameters()));
            for (Metric metric : meta.metrics()) {
                if (!zero.get(cell.scenario()).contains(metric)) {
                    add(plots, BoxPlot.write(plotsDir, runs, cell.scenario(), cell.parameters(), metric));
                }
            }
            cells.put(cell, plots);
        }
        return new ReportPlots(sweeps, cells, zero);
    }

    /** True if {@code metric} is 0 or undefined in every run of {@code scenario}. */
    static boolean zeroEverywhere(List<CampaignRun> runs, String scenario, Metric metric) {
        for (CampaignRun run : runs) {
            if (run.scenario().equals(scenario)) {
                double v = metric.value(run.metrics());
                if (!Double.isNaN(v) && v != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void add(List<Plot> plots, Optional<Plot> plot) {
        plot.ifPresent(plots::add);
    }
}

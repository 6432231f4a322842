package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
        // Every chart is drawn and encoded on its own (XChart: PNG, SVG on request), which takes
        // most of a report's time; they are drawn in parallel and collected in drawing order.
        SortedMap<String, List<Draw>> sweepJobs = new TreeMap<>();
        SortedMap<String, List<Metric>> zero = new TreeMap<>();
        for (String scenario : index.scenarios()) {
            List<Metric> flat = meta.metrics().stream().filter(m -> zeroEverywhere(runs, scenario, m)).toList();
            zero.put(scenario, flat);
            List<Draw> jobs = new ArrayList<>();
            for (int k = 0; k < meta.sweptParameters().size(); k++) {
                String key = meta.sweptParameters().get(k);
                for (SortedMap<String, String> fixed : SweepPlot.fixedCombinations(runs, scenario, key)) {
                    for (Metric metric : meta.metrics()) {
                        if (flat.contains(metric)) {
                            continue;
                        }
                        List<AnalyticCurve> curves = k == 0 && metric == Metric.RESPONSE_MEAN
                                ? meta.analyticCurves() : List.of();
                        jobs.add(() -> SweepPlot.write(plotsDir, runs, scenario, key, fixed, metric, curves));
                    }
                }
            }
            sweepJobs.put(scenario, jobs);
        }
        SortedMap<Cell, List<Draw>> cellJobs = new TreeMap<>();
        for (Map.Entry<Cell, ?> entry : index.cells().entrySet()) {
            Cell cell = entry.getKey();
            List<Draw> jobs = new ArrayList<>();
            jobs.add(() -> CdfPlot.write(plotsDir, runs, cell.scenario(), cell.parameters()));
            jobs.add(() -> QueuePlot.write(plotsDir, runs, cell.scenario(), cell.parameters()));
            for (Metric metric : meta.metrics()) {
                if (!zero.get(cell.scenario()).contains(metric)) {
                    jobs.add(() -> BoxPlot.write(plotsDir, runs, cell.scenario(), cell.parameters(), metric));
                }
            }
            cellJobs.put(cell, jobs);
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
            Thread t = new Thread(r, "report-plots");
            t.setDaemon(true);
            return t;
        });
        try {
            SortedMap<String, List<Future<Optional<Plot>>>> sweepFutures = new TreeMap<>();
            sweepJobs.forEach((scenario, jobs) -> sweepFutures.put(scenario, submit(pool, jobs)));
            SortedMap<Cell, List<Future<Optional<Plot>>>> cellFutures = new TreeMap<>();
            cellJobs.forEach((cell, jobs) -> cellFutures.put(cell, submit(pool, jobs)));
            SortedMap<String, List<Plot>> sweeps = new TreeMap<>();
            for (Map.Entry<String, List<Future<Optional<Plot>>>> e : sweepFutures.entrySet()) {
                List<Plot> plots = collect(e.getValue());
                if (!plots.isEmpty()) {
                    sweeps.put(e.getKey(), plots);
                }
            }
            SortedMap<Cell, List<Plot>> cells = new TreeMap<>();
            for (Map.Entry<Cell, List<Future<Optional<Plot>>>> e : cellFutures.entrySet()) {
                cells.put(e.getKey(), collect(e.getValue()));
            }
            return new ReportPlots(sweeps, cells, zero);
        } finally {
            pool.shutdownNow();
        }
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

    /** Draws and writes one chart; empty when the chart has nothing to show. */
    private interface Draw {
        Optional<Plot> draw() throws IOException;
    }

    private static List<Future<Optional<Plot>>> submit(ExecutorService pool, List<Draw> jobs) {
        List<Future<Optional<Plot>>> futures = new ArrayList<>();
        boolean svg = ChartFiles.svgOn(); // the pool's threads draw with the caller's setting
        for (Draw job : jobs) {
            futures.add(pool.submit(() -> {
                boolean before = ChartFiles.svg(svg);
                try {
                    return job.draw();
                } finally {
                    ChartFiles.svg(before);
                }
            }));
        }
        return futures;
    }

    private static List<Plot> collect(List<Future<Optional<Plot>>> futures) throws IOException {
        List<Plot> plots = new ArrayList<>();
        for (Future<Optional<Plot>> f : futures) {
            try {
                f.get().ifPresent(plots::add);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while drawing the report's charts", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
        return plots;
    }
}

package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.stream.Stream;

/**
 * The charts of a {@code simulate} result directory ({@code loadlab plot DIR}): per scenario
 * and parameter cell, the response-time CDF per policy ({@link CdfPlot}), the mean queue length
 * over time ({@link QueuePlot}) and the share of requests per node ({@link NodeSharePlot}),
 * all with the fixed colour of each policy ({@link ChartStyle#look}).
 */
public final class ResultPlots {
    private ResultPlots() {
    }

    /**
     * Draws every chart of {@code runs} into {@code plotsDir}.
     *
     * @param plotsDir target directory (created); the charts an earlier call drew there are deleted first
     * @param runs the runs of a result directory
     * @param svg whether to write an SVG next to every PNG
     * @return the plots written, in drawing order
     * @throws IOException if a file cannot be written
     * @throws IllegalArgumentException if {@code runs} is empty or two runs share scenario, parameters, policy and seed
     */
    public static List<Plot> write(Path plotsDir, List<CampaignRun> runs, boolean svg) throws IOException {
        Objects.requireNonNull(plotsDir, "plotsDir");
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("runs: empty; nothing to plot");
        }
        clearOwn(plotsDir);
        boolean before = ChartFiles.svg(svg);
        try {
            List<Plot> plots = new ArrayList<>();
            for (Cell cell : RunIndex.of(runs).cells().keySet()) {
                SortedMap<String, String> p = cell.parameters();
                add(plots, CdfPlot.write(plotsDir, runs, cell.scenario(), p));
                add(plots, QueuePlot.write(plotsDir, runs, cell.scenario(), p));
                add(plots, NodeSharePlot.write(plotsDir, runs, cell.scenario(), p));
            }
            return plots;
        } finally {
            ChartFiles.svg(before);
        }
    }

    /** File-name prefixes of the charts this class draws; a redraw replaces all of them. */
    static final List<String> OWN_PREFIXES = List.of("cdf-", "queue-", "share-");

    /**
     * Deletes the charts an earlier drawing left in {@code plotsDir} (PNG and SVG files named
     * as this class names them), so that a directory re-run with other scenarios or parameters
     * does not keep the charts of the old run. Other files are left alone.
     */
    private static void clearOwn(Path plotsDir) throws IOException {
        if (!Files.isDirectory(plotsDir)) {
            return;
        }
        try (Stream<Path> files = Files.list(plotsDir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && OWN_PREFIXES.stream().anyMatch(name::startsWith)
                        && (name.endsWith(".png") || name.endsWith(".svg"))) {
                    Files.delete(f);
                }
            }
        }
    }

    private static void add(List<Plot> plots, Optional<Plot> plot) {
        plot.ifPresent(plots::add);
    }
}

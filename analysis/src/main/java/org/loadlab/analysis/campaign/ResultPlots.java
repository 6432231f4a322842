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
        Files.createDirectories(plotsDir);
        for (Path f : drawn(plotsDir)) {
            Files.delete(f);
        }
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
     * The charts a drawing left in {@code plotsDir}: the PNG and SVG files named as this class
     * names them. Other files there (a user's own) are not listed.
     *
     * @param plotsDir a {@code plots/} directory; missing means no charts
     * @return the chart files, sorted by name
     * @throws IOException if the directory cannot be listed
     */
    public static List<Path> drawn(Path plotsDir) throws IOException {
        if (!Files.isDirectory(plotsDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(plotsDir)) {
            return files.filter(f -> {
                String name = f.getFileName().toString();
                return Files.isRegularFile(f) && OWN_PREFIXES.stream().anyMatch(name::startsWith)
                        && (name.endsWith(".png") || name.endsWith(".svg"));
            }).sorted().toList();
        }
    }

    /**
     * Deletes the charts an earlier drawing left in {@code plotsDir} ({@link #drawn}), so that a
     * directory re-run with other scenarios, parameters or runs does not keep the charts of the
     * old run; the directory itself goes too if nothing else is left in it. Other files are
     * left alone.
     *
     * @param plotsDir a {@code plots/} directory; missing means nothing to do
     * @return how many charts were deleted
     * @throws IOException if a chart cannot be deleted
     */
    public static int clear(Path plotsDir) throws IOException {
        List<Path> charts = drawn(plotsDir);
        for (Path f : charts) {
            Files.delete(f);
        }
        if (!charts.isEmpty()) {
            try (Stream<Path> left = Files.list(plotsDir)) {
                if (left.findAny().isEmpty()) {
                    Files.delete(plotsDir);
                }
            }
        }
        return charts.size();
    }

    private static void add(List<Plot> plots, Optional<Plot> plot) {
        plot.ifPresent(plots::add);
    }
}

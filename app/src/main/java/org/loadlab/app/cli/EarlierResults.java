package org.loadlab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.loadlab.analysis.campaign.ResultPlots;

/**
 * What an earlier {@code loadlab simulate} left in an output directory, read before a new job
 * writes there: how many runs (from {@code run-info.json}, else the rows of
 * {@code results.csv}), whether that job was interrupted ({@code INCOMPLETE.txt}, or
 * {@code "complete": false}), and how many charts {@code loadlab plot} drew from them in
 * {@code plots/}. A new job replaces the results; its {@link #notice} says so in one line, and
 * the charts, which would show the old runs next to the new results, are deleted once the new
 * results are written ({@link #deleteStalePlots}).
 *
 * @param runs runs the directory holds, or -1 if unknown (no {@code run-info.json} or {@code results.csv})
 * @param policies distinct policies among them, or -1 if unknown
 * @param seeds distinct seeds among them, or -1 if unknown
 * @param incomplete whether the earlier job was interrupted before all its runs finished
 * @param planned runs the earlier job planned, or -1 if unknown
 * @param plots charts {@code loadlab plot} drew in {@code plots/}
 */
record EarlierResults(int runs, int policies, int seeds, boolean incomplete, int planned, int plots) {
    /** The files whose presence means an earlier job wrote results here. */
    private static final List<String> FILES = List.of("results.csv", "results.json", "timeseries.csv", "nodes.csv",
            "run-info.json");

    /**
     * The earlier results in {@code dir}, if any.
     *
     * @param dir an output directory of {@code simulate} (it may not exist)
     * @return empty if none of the result files is there
     * @throws UncheckedIOException if {@code plots/} cannot be listed
     */
    static Optional<EarlierResults> in(Path dir) {
        if (FILES.stream().noneMatch(f -> Files.isRegularFile(dir.resolve(f)))) {
            return Optional.empty();
        }
        int runs = -1;
        int policies = -1;
        int seeds = -1;
        int planned = -1;
        boolean incomplete = Files.exists(dir.resolve(SimulateCommand.INCOMPLETE));
        try {
            JsonNode info = new ObjectMapper().readTree(dir.resolve("run-info.json").toFile());
            JsonNode list = info.path("runs");
            if (list.isArray()) {
                Set<String> p = new HashSet<>();
                Set<Long> s = new HashSet<>();
                list.forEach(r -> {
                    p.add(r.path("policy").asText());
                    s.add(r.path("seed").asLong());
                });
                runs = list.size();
                policies = p.size();
                seeds = s.size();
            }
            incomplete |= info.path("complete").isBoolean() && !info.path("complete").asBoolean();
            planned = info.path("runs_planned").asInt(-1);
        } catch (IOException | RuntimeException e) {
            runs = csvRows(dir.resolve("results.csv"));
        }
        try {
            return Optional.of(new EarlierResults(runs, policies, seeds, incomplete, planned,
                    ResultPlots.drawn(dir.resolve("plots")).size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Data rows of a results.csv (one per run), or -1 if it cannot be read. */
    private static int csvRows(Path csv) {
        try (Stream<String> lines = Files.lines(csv)) {
            return (int) Math.max(0, lines.count() - 1);
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    /**
     * The line printed before a new job starts in {@code dir}, e.g. {@code results/q holds an
     * earlier job's 60 runs (6 policies x 10 seeds) and 3 plots drawn from them: this job
     * replaces the runs and deletes the plots}.
     *
     * @param dir the directory as the user named it
     */
    String notice(Path dir) {
        String what;
        if (incomplete) {
            what = "an interrupted job's " + (runs >= 0 ? Plural.count(runs, "finished run", "finished runs") : "finished runs") + " ("
                    + (planned > 0 ? "of " + planned + " planned; " : "") + SimulateCommand.INCOMPLETE + ")";
        } else if (runs >= 0) {
            what = "an earlier job's " + Plural.count(runs, "run", "runs")
                    + (policies > 0 ? " (" + Plural.count(policies, "policy", "policies") + " x " + Plural.count(seeds, "seed", "seeds") + ")" : "");
        } else {
            what = "an earlier job's results";
        }
        String them = runs == 1 ? "it" : "them";
        String charts = plots > 0 ? " and " + Plural.count(plots, "plot", "plots") + " drawn from " + them : "";
        return dir + " holds " + what + charts + ": this job replaces " + (plots > 0 ? "the runs and deletes the plots" : them)
                + (incomplete ? " (it does not resume that job)" : "");
    }

    /**
     * Deletes the charts {@code loadlab plot} drew in {@code dir/plots} (and the folder if
     * nothing else is in it): called once new results are in {@code dir}, since those charts
     * show the runs that were replaced. A campaign directory keeps its charts (they are part of
     * its report). Files of the user's own in {@code plots/} stay.
     *
     * @param dir the output directory just written
     * @return how many charts were deleted
     * @throws IOException if a chart cannot be deleted
     */
    static int deleteStalePlots(Path dir) throws IOException {
        return ResultDirs.isCampaign(dir) ? 0 : ResultPlots.clear(dir.resolve("plots"));
    }
}

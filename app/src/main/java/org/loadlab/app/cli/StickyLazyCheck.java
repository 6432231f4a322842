package org.loadlab.app.cli;

import org.loadlab.studies.stickylazy.StickyLazyAnalysis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code loadlab sticky-lazy-check DIR}: seed 001's theory checks on a finished campaign
 * directory (see {@link StickyLazyAnalysis}); writes {@code theory.csv},
 * {@code peak-bound.csv}, {@code sticky-lazy.md} and {@code plots/sticky-lazy-*} into DIR and
 * prints a summary. Exit codes: 0 done, 2 DIR does not exist, is not a campaign directory or its
 * runs.jsonl is not valid (e.g. a truncated line).
 *
 * <p>Source: seed 001, SPEC.md §5.
 */
@Command(name = "sticky-lazy-check", mixinStandardHelpOptions = true,
        description = "Seed 001 theory checks (probes per request, peak bound) on a finished campaign directory.")
public final class StickyLazyCheck implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A finished campaign directory (holds runs.jsonl).")
    private Path dir;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        java.io.PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(dir)) {
            err.println("sticky-lazy-check: " + dir + (Files.exists(dir) ? " is not a directory" : " does not exist")
                    + "; name a campaign directory (holds runs.jsonl), e.g. results/campaigns/<id>");
            return 2;
        }
        if (!Files.isRegularFile(dir.resolve("runs.jsonl"))) {
            err.println("sticky-lazy-check: " + dir + " has no runs.jsonl; run a campaign first, e.g. "
                    + "./loadlab campaign run sticky-lazy");
            return 2;
        }
        java.util.List<org.loadlab.analysis.campaign.CampaignRun> runs;
        try {
            runs = org.loadlab.analysis.campaign.RunsFile.read(dir.resolve("runs.jsonl"));
        } catch (java.io.IOException e) {
            // Bad input, not a failure of the check: a truncated or edited runs.jsonl.
            err.println("sticky-lazy-check: " + e.getMessage() + "; runs.jsonl holds one campaign run per line,"
                    + " as `campaign run` writes it");
            return 2;
        }
        boolean any = runs.stream()
                .anyMatch(run -> run.metrics().counters().containsKey("first_probes")
                        || run.metrics().counters().containsKey("blind_routes"));
        if (!any) {
            err.println("sticky-lazy-check: " + dir + " holds no Sticky-Lazy run (no sticky-lazy counters in"
                    + " runs.jsonl); run e.g. ./loadlab campaign run sticky-lazy");
            return 2;
        }
        StickyLazyAnalysis.Result r;
        // The campaign's own lock: its report (written by campaign run, resume or report) and this
        // check both write DIR/plots.
        try (DirLock lock = DirLock.acquire(dir, "DIR = '" + dir + "'", DirLock.job("DIR", null))) {
            r = StickyLazyAnalysis.writeAll(dir);
        }
        System.out.printf(Locale.ROOT, "%d Sticky-Lazy run(s) checked; peak bound held in %d of %d pair(s)%s.%n",
                r.runs().size(), r.pairsHolding(), r.pairs().size(),
                r.pairs().isEmpty() ? "" : String.format(Locale.ROOT, " (largest excess %+d)", r.maxExcess()));
        System.out.println("Wrote " + dir.resolve(StickyLazyAnalysis.MARKDOWN) + ", " + StickyLazyAnalysis.THEORY_CSV
                + ", " + StickyLazyAnalysis.PEAK_CSV + " and plots/sticky-lazy-*");
        return 0;
    }

    /**
     * Runs the check from the command line.
     *
     * @param args {@code DIR}
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new StickyLazyCheck()).execute(args));
    }
}

package org.loadlab.app.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.loadlab.analysis.campaign.CampaignReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code loadlab report DIR}: rebuilds a campaign's statistics, plots and report from its saved runs. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuild a campaign's summary, pairwise tables, plots and report from DIR/runs.jsonl.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A campaign directory (holds runs.jsonl and campaign-meta.json).")
    private Path dir;

    @picocli.CommandLine.Option(names = "--svg", description = "Also write every plot as SVG (vector; about ten times the PNGs' size).")
    private boolean svg;

    @Override
    public Integer call() throws Exception {
        // Named as plot and compare name theirs: DIR = 'value': what is wrong; what to give.
        String given = "DIR = '" + dir + "': ";
        if (!Files.isDirectory(dir)) {
            throw new BadInputException(given + (Files.exists(dir) ? "not a directory" : "no such directory")
                    + "; give a campaign directory (runs.jsonl and " + CampaignReport.META_FILE + "); see `loadlab campaign list`");
        }
        if (Files.isRegularFile(dir.resolve("results.json")) && !Files.exists(dir.resolve("runs.jsonl"))) {
            throw new BadInputException(given + "is a `loadlab simulate` directory, not a campaign's; draw it with `loadlab plot "
                    + dir + "`");
        }
        if (!Files.isRegularFile(dir.resolve("runs.jsonl")) || !Files.isRegularFile(dir.resolve(CampaignReport.META_FILE))) {
            throw new BadInputException(given + "is not a finished campaign directory (runs.jsonl and "
                    + CampaignReport.META_FILE + " are missing); see `loadlab campaign list`");
        }
        // The campaign's own lock: a campaign run or resume writing DIR, or another report of it,
        // would write the same report files at once.
        try (DirLock lock = DirLock.acquire(dir, "DIR = '" + dir + "'", DirLock.job("DIR", null))) {
            CampaignReport.rebuild(dir, svg);
        }
        System.out.println("Report: " + dir.resolve(CampaignReport.REPORT_HTML) + " (and report.md, summary.csv, pairwise.csv, plots/)");
        return 0;
    }
}

package org.loadlab.app.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.loadlab.analysis.campaign.CampaignReport;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.Plot;
import org.loadlab.analysis.campaign.ResultPlots;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab plot DIR}: the charts of a {@code simulate} result directory (response-time
 * CDF per policy, queue length over time, share of requests per node) as PNG files in
 * {@code DIR/plots/}. A campaign directory already has its charts: this points to its report.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = "Draw a simulate result directory: response-time CDF per policy, queue over time, share per node (PNG in DIR/plots/).")
final class PlotCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A directory written by `loadlab simulate` (holds results.json).")
    private Path dir;

    @Option(names = "--svg", description = "Also write every plot as SVG.")
    private boolean svg;

    @Override
    public Integer call() throws Exception {
        if (ResultDirs.isCampaign(dir)) {
            throw new BadInputException("DIR = '" + dir + "' is a campaign directory: its charts are in " + dir.resolve("plots")
                    + " and " + dir.resolve(CampaignReport.REPORT_HTML) + " (rebuild them with `loadlab report " + dir + "`)");
        }
        List<CampaignRun> runs = ResultDirs.read(dir, "DIR");
        Path plots = OutputDir.prepare(dir.resolve("plots"), true);
        // DIR's own lock: a simulate job writing DIR clears its stale plots, and two plots of DIR
        // would write the same files at once.
        List<Plot> written;
        try (DirLock lock = DirLock.acquire(dir, "DIR = '" + dir + "'", DirLock.job("DIR", null))) {
            written = ResultPlots.write(plots, runs, svg);
        }
        System.out.println(Plural.count(written.size(), "plot", "plots") + " of " + Plural.count(runs.size(), "run", "runs") + " in "
                + plots + ":");
        for (Plot p : written) {
            System.out.println("  " + p.png().getFileName() + "  " + p.title());
        }
        return 0;
    }
}

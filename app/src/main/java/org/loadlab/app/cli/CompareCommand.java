package org.loadlab.app.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.Comparison;
import org.loadlab.analysis.campaign.Metric;
import org.loadlab.analysis.campaign.Plot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab compare A B}: two result directories ({@code simulate} or campaign) side by
 * side: per scenario, parameters and policy on both sides, each metric's mean ± 95% CI in A and
 * B, the change, and paired t and Wilcoxon tests where the same seeds ran. Prints the table and
 * writes {@code compare.csv} and one chart per metric.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Compare two result directories (simulate or campaign): metrics side by side, paired tests where seeds match.")
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A", description = "The first (baseline) result directory.")
    private Path a;

    @Parameters(index = "1", paramLabel = "B", description = "The second result directory.")
    private Path b;

    @Option(names = "--metrics", split = ",", paramLabel = "m1,m2",
            description = "Metrics (runs.csv column names, docs/results.md; default: throughput_rps, response_mean_s,"
                    + " response_p99_s, wait_mean_s, max_queue, requests_rejected).")
    private List<String> metricNames;

    @Option(names = "--out", paramLabel = "DIR", description = "Where compare.csv and plots/ go (default: results/compare/<A>-vs-<B>).")
    private Path out;

    @Option(names = "--svg", description = "Also write every plot as SVG.")
    private boolean svg;

    @Override
    public Integer call() throws Exception {
        List<Metric> metrics = new ArrayList<>();
        for (String m : metricNames == null ? List.<String>of() : metricNames) {
            try {
                metrics.add(Metric.byColumnName(m.trim()));
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--metrics: '" + m + "': " + e.getMessage().substring(Math.max(0, e.getMessage().indexOf("allowed"))));
            }
        }
        if (metrics.isEmpty()) {
            metrics.addAll(Comparison.DEFAULT_METRICS);
        }
        List<CampaignRun> runsA = ResultDirs.read(a, "A");
        List<CampaignRun> runsB = ResultDirs.read(b, "B");
        Path dir = OutputDir.prepare(out != null ? out : Path.of("results", "compare", name(a) + "-vs-" + name(b)), out != null);
        Comparison c = Comparison.of(runsA, runsB, metrics);
        System.out.print(c.table(a.toString(), b.toString()));
        if (c.rows().isEmpty()) {
            return 1;
        }
        c.writeCsv(dir.resolve("compare.csv"));
        List<Plot> plots = c.plots(dir.resolve("plots"), a.toString(), b.toString(), svg);
        System.out.println();
        System.out.println("Written: " + dir.resolve("compare.csv") + " and " + plots.size() + " plots in " + dir.resolve("plots"));
        return 0;
    }

    private static String name(Path p) {
        Path f = p.toAbsolutePath().normalize().getFileName();
        return f == null ? "root" : f.toString().replaceAll("[^A-Za-z0-9._-]", "_");
    }
}

package org.loadlab.app.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueType;
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
 * writes {@code compare.csv} and one chart per metric. A {@code simulate} directory compared with a
 * campaign stands at the campaign point its scenario's values give; when nothing matches, the
 * message lists what each side has.
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
        if (metricNames != null) {
            // As --policies: the flag and its value as typed, then which name is wrong and what is allowed.
            String given = "--metrics = '" + String.join(",", metricNames) + "': ";
            String allowed = "; allowed: " + java.util.Arrays.stream(Metric.values()).map(Metric::columnName)
                    .collect(java.util.stream.Collectors.joining(", "));
            for (String m : metricNames) {
                String name = m.trim();
                if (name.isEmpty()) {
                    continue;
                }
                Metric metric;
                try {
                    metric = Metric.byColumnName(name);
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(given + "'" + name + "' is not a metric" + allowed);
                }
                if (metrics.contains(metric)) {
                    throw new BadInputException(given + "'" + name + "' is listed twice; name each metric once");
                }
                metrics.add(metric);
            }
            if (metrics.isEmpty()) {
                throw new BadInputException(given + "names no metric" + allowed);
            }
        }
        if (metrics.isEmpty()) {
            metrics.addAll(Comparison.DEFAULT_METRICS);
        }
        List<CampaignRun> runsA = ResultDirs.read(a, "A");
        List<CampaignRun> runsB = ResultDirs.read(b, "B");
        // A simulate directory has no swept parameters; against a campaign it stands at the point
        // its own scenario has (e.g. arrivals.utilisation = 0.7 of a utilisation sweep).
        List<String> placed = new ArrayList<>();
        if (!ResultDirs.isCampaign(a) && ResultDirs.isCampaign(b)) {
            runsA = atCampaignPoint(a, "A", runsA, runsB, placed);
        } else if (ResultDirs.isCampaign(a) && !ResultDirs.isCampaign(b)) {
            runsB = atCampaignPoint(b, "B", runsB, runsA, placed);
        }
        Path dir = OutputDir.prepare(out != null ? out : Path.of("results", "compare", name(a) + "-vs-" + name(b)), out != null);
        // Two comparisons into one directory would write the same compare.csv and plots at once.
        try (DirLock lock = DirLock.acquire(dir, OutputDir.describe(dir, "--out", out != null),
                DirLock.job("--out", "give this one another --out"))) {
            return compare(runsA, runsB, metrics, placed, dir);
        }
    }

    /** Compares and writes into {@code dir}, whose {@link DirLock} this process holds. */
    private int compare(List<CampaignRun> runsA, List<CampaignRun> runsB, List<Metric> metrics, List<String> placed, Path dir)
            throws java.io.IOException {
        Comparison c = Comparison.of(runsA, runsB, metrics);
        placed.forEach(System.out::println);
        System.out.print(c.table(a.toString(), b.toString()));
        if (c.rows().isEmpty()) {
            System.out.print(whyNothingMatched(runsA, runsB));
            return 1;
        }
        c.writeCsv(dir.resolve("compare.csv"));
        List<Plot> plots = c.plots(dir.resolve("plots"), a.toString(), b.toString(), svg);
        System.out.println();
        List<Metric> flat = c.zeroEverywhere();
        if (!flat.isEmpty()) {
            System.out.println("Zero in every run on both sides, so not plotted: "
                    + String.join(", ", flat.stream().map(Metric::columnName).toList()) + ".");
        }
        System.out.println("Written: " + dir.resolve("compare.csv") + " and " + plots.size() + " plots in " + dir.resolve("plots"));
        return 0;
    }

    /**
     * The runs of simulate directory {@code dir} with, as parameters, the values its scenario
     * (results.json) has for the keys the campaign's runs sweep; unchanged when the campaign sweeps
     * nothing or the scenario cannot be read. Adds a line saying where they were placed.
     */
    private static List<CampaignRun> atCampaignPoint(Path dir, String what, List<CampaignRun> runs, List<CampaignRun> campaign,
                                                     List<String> placed) {
        SortedSet<String> keys = new TreeSet<>();
        campaign.forEach(r -> keys.addAll(r.parameters().keySet()));
        if (keys.isEmpty()) {
            return runs;
        }
        Config scenario;
        try {
            Config json = ConfigFactory.parseFile(dir.resolve("results.json").toFile());
            if (!json.hasPath("scenario") || json.getValue("scenario").valueType() != ConfigValueType.OBJECT) {
                return runs;
            }
            scenario = json.getConfig("scenario");
        } catch (ConfigException e) {
            return runs;
        }
        SortedMap<String, String> point = new TreeMap<>();
        for (String k : keys) {
            if (scenario.hasPath(k)) {
                point.put(k, campaignSpelling(k, scenario.getValue(k).unwrapped().toString(), campaign));
            }
        }
        List<CampaignRun> out = new ArrayList<>();
        for (CampaignRun r : runs) {
            out.add(new CampaignRun(r.scenario(), new TreeMap<>(point), r.policy(), r.seed(), r.metrics()));
        }
        placed.add(what + " is a simulate directory: its runs are compared at the campaign point of its own scenario values "
                + point + ".");
        return out;
    }

    /** {@code value} as the campaign writes the same number for {@code key} (0.70 and 0.7 are one point). */
    private static String campaignSpelling(String key, String value, List<CampaignRun> campaign) {
        for (CampaignRun r : campaign) {
            String v = r.parameters().get(key);
            if (v != null && (v.equals(value) || sameNumber(v, value))) {
                return v;
            }
        }
        return value;
    }

    private static boolean sameNumber(String x, String y) {
        try {
            return Double.parseDouble(x) == Double.parseDouble(y);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Why no (scenario, parameters, policy) is on both sides: what each side has. */
    private static String whyNothingMatched(List<CampaignRun> a, List<CampaignRun> b) {
        return "Runs are matched by scenario (when both sides ran the same ones), swept parameters and policy:\n"
                + "  A has " + describe(a) + "\n  B has " + describe(b) + "\n"
                + "Compare directories that share a scenario point and a policy (for a simulate directory against a campaign:"
                + " run simulate with --set for the campaign's swept keys and --policies of its variants).\n";
    }

    private static String describe(List<CampaignRun> runs) {
        SortedSet<String> scenarios = new TreeSet<>();
        SortedSet<String> points = new TreeSet<>();
        SortedSet<String> policies = new TreeSet<>();
        for (CampaignRun r : runs) {
            scenarios.add(r.scenario());
            points.add(r.parameters().isEmpty() ? "no swept parameters" : r.parameters().toString());
            policies.add(r.policy());
        }
        return "scenario(s) " + String.join(", ", scenarios) + "; point(s) " + abbreviate(points) + "; policies "
                + String.join(", ", policies);
    }

    private static String abbreviate(SortedSet<String> items) {
        List<String> list = new ArrayList<>(items);
        return list.size() <= 6 ? String.join(", ", list)
                : String.join(", ", list.subList(0, 6)) + ", ... (" + list.size() + " in all)";
    }

    private static String name(Path p) {
        Path f = p.toAbsolutePath().normalize().getFileName();
        return f == null ? "root" : f.toString().replaceAll("[^A-Za-z0-9._-]", "_");
    }
}

package org.loadlab.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.loadlab.analysis.io.CsvNumbers;
import org.loadlab.experiment.run.RunExecutor;
import org.loadlab.studies.asmf.AsmfTuner;
import org.loadlab.experiment.scenario.Seeds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab tune asmf}: the ASMF seed's parameter search. Writes the ranked table
 * ({@code tuning.csv}) and the top configurations as a campaign file
 * ({@code tuned-variants.conf}) that runs them against default ASMF.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = "Search a policy's parameters (asmf: the seed's box and composite score).")
final class TuneCommand implements Callable<Integer> {
    static final List<String> DEFAULT_SCENARIOS = List.of("asmf-poisson-medium", "asmf-bursty-medium", "asmf-zipf-skew-medium");

    @Parameters(index = "0", paramLabel = "POLICY", description = "The policy to tune: asmf.")
    private String policy;

    @Option(names = "--configs", paramLabel = "N", defaultValue = "200", description = "Configurations to sample (default 200).")
    private int configs;

    @Option(names = "--seeds", paramLabel = "SPEC", defaultValue = "101:110", description = "Seeds per configuration (default 101:110).")
    private String seeds;

    @Option(names = "--top", paramLabel = "N", description = "Configurations to keep (default 3, at most --configs).")
    private Integer top;

    @Option(names = "--duration-scale", paramLabel = "X", defaultValue = "1.0",
            description = "Shorten every run: duration and event times x X, in [0.05, 1] (default 1).")
    private double durationScale;

    @Option(names = "--scenarios", split = ",", paramLabel = "a,b",
            description = "Scenarios to tune on (default asmf-poisson-medium, asmf-bursty-medium, asmf-zipf-skew-medium).")
    private List<String> scenarios;

    @Option(names = "--sampling-seed", paramLabel = "S", defaultValue = "1", description = "Seed of the configuration sample (default 1).")
    private long samplingSeed;

    @Option(names = "--workers", paramLabel = "N", description = "Parallel runs (default: number of cores).")
    private Integer workers;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/tuning/<policy>).")
    private Path out;

    @Override
    public Integer call() throws IOException {
        if (!policy.equals("asmf")) {
            throw new BadInputException("tune: policy '" + policy + "' has no search box; allowed: asmf");
        }
        if (configs < 1 || configs > 100_000) {
            throw new BadInputException("--configs = " + configs + ": must be in [1, 100000]");
        }
        if (top == null) {
            top = Math.min(3, configs);
        }
        if (top < 1 || top > configs) {
            throw new BadInputException("--top = " + top + ": must be in [1, --configs = " + configs + "]");
        }
        if (!(durationScale >= 0.05 && durationScale <= 1)) {
            // the reason for the side that was crossed: a scale above 1 is not "shorter"
            String why = durationScale < 0.05 ? " (shorter runs end before the queues of the seed's scenarios settle)"
                    : durationScale > 1 ? " (it only shortens runs: 1 is the scenarios' own length)" : "";
            throw new BadInputException("--duration-scale = " + durationScale + ": must be in [0.05, 1]" + why);
        }
        CampaignCommand.checkWorkers(workers);
        List<Long> seedList;
        try {
            seedList = Seeds.parse(seeds);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--" + e.getMessage());
        }
        List<String> names = scenarios != null ? scenarios : DEFAULT_SCENARIOS;
        for (String n : names) {
            String missing = org.loadlab.experiment.scenario.ScenarioLoader.missing("--scenarios", n);
            if (missing != null) {
                throw new BadInputException(missing); // named by the flag the user typed, not simulate's --scenario
            }
            Scenarios.load(n, List.of(), "asmf", seedList.get(0) + ""); // validates each scenario first
        }
        Path dir = OutputDir.prepare(out != null ? out : Path.of("results", "tuning", policy), out != null);
        // Two tunings into one directory would leave one's tuning.csv with the other's campaign file.
        try (DirLock lock = DirLock.acquire(dir, OutputDir.describe(dir, "--out", out != null),
                DirLock.job("--out", "give this one another --out"))) {
            return tune(names, seedList, dir);
        }
    }

    /** The search proper, writing into {@code dir} whose {@link DirLock} this process holds. */
    private int tune(List<String> names, List<Long> seedList, Path dir) throws IOException {
        int threads = workers != null ? workers : RunExecutor.defaultWorkers();
        int total = configs * names.size() * seedList.size();
        System.out.printf(Locale.ROOT, "Tuning asmf: %s x %s x %s = %s on %d worker(s)%n",
                Plural.count(configs, "configuration", "configurations"), Plural.count(names.size(), "scenario", "scenarios"),
                Plural.count(seedList.size(), "seed", "seeds"), Plural.count(total, "run", "runs"), threads);
        AtomicInteger done = new AtomicInteger();
        long t0 = System.nanoTime();
        List<AsmfTuner.Result> ranked = AsmfTuner.tune(Scenarios.loader(), names, seedList,
                AsmfTuner.sample(configs, samplingSeed), durationScale, threads, x -> {
                    int d = done.incrementAndGet();
                    if (d % Math.max(1, total / 10) == 0) {
                        System.out.printf(Locale.ROOT, "  %d/%d runs%n", d, total);
                    }
                });
        double wall = (System.nanoTime() - t0) / 1e9;
        Files.writeString(dir.resolve("tuning.csv"), csv(ranked));
        Files.writeString(dir.resolve("tuned-variants.conf"), campaign(ranked.subList(0, top), names));
        System.out.printf(Locale.ROOT, "%n%4s %6s %3s %7s %7s %7s %7s %8s %6s %6s %6s %11s %11s %10s %7s%n", "rank", "config", "k",
                "alpha", "beta", "gamma", "delta", "eta", "tau", "c-min", "c-max", "throughput", "wait (s)", "queries", "score");
        for (int i = 0; i < Math.min(top + 2, ranked.size()); i++) {
            AsmfTuner.Result r = ranked.get(i);
            AsmfTuner.Config c = r.config();
            System.out.printf(Locale.ROOT, "%4d %6d %3d %7.3f %7.3f %7.3f %7.3f %8.4f %6.3f %6.3f %6.3f %11.4f %11.4f %10.2f %7.4f%n",
                    i + 1, c.index(), c.k(), c.alpha(), c.beta(), c.gamma(), c.delta(), c.eta(), c.tau(), c.cMin(), c.cMax(),
                    r.throughput(), r.waitSeconds(), r.queries(), r.score());
        }
        List<String> flat = AsmfTuner.flatTerms(ranked);
        if (!flat.isEmpty()) {
            System.out.println();
            for (String f : flat) {
                System.out.println("warning: " + f + ": it does not separate the configurations (each gets half its weight),"
                        + " so the ranking rests on the other terms of the score");
            }
            if (flat.size() == AsmfTuner.SCORE_TERMS.size()) {
                System.out.println("warning: no term separates the configurations: every score is equal and the ranking"
                        + " is the sample order; tune on scenarios where ASMF's parameters matter (e.g. the asmf-* ones)");
            }
        }
        System.out.printf(Locale.ROOT, "%n%s in %.1f s. Ranked table: %s; top %d as a campaign: %s%n", Plural.count(total, "run", "runs"), wall,
                dir.resolve("tuning.csv"), top, dir.resolve("tuned-variants.conf"));
        return 0;
    }

    private static String csv(List<AsmfTuner.Result> ranked) {
        StringBuilder b = new StringBuilder("rank,config,k,alpha,beta,gamma,delta,eta,tau,c_min,c_max,throughput,wait_s,backlog_area,"
                + "queries_per_decision,score\n");
        for (int i = 0; i < ranked.size(); i++) {
            AsmfTuner.Result r = ranked.get(i);
            AsmfTuner.Config c = r.config();
            List<String> cells = new ArrayList<>(List.of(String.valueOf(i + 1), String.valueOf(c.index()), String.valueOf(c.k())));
            for (double v : new double[] {c.alpha(), c.beta(), c.gamma(), c.delta(), c.eta(), c.tau(), c.cMin(), c.cMax(),
                    r.throughput(), r.waitSeconds(), r.backlog(), r.queries(), r.score()}) {
                cells.add(CsvNumbers.format(v));
            }
            b.append(String.join(",", cells)).append('\n');
        }
        return b.toString();
    }

    private static String campaign(List<AsmfTuner.Result> best, List<String> scenarios) {
        StringBuilder b = new StringBuilder("""
                # The best configurations of `loadlab tune asmf`, as a campaign against default ASMF:
                #   ./loadlab campaign run tuned-variants.conf
                # Copy a { name = ..., policy = asmf, set { ... } } entry into another campaign's policies.
                name = asmf-tuned-check
                description = "The tuner's best ASMF configurations against the default, on the tuning scenarios"
                seeds = "101:120"
                reference = asmf
                metrics = [throughput, avg_wait_time, backlog_area, queries_per_decision]
                """);
        b.append("scenarios = [").append(String.join(", ", scenarios)).append("]\npolicies = [\n  asmf\n");
        for (int i = 0; i < best.size(); i++) {
            b.append("  { name = asmf-tuned-").append(i + 1).append(", policy = asmf, set { ")
                    .append(best.get(i).config().overrides().get(0)).append(" } }\n");
        }
        return b.append("]\n").toString();
    }
}

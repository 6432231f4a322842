package org.loadlab.studies.stickylazy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.RunsFile;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.stats.Summary;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.policy.StickyCache;
import org.loadlab.balancer.policy.StickyLazyPolicy;
import org.loadlab.experiment.campaign.CampaignLoader;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.scenario.ScenarioLoader;

/**
 * Seed 001's theory checks on a finished campaign (SPEC.md §5, docs/sticky-lazy.md):
 *
 * <ol>
 *   <li><b>Probes per request</b> of every Sticky-Lazy run against the seed's estimate
 *       {@code (2 − t)/(1 + t(T − 1)/2)} with the run's measured t = first-probe hits / first
 *       probes, against the same cycle model with the requests the run's credit rule really
 *       sends per cycle ({@code (2 − t)/(1 + t(T + 1)/2)} for credit T − q, which also routes
 *       the probed request; the seed's formula itself for T − q − 1), and against the model
 *       fed with the measured credit {@code (2 − t)/(1 + h·c̄)} (h = share of probe decisions
 *       that cached, c̄ = mean credit granted); and the floors 1/T (the seed's claim) and
 *       1/(T + 1) (what the rule T − q guarantees: one probe decision routes at most 1 + T
 *       requests; under T − q − 1 at most T, so 1/T holds).</li>
 *   <li><b>Peak load</b>: max queue of Sticky-Lazy ≤ max queue of strict Po2C + T on the same
 *       scenario, parameters and seed: how often it holds and by how much.</li>
 * </ol>
 * Reads {@code DIR/runs.jsonl} ({@link RunsFile}) and, when present, {@code DIR/campaign.json}
 * to learn each variant's catalog policy and T (otherwise: Sticky-Lazy runs are recognised by
 * their {@value StickyLazyPolicy#FIRST_PROBES} counter, T from the swept key
 * {@value #THRESHOLD_KEY} or 3, the credit rule from the swept key {@value #CREDIT_KEY} or
 * T − q, the reference is the variant named {@value #REFERENCE}).
 * Writes {@code theory.csv}, {@code peak-bound.csv}, {@code sticky-lazy.md} and
 * {@code plots/sticky-lazy-*.png|svg} into DIR.
 *
 * <p>Source: seed 001 (§3 "E[P] for Sticky-Lazy", "Sticky Lazy tail bound"), SPEC.md §5.
 */
public final class StickyLazyAnalysis {
    /** The scenario key of T. */
    public static final String THRESHOLD_KEY = "policy.sticky-lazy.threshold";
    /** The scenario key of the credit rule. */
    public static final String CREDIT_KEY = "policy.sticky-lazy.credit";
    /** Name of the baseline variant the peak bound is checked against. */
    public static final String REFERENCE = "strict-po2c";
    /** Markdown file written into the campaign directory. */
    public static final String MARKDOWN = "sticky-lazy.md";
    /** Per-run theory table. */
    public static final String THEORY_CSV = "theory.csv";
    /** Per-pair peak-bound table. */
    public static final String PEAK_CSV = "peak-bound.csv";

    private StickyLazyAnalysis() {
    }

    /**
     * One Sticky-Lazy run and its theory check.
     *
     * @param scenario scenario name
     * @param parameters swept parameters of the run
     * @param policy variant name
     * @param seed master seed
     * @param threshold T
     * @param credit the credit rule (T − q or T − q − 1)
     * @param requests routing decisions (requests)
     * @param probes probes sent (first + fallback)
     * @param probesPerRequest measured probes per request (queries per decision)
     * @param blindRoutes requests routed from the cache with zero probes
     * @param firstProbes first probes
     * @param firstProbeHits first probes that found load &lt; T
     * @param fallbackProbes second probes
     * @param fallbackCaches fallback decisions that cached their winner
     * @param creditGranted sum of credits granted (T − L or T − L − 1 each)
     * @param t measured t = hits / first probes (NaN without first probes)
     * @param seedFormula (2 − t)/(1 + t(T − 1)/2), the seed's estimate
     * @param cycleModel the seed's cycle with the requests the credit rule sends: (2 − t)/(1 + t(T + 1)/2)
     *     for T − q (the probe-routed request counted), the seed's formula for T − q − 1
     * @param creditModel (2 − t)/(1 + h·c̄) with the measured caching share h and mean credit c̄
     * @param holdsOneOverT probes per request ≥ 1/T
     * @param holdsOneOverTPlusOne probes per request ≥ 1/(T + 1)
     * @param maxQueue peak queue q_j of the run, requests
     */
    public record RunCheck(String scenario, SortedMap<String, String> parameters, String policy, long seed, int threshold,
                           StickyCache.Credit credit, long requests, long probes, double probesPerRequest, long blindRoutes, long firstProbes,
                           long firstProbeHits, long fallbackProbes, long fallbackCaches, long creditGranted, double t,
                           double seedFormula, double cycleModel, double creditModel, boolean holdsOneOverT,
                           boolean holdsOneOverTPlusOne, int maxQueue) {
    }

    /**
     * A Sticky-Lazy run paired with strict Po2C on the same scenario, parameters and seed.
     *
     * @param scenario scenario name
     * @param parameters swept parameters
     * @param policy the Sticky-Lazy variant
     * @param seed master seed
     * @param threshold T
     * @param stickyMaxQueue peak queue of Sticky-Lazy, requests
     * @param po2cMaxQueue peak queue of strict Po2C, requests
     * @param excess stickyMaxQueue − po2cMaxQueue
     * @param holds excess ≤ T
     */
    public record PeakPair(String scenario, SortedMap<String, String> parameters, String policy, long seed, int threshold,
                           int stickyMaxQueue, int po2cMaxQueue, int excess, boolean holds) {
    }

    /**
     * Everything the check found.
     *
     * @param runs one row per Sticky-Lazy run
     * @param pairs one row per (Sticky-Lazy run, strict Po2C run) pair
     * @param scenarioOrder scenario names in campaign order
     * @param campaignRuns all runs of the campaign (for the plots)
     * @param info catalog policy and T per (scenario, parameters, variant), empty when unknown
     */
    public record Result(List<RunCheck> runs, List<PeakPair> pairs, List<String> scenarioOrder,
                         List<CampaignRun> campaignRuns, Map<String, RunInfo> info) {
        /** Pairs where the bound held. */
        public long pairsHolding() {
            return pairs.stream().filter(PeakPair::holds).count();
        }

        /** Largest excess of Sticky-Lazy's peak over strict Po2C's (Integer.MIN_VALUE without pairs). */
        public int maxExcess() {
            return pairs.stream().mapToInt(PeakPair::excess).max().orElse(Integer.MIN_VALUE);
        }
    }

    /** The seed's estimate of probes per request. */
    public static double seedFormula(double t, int threshold) {
        return (2 - t) / (1 + t * (threshold - 1) / 2.0);
    }

    /** The seed's cycle model counting the probe-routed request: (2 − t)/(1 + t(T + 1)/2). */
    public static double cycleModel(double t, int threshold) {
        return cycleModel(t, threshold, StickyCache.Credit.HEADROOM);
    }

    /**
     * The seed's cycle model (L uniform on 0..T − 1, a probe hit with share t) with the
     * requests a cycle really sends under {@code credit}: 1 + T − L for T − q, giving
     * (2 − t)/(1 + t(T + 1)/2); T − L for T − q − 1, giving the seed's own formula.
     */
    public static double cycleModel(double t, int threshold, StickyCache.Credit credit) {
        return credit == StickyCache.Credit.HEADROOM ? (2 - t) / (1 + t * (threshold + 1) / 2.0) : seedFormula(t, threshold);
    }

    /**
     * Runs the checks on a campaign directory and writes the files.
     *
     * @param dir a finished campaign directory (holds runs.jsonl)
     * @return what was found
     * @throws IOException if runs.jsonl cannot be read or a file cannot be written
     */
    public static Result writeAll(Path dir) throws IOException {
        Result r = analyse(dir);
        writeTheoryCsv(dir.resolve(THEORY_CSV), r);
        writePeakCsv(dir.resolve(PEAK_CSV), r);
        List<String> plots = StickyLazyPlots.write(dir.resolve("plots"), r);
        Files.writeString(dir.resolve(MARKDOWN), markdown(r, plots), StandardCharsets.UTF_8);
        return r;
    }

    /**
     * Reads a campaign directory and computes the checks (writes nothing).
     *
     * @param dir a finished campaign directory
     * @throws IOException if runs.jsonl cannot be read
     */
    public static Result analyse(Path dir) throws IOException {
        List<CampaignRun> runs = RunsFile.read(dir.resolve(RunsFile.FILE_NAME));
        Map<String, RunInfo> info = new HashMap<>();
        List<String> order = new ArrayList<>();
        Path manifest = dir.resolve("campaign.json");
        if (Files.isRegularFile(manifest)) {
            planInfo(manifest, info, order);
        }
        return analyse(runs, info, order);
    }

    /**
     * Computes the checks.
     *
     * @param runs the campaign's runs
     * @param info catalog policy and T per {@link #key}; runs without an entry fall back to
     *     counters, the swept key and T = 3
     * @param scenarioOrder preferred scenario order (others follow in order of appearance)
     */
    public static Result analyse(List<CampaignRun> runs, Map<String, RunInfo> info, List<String> scenarioOrder) {
        List<String> order = new ArrayList<>(scenarioOrder);
        for (CampaignRun r : runs) {
            if (!order.contains(r.scenario())) {
                order.add(r.scenario());
            }
        }
        Map<String, CampaignRun> reference = new HashMap<>();
        for (CampaignRun r : runs) {
            if (isReference(r, info)) {
                reference.put(r.scenario() + "|" + r.parameters() + "|" + r.seed(), r);
            }
        }
        List<RunCheck> checks = new ArrayList<>();
        List<PeakPair> pairs = new ArrayList<>();
        for (CampaignRun r : runs) {
            if (!isSticky(r, info)) {
                continue;
            }
            int threshold = threshold(r, info);
            RunCheck c = check(r, threshold, credit(r, info));
            checks.add(c);
            CampaignRun ref = reference.get(r.scenario() + "|" + r.parameters() + "|" + r.seed());
            if (ref != null) {
                int excess = r.metrics().maxQueue() - ref.metrics().maxQueue();
                pairs.add(new PeakPair(r.scenario(), r.parameters(), r.policy(), r.seed(), threshold,
                        r.metrics().maxQueue(), ref.metrics().maxQueue(), excess, excess <= threshold));
            }
        }
        java.util.Comparator<RunCheck> byOrder = java.util.Comparator
                .comparingInt((RunCheck c) -> order.indexOf(c.scenario()))
                .thenComparing(c -> c.parameters().toString())
                .thenComparing(RunCheck::policy)
                .thenComparingLong(RunCheck::seed);
        checks.sort(byOrder);
        pairs.sort(java.util.Comparator.comparingInt((PeakPair p) -> order.indexOf(p.scenario()))
                .thenComparing(p -> p.parameters().toString()).thenComparing(PeakPair::policy)
                .thenComparingLong(PeakPair::seed));
        return new Result(List.copyOf(checks), List.copyOf(pairs), List.copyOf(order), runs, Map.copyOf(info));
    }

    /** Key of a run's variant in the info map: scenario, parameters and variant name. */
    static String key(String scenario, SortedMap<String, String> parameters, String variant) {
        return scenario + "|" + parameters + "|" + variant;
    }

    static boolean isSticky(CampaignRun r, Map<String, RunInfo> info) {
        RunInfo i = info.get(key(r.scenario(), r.parameters(), r.policy()));
        if (i != null) {
            return i.policy().equals("sticky-lazy");
        }
        return r.metrics().counters().containsKey(StickyLazyPolicy.FIRST_PROBES) || r.policy().equals("sticky-lazy");
    }

    static boolean isReference(CampaignRun r, Map<String, RunInfo> info) {
        return r.policy().equals(REFERENCE);
    }

    static int threshold(CampaignRun r, Map<String, RunInfo> info) {
        RunInfo i = info.get(key(r.scenario(), r.parameters(), r.policy()));
        if (i != null) {
            return i.threshold();
        }
        String swept = r.parameters().get(THRESHOLD_KEY);
        if (swept != null) {
            try {
                return Integer.parseInt(swept.trim());
            } catch (NumberFormatException e) {
                // fall through to the default
            }
        }
        return PolicyParameters.DEFAULT_STICKY_LAZY_THRESHOLD;
    }

    static StickyCache.Credit credit(CampaignRun r, Map<String, RunInfo> info) {
        RunInfo i = info.get(key(r.scenario(), r.parameters(), r.policy()));
        if (i != null) {
            return i.credit();
        }
        String swept = r.parameters().get(CREDIT_KEY);
        if (swept != null) {
            try {
                return StickyCache.Credit.of(swept.trim().replace("\"", ""));
            } catch (IllegalArgumentException e) {
                // fall through to the default
            }
        }
        return StickyCache.Credit.HEADROOM;
    }

    static RunCheck check(CampaignRun r, int threshold) {
        return check(r, threshold, StickyCache.Credit.HEADROOM);
    }

    static RunCheck check(CampaignRun r, int threshold, StickyCache.Credit creditRule) {
        RunMetrics m = r.metrics();
        Map<String, Long> c = m.counters();
        long blind = c.getOrDefault(StickyLazyPolicy.BLIND_ROUTES, 0L);
        long first = c.getOrDefault(StickyLazyPolicy.FIRST_PROBES, 0L);
        long hits = c.getOrDefault(StickyLazyPolicy.FIRST_PROBE_HITS, 0L);
        long fallback = c.getOrDefault(StickyLazyPolicy.FALLBACK_PROBES, 0L);
        long fallbackCaches = c.getOrDefault(StickyLazyPolicy.FALLBACK_CACHES, 0L);
        long credit = c.getOrDefault(StickyLazyPolicy.CREDIT_GRANTED, 0L);
        long requests = m.decisions();
        double perRequest = m.queriesPerDecision();
        double t = first == 0 ? Double.NaN : (double) hits / first;
        long caches = hits + fallbackCaches;
        double h = first == 0 ? Double.NaN : (double) caches / first;
        double meanCredit = caches == 0 ? 0 : (double) credit / caches;
        double creditModel = (2 - t) / (1 + h * meanCredit);
        return new RunCheck(r.scenario(), r.parameters(), r.policy(), r.seed(), threshold, creditRule, requests,
                first + fallback, perRequest, blind, first, hits, fallback, fallbackCaches, credit, t, seedFormula(t, threshold),
                cycleModel(t, threshold, creditRule), creditModel, perRequest >= 1.0 / threshold - 1e-12,
                perRequest >= 1.0 / (threshold + 1) - 1e-12, m.maxQueue());
    }

    /** Reloads the campaign plan from campaign.json to learn each variant's catalog policy and T. */
    private static void planInfo(Path manifest, Map<String, RunInfo> info, List<String> order) {
        try {
            JsonNode m = JsonMapper.builder().build().readTree(manifest.toFile());
            ScenarioLoader scenarios = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
            CampaignPlan plan = new CampaignLoader(scenarios).parse(
                    ConfigFactory.parseString(m.path("definition").toString()), manifest.toString());
            for (CampaignPlan.PlannedRun p : plan.runs()) {
                var sl = p.spec().scenario().policy().stickyLazy();
                info.putIfAbsent(key(p.scenario(), p.parameters(), p.variant()),
                        new RunInfo(p.spec().policy(), sl.threshold(), StickyCache.Credit.of(sl.credit())));
                if (!order.contains(p.scenario())) {
                    order.add(p.scenario());
                }
            }
        } catch (IOException | RuntimeException e) {
            // A definition that no longer loads (e.g. a moved scenario file): fall back to the runs alone.
            info.clear();
            order.clear();
            System.err.println("sticky-lazy-check: cannot reload " + manifest + " (" + e.getMessage()
                    + "); using counters, the swept threshold or T = 3");
        }
    }

    // ---- output ------------------------------------------------------------------------------

    private static void writeTheoryCsv(Path file, Result r) throws IOException {
        StringBuilder b = new StringBuilder("scenario,parameters,policy,seed,threshold,credit,requests,probes,probes_per_request,"
                + "blind_routes,first_probes,first_probe_hits,fallback_probes,fallback_caches,credit_granted,t,"
                + "seed_formula,cycle_model,credit_model,measured_over_seed_formula,one_over_t,holds_one_over_t,"
                + "one_over_t_plus_1,holds_one_over_t_plus_1,max_queue\n");
        for (RunCheck c : r.runs()) {
            b.append(csv(c.scenario())).append(',').append(csv(params(c.parameters()))).append(',').append(csv(c.policy()))
                    .append(',').append(c.seed()).append(',').append(c.threshold()).append(',').append(c.credit().key())
                    .append(',').append(c.requests())
                    .append(',').append(c.probes()).append(',').append(num(c.probesPerRequest())).append(',')
                    .append(c.blindRoutes()).append(',').append(c.firstProbes()).append(',').append(c.firstProbeHits())
                    .append(',').append(c.fallbackProbes()).append(',').append(c.fallbackCaches()).append(',')
                    .append(c.creditGranted()).append(',').append(num(c.t())).append(',').append(num(c.seedFormula()))
                    .append(',').append(num(c.cycleModel())).append(',').append(num(c.creditModel())).append(',')
                    .append(num(c.probesPerRequest() / c.seedFormula())).append(',').append(num(1.0 / c.threshold()))
                    .append(',').append(c.holdsOneOverT()).append(',').append(num(1.0 / (c.threshold() + 1))).append(',')
                    .append(c.holdsOneOverTPlusOne()).append(',').append(c.maxQueue()).append('\n');
        }
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }

    private static void writePeakCsv(Path file, Result r) throws IOException {
        StringBuilder b = new StringBuilder(
                "scenario,parameters,policy,seed,threshold,sticky_max_queue,po2c_max_queue,excess,bound,holds\n");
        for (PeakPair p : r.pairs()) {
            b.append(csv(p.scenario())).append(',').append(csv(params(p.parameters()))).append(',').append(csv(p.policy()))
                    .append(',').append(p.seed()).append(',').append(p.threshold()).append(',').append(p.stickyMaxQueue())
                    .append(',').append(p.po2cMaxQueue()).append(',').append(p.excess()).append(',')
                    .append(p.po2cMaxQueue() + p.threshold()).append(',').append(p.holds()).append('\n');
        }
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }

    /**
     * The markdown section: probes-per-request table by group, the peak-bound table and the plots.
     *
     * @param r the result
     * @param plots plot files written (relative to the campaign directory)
     * @return markdown text
     */
    static String markdown(Result r, List<String> plots) {
        StringBuilder b = new StringBuilder();
        b.append("## Sticky-Lazy theory check (seed 001)\n\n");
        if (r.runs().isEmpty()) {
            b.append("No Sticky-Lazy runs in this campaign.\n");
            return b.toString();
        }
        b.append("Probes per request measured against the seed's estimate (2 − t)/(1 + t(T − 1)/2) with the measured t "
                + "(share of first probes finding load < T), the same cycle with the requests the credit rule really "
                + "sends (credit T − q: 1 + T − L per cycle, (2 − t)/(1 + t(T + 1)/2); credit T − q − 1: T − L, the seed's "
                + "formula), and the model fed with the measured caching share h and mean credit c̄, (2 − t)/(1 + h·c̄). "
                + "Floors: 1/T (the seed's claim; guaranteed under T − q − 1) and 1/(T + 1) (guaranteed under T − q). "
                + "Means over seeds (± 95% CI half-width for the measurement). Per run: `" + THEORY_CSV + "`.\n\n");
        b.append("| scenario | parameters | policy | T | credit | runs | probes/request | t | seed formula | cycle model "
                + "| credit model | measured / seed | ≥ 1/T | ≥ 1/(T+1) |\n");
        b.append("| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (List<RunCheck> g : groups(r.runs()).values()) {
            RunCheck f = g.get(0);
            Summary p = Summary.of(g.stream().mapToDouble(RunCheck::probesPerRequest).toArray());
            double t = mean(g.stream().mapToDouble(RunCheck::t).toArray());
            double seed = mean(g.stream().mapToDouble(RunCheck::seedFormula).toArray());
            double cycle = mean(g.stream().mapToDouble(RunCheck::cycleModel).toArray());
            double credit = mean(g.stream().mapToDouble(RunCheck::creditModel).toArray());
            long floorT = g.stream().filter(RunCheck::holdsOneOverT).count();
            long floorT1 = g.stream().filter(RunCheck::holdsOneOverTPlusOne).count();
            b.append("| ").append(f.scenario()).append(" | ").append(params(f.parameters())).append(" | ").append(f.policy())
                    .append(" | ").append(f.threshold()).append(" | ").append(f.credit().key()).append(" | ").append(g.size())
                    .append(" | ").append(fmt(p.mean())).append(g.size() > 1 ? " ± " + fmt(p.ci95()) : "").append(" | ").append(fmt(t))
                    .append(" | ").append(fmt(seed)).append(" | ").append(fmt(cycle)).append(" | ").append(fmt(credit))
                    .append(" | ").append(fmt(p.mean() / seed)).append(" | ").append(floorT).append("/").append(g.size())
                    .append(" | ").append(floorT1).append("/").append(g.size()).append(" |\n");
        }
        b.append('\n');
        b.append("### Peak load: Sticky-Lazy ≤ strict Po2C + T on the same seed\n\n");
        if (r.pairs().isEmpty()) {
            b.append("No strict-po2c runs to pair with (the reference variant must be named `" + REFERENCE + "`).\n\n");
        } else {
            b.append(String.format(Locale.ROOT, "Held in %d of %d paired runs; largest excess of Sticky-Lazy's peak queue over "
                    + "strict Po2C's: %+d requests. Per pair: `%s`.%n%n", r.pairsHolding(), r.pairs().size(), r.maxExcess(),
                    PEAK_CSV));
            b.append("| scenario | parameters | policy | T | pairs | holds | mean peak SL | mean peak Po2C | mean excess "
                    + "| min excess | max excess |\n");
            b.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            Map<String, List<PeakPair>> groups = new LinkedHashMap<>();
            for (PeakPair p : r.pairs()) {
                groups.computeIfAbsent(key(p.scenario(), p.parameters(), p.policy()), k -> new ArrayList<>()).add(p);
            }
            for (List<PeakPair> g : groups.values()) {
                PeakPair f = g.get(0);
                b.append("| ").append(f.scenario()).append(" | ").append(params(f.parameters())).append(" | ")
                        .append(f.policy()).append(" | ").append(f.threshold()).append(" | ").append(g.size()).append(" | ")
                        .append(g.stream().filter(PeakPair::holds).count()).append("/").append(g.size()).append(" | ")
                        .append(fmt(mean(g.stream().mapToDouble(PeakPair::stickyMaxQueue).toArray()))).append(" | ")
                        .append(fmt(mean(g.stream().mapToDouble(PeakPair::po2cMaxQueue).toArray()))).append(" | ")
                        .append(fmt(mean(g.stream().mapToDouble(PeakPair::excess).toArray()))).append(" | ")
                        .append(g.stream().mapToInt(PeakPair::excess).min().orElse(0)).append(" | ")
                        .append(g.stream().mapToInt(PeakPair::excess).max().orElse(0)).append(" |\n");
            }
            b.append('\n');
        }
        if (!plots.isEmpty()) {
            b.append("### Plots\n\n");
            for (String p : plots) {
                b.append("![").append(p).append("](").append(p).append(")\n\n");
            }
        }
        return b.toString();
    }

    /** Sticky-Lazy runs grouped by scenario, parameters and variant, in result order. */
    static Map<String, List<RunCheck>> groups(List<RunCheck> runs) {
        Map<String, List<RunCheck>> out = new LinkedHashMap<>();
        for (RunCheck c : runs) {
            out.computeIfAbsent(key(c.scenario(), c.parameters(), c.policy()), k -> new ArrayList<>()).add(c);
        }
        return out;
    }

    static double mean(double[] values) {
        double s = 0;
        int n = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                s += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : s / n;
    }

    static String params(SortedMap<String, String> p) {
        if (p.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        p.forEach((k, v) -> parts.add((k.equals(THRESHOLD_KEY) ? "T" : k) + "=" + v));
        return String.join(" ", parts);
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%.6g", v);
    }

    private static String csv(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}

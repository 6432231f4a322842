package org.loadlab.studies.asmf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.experiment.run.RunExecutor;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;

/**
 * The ASMF seed's tuner (SPEC.md §3): samples configurations from the seed's parameter
 * box — k ∈ {2,3,4}, weights cpu U(.45,.65), mem U(.10,.25), io U(.05,.20),
 * net U(.05,.20) normalised to sum 1, η U(.003,.02), τ U(.08,.14), Cmin U(.70,.90),
 * Cmax U(1.30,1.80) — runs each on every scenario and seed, and ranks them by the
 * min-max-normalised composite 0.40·throughput + 0.30·(1 − wait) + 0.20·(1 − backlog) +
 * 0.10·(1 − queries per decision).
 */
public final class AsmfTuner {
    private AsmfTuner() {
    }

    /**
     * One sampled configuration.
     *
     * @param index position in the sample (0-based)
     * @param k sample size
     * @param alpha CPU weight
     * @param beta memory weight
     * @param gamma IO weight
     * @param delta network weight
     * @param eta feedback gain η
     * @param tau rejection threshold τ
     * @param cMin lower correction clip
     * @param cMax upper correction clip
     */
    public record Config(int index, int k, double alpha, double beta, double gamma, double delta, double eta, double tau,
                         double cMin, double cMax) {
        /** The scenario overrides that apply this configuration. */
        public List<String> overrides() {
            return List.of(String.format(Locale.ROOT,
                    "policy.asmf { k = %d, alpha = %.4f, beta = %.4f, gamma = %.4f, delta = %.4f, eta = %.5f, tau = %.4f,"
                            + " c-min = %.4f, c-max = %.4f }", k, alpha, beta, gamma, delta, eta, tau, cMin, cMax),
                    "policy.k = " + k);
        }
    }

    /**
     * A configuration's mean results over all scenarios and seeds, and its composite score.
     *
     * @param config the configuration
     * @param throughput mean throughput (the seed's units per job, or requests/s in the message model)
     * @param waitSeconds mean waiting time, seconds
     * @param backlog mean backlog area
     * @param queries mean queries per decision
     * @param score composite score in [0, 1], higher is better
     */
    public record Result(Config config, double throughput, double waitSeconds, double backlog, double queries, double score) {
    }

    /** Draws {@code count} configurations from the seed's box with the given seed. */
    public static List<Config> sample(int count, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<Config> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int k = 2 + rng.nextInt(3);
            double cpu = uniform(rng, 0.45, 0.65);
            double mem = uniform(rng, 0.10, 0.25);
            double io = uniform(rng, 0.05, 0.20);
            double net = uniform(rng, 0.05, 0.20);
            double sum = cpu + mem + io + net;
            out.add(new Config(i, k, cpu / sum, mem / sum, io / sum, net / sum, uniform(rng, 0.003, 0.02),
                    uniform(rng, 0.08, 0.14), uniform(rng, 0.70, 0.90), uniform(rng, 1.30, 1.80)));
        }
        return out;
    }

    /**
     * Runs every configuration on every scenario and seed and ranks them, best first.
     *
     * @param loader scenario loader
     * @param scenarios scenario names or files
     * @param seeds run seeds
     * @param configs the configurations
     * @param durationScale factor applied to each scenario's duration and event times, in (0, 1]
     * @param workers parallel runs
     * @param onRunDone called after each run (progress)
     */
    public static List<Result> tune(ScenarioLoader loader, List<String> scenarios, List<Long> seeds, List<Config> configs,
                                    double durationScale, int workers, Consumer<Object> onRunDone) {
        List<RunSpec> specs = new ArrayList<>();
        for (Config c : configs) {
            for (String name : scenarios) {
                Scenario base = loader.load(name, List.of());
                List<String> overrides = new ArrayList<>(c.overrides());
                overrides.addAll(scaled(base, durationScale));
                Scenario s = loader.load(name, overrides);
                for (long seed : seeds) {
                    specs.add(new RunSpec(s, "asmf", seed));
                }
            }
        }
        List<RunMetrics> metrics = RunExecutor.runAll(specs, workers, spec -> SimulationRunner.run(spec).metrics(),
                m -> onRunDone.accept(m));
        int perConfig = scenarios.size() * seeds.size();
        double[][] means = new double[configs.size()][4];
        for (int c = 0; c < configs.size(); c++) {
            for (int r = 0; r < perConfig; r++) {
                RunMetrics m = metrics.get(c * perConfig + r);
                boolean reference = specs.get(c * perConfig + r).scenario().isReferenceModel();
                means[c][0] += (reference ? m.extras().get("throughput") : m.throughputRps()) / perConfig;
                means[c][1] += m.waitMean() / perConfig;
                means[c][2] += m.backlogArea() / perConfig;
                means[c][3] += m.queriesPerDecision() / perConfig;
            }
        }
        double[] lo = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] hi = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (double[] m : means) {
            for (int i = 0; i < 4; i++) {
                lo[i] = Math.min(lo[i], m[i]);
                hi[i] = Math.max(hi[i], m[i]);
            }
        }
        List<Result> results = new ArrayList<>();
        for (int c = 0; c < configs.size(); c++) {
            double[] m = means[c];
            double score = 0.40 * norm(m[0], lo[0], hi[0]) + 0.30 * (1 - norm(m[1], lo[1], hi[1]))
                    + 0.20 * (1 - norm(m[2], lo[2], hi[2])) + 0.10 * (1 - norm(m[3], lo[3], hi[3]));
            results.add(new Result(configs.get(c), m[0], m[1], m[2], m[3], score));
        }
        results.sort(Comparator.comparingDouble(Result::score).reversed().thenComparingInt(r -> r.config().index()));
        return results;
    }

    /** The terms of the composite score, in its order, as {@link #flatTerms} names them. */
    public static final List<String> SCORE_TERMS = List.of("throughput", "wait (s)", "backlog area", "queries/decision");

    /**
     * The terms of the composite score that cannot separate the configurations: the same mean
     * for every one of them, or undefined (NaN) for some (e.g. the wait on profile nodes, which
     * never queue). Each such term adds the same 0.5 of its weight to every score.
     *
     * @param ranked the results of {@link #tune}, at least one
     * @return e.g. {@code wait (s) = 0.0000 for every configuration}, in the score's term order; empty if every term varies
     */
    public static List<String> flatTerms(List<Result> ranked) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < SCORE_TERMS.size(); i++) {
            double first = term(ranked.get(0), i);
            boolean undefined = false;
            boolean same = true;
            for (Result r : ranked) {
                double v = term(r, i);
                undefined |= Double.isNaN(v);
                same &= Double.compare(v, first) == 0;
            }
            if (undefined) {
                out.add(SCORE_TERMS.get(i) + " is undefined (NaN) on these scenarios");
            } else if (same && ranked.size() > 1) {
                out.add(String.format(Locale.ROOT, "%s = %.4g for every configuration", SCORE_TERMS.get(i), first));
            }
        }
        return out;
    }

    private static double term(Result r, int i) {
        return switch (i) {
            case 0 -> r.throughput();
            case 1 -> r.waitSeconds();
            case 2 -> r.backlog();
            default -> r.queries();
        };
    }

    /** Overrides that shorten a scenario: its duration and its events' times times {@code scale}. */
    static List<String> scaled(Scenario s, double scale) {
        if (scale == 1.0) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "duration = %.6f", s.duration() * scale));
        out.add(String.format(Locale.ROOT, "warmup = %.6f", s.warmup() * scale));
        StringBuilder events = new StringBuilder("events = [");
        for (Scenario.Event e : s.events()) {
            events.append(String.format(Locale.ROOT, "{ type = %s, at = %.6f", e.type(), e.at() * scale));
            if (e.type().equals("spike")) {
                events.append(String.format(Locale.ROOT, ", until = %.6f, factor = %s", e.until() * scale, e.factor()));
            } else {
                if (e.type().equals("degrade")) {
                    events.append(", factor = ").append(e.factor());
                }
                // A fraction stays a fraction: the reference model draws its targets per run, as the seed does.
                events.append(e.fraction() > 0 ? ", fraction = " + e.fraction() : ", nodes = " + e.nodes());
            }
            events.append(" } ");
        }
        out.add(events.append("]").toString());
        return out;
    }

    private static double norm(double v, double lo, double hi) {
        return hi > lo ? (v - lo) / (hi - lo) : 0.5;
    }

    private static double uniform(SplittableRandom rng, double lo, double hi) {
        return lo + (hi - lo) * rng.nextDouble();
    }
}

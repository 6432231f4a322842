package org.loadlab.balancer.policy;

import org.loadlab.balancer.decision.RoutingPolicy;

import org.loadlab.balancer.pipeline.Pickers;
import org.loadlab.balancer.pipeline.PipelinePolicy;
import org.loadlab.balancer.pipeline.Sampler;
import org.loadlab.balancer.pipeline.Scorer;
import org.loadlab.balancer.pipeline.Scorers;

import java.util.List;
import java.util.Optional;

/**
 * The built-in selection policies by name: what each does, how many nodes it reads, and
 * a factory for one instance per balancer. Source: SPEC.md §3.
 */
public final class PolicyCatalog {
    private PolicyCatalog() {
    }

    /**
     * One catalog entry.
     *
     * @param name the name scenarios and {@code --policies} use
     * @param description one line for {@code loadlab policies} and docs
     */
    public record Entry(String name, String description) {
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry("random", "uniformly random allowed node; reads no load"),
            new Entry("round-robin", "cyclic over allowed nodes from a random offset; reads no load"),
            new Entry("weighted-round-robin", "smooth (nginx) weighted round robin, weights = nominal mu_j; reads no load"),
            new Entry("least-connections", "fewest requests in flight from this balancer; reads no load"),
            new Entry("least-queue", "JSQ: shortest queue q_j over all allowed nodes"),
            new Entry("p2c", "power-of-two choices: shorter queue of 2 distinct random nodes"),
            new Entry("power-of-k", "shortest queue of k distinct random nodes (policy.k; policy.k-sampling = "
                    + "with-replacement: k i.i.d. draws)"),
            new Entry("gmsr", "greedy marginal service rate: argmax mu_j/(1+q_j) over all allowed nodes"),
            new Entry("gmsr-reference", "the ASMF seed's gmsr, which its code makes identical to least-queue (SPEC 4)"),
            new Entry("asmf", "ASMF (adaptive sampled marginal feedback): k samples, argmax mu/((1+q)(1+L))*C, reject below tau"),
            new Entry("asmf-no-feedback", "ASMF ablation: correction C = 1"),
            new Entry("asmf-no-sampling", "ASMF ablation: all allowed nodes instead of k samples"),
            new Entry("asmf-no-multiresource", "ASMF ablation: resource load L = 0"),
            new Entry("strict-po2c", "seed 001 baseline: 2 probes every request, shorter queue wins (multi-round engine)"),
            new Entry("sticky-lazy", "seed 001: blind routes to a cached node while credit T - q lasts, else 1 probe, "
                    + "Po2C fallback when q >= T (policy.sticky-lazy.threshold)"),
            new Entry("peak-ewma", "Finagle/Linkerd: of 2 random nodes the lower peak-EWMA latency x (in flight + 1); reads no load"),
            new Entry("least-request", "Envoy: fewest in flight of k random nodes; unequal weights: EDF on weight/(in flight+1)^bias;"
                    + " reads no load"),
            new Entry("ring-hash", "Envoy ring hash: consistent hashing of the request key (keys.distribution); reads no load"),
            new Entry("maglev", "Maglev table (65537 slots) over the request key (keys.distribution); reads no load"),
            new Entry("prequal", "Prequal (NSDI 2024): asynchronous probes into a pool, hot-cold choice on RIF then latency"),
            new Entry("lin-ts", "seed 003: draw by the LinTS control plane's published weights; least connections when they"
                    + " are stale (needs control-plane.enabled)"),
            new Entry("weighted-random", "seed 003's weighted round robin: random draw in proportion to nominal mu_j"
                    + " (the profiles' capacities); reads no load"));

    /** All built-in policies in documentation order. */
    public static List<Entry> entries() {
        return ENTRIES;
    }

    /** The entry named {@code name}, if any. */
    public static Optional<Entry> find(String name) {
        return ENTRIES.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** Comma-separated list of the built-in names (for error messages). */
    public static String names() {
        return String.join(", ", ENTRIES.stream().map(Entry::name).toList());
    }

    /**
     * True if {@code name} is a multi-round policy ({@code sticky-lazy}, {@code strict-po2c});
     * {@link #create} refuses those, {@link #instantiate} builds them.
     *
     * @param name a policy name
     */
    public static boolean multiRound(String name) {
        return name.equals("sticky-lazy") || name.equals("strict-po2c");
    }

    /**
     * True if {@code name} is a policy with its own steps rather than a pipeline (the
     * multi-round ones and least-request, ring-hash, maglev, prequal); {@link #create}
     * refuses those, {@link #instantiate} builds them.
     */
    public static boolean ownSteps(String name) {
        return multiRound(name) || name.equals("least-request") || name.equals("ring-hash") || name.equals("maglev")
                || name.equals("prequal") || name.equals("lin-ts");
    }

    /**
     * True if {@code name} needs the message-level model: it probes in several rounds,
     * measures latencies, hashes request keys or probes asynchronously (the time-stepped
     * reference model has none of that).
     */
    public static boolean messageOnly(String name) {
        return ownSteps(name) || name.equals("peak-ewma");
    }

    /** True if {@code name} ranks nodes by a score, so error-aware scoring ({@code policy.error-penalty}) applies to it. */
    public static boolean scored(String name) {
        return !ownSteps(name) && !name.equals("random") && !name.equals("round-robin")
                && !name.equals("weighted-round-robin") && !name.equals("weighted-random") && find(name).isPresent();
    }

    /** True if {@code name} routes by weights a control plane publishes (it needs {@code control-plane.enabled}). */
    public static boolean needsControlPlane(String name) {
        return name.equals("lin-ts");
    }

    /** True if {@code name} routes by the request's affinity key. */
    public static boolean hashesKeys(String name) {
        return name.equals("ring-hash") || name.equals("maglev");
    }

    /**
     * Creates a fresh instance of any catalog policy for one balancer: a
     * {@link PipelinePolicy} (sampler → scorer → picker) or, for {@link #multiRound} names,
     * a multi-round policy. Every one runs on the balancer's one decision engine.
     *
     * @param name a catalog name
     * @param parameters policy parameters
     * @param nominalRates nominal μ_j per node index (weights of weighted-round-robin)
     * @throws IllegalArgumentException if the name is unknown (message lists the allowed names)
     *     or a parameter is out of range (e.g. Sticky-Lazy T &lt; 1)
     */
    public static RoutingPolicy instantiate(String name, PolicyParameters parameters, double[] nominalRates) {
        ProductionParameters p = parameters.production();
        return switch (name) {
            case "sticky-lazy" -> new StickyLazyPolicy(parameters.stickyLazyThreshold(), parameters.stickyLazyCredit());
            case "strict-po2c" -> new StrictPo2cPolicy();
            case "least-request" -> new LeastRequestPolicy(p.leastRequestChoices(), p.leastRequestBias(), nominalRates);
            case "ring-hash" -> new AffinityPolicy(AffinityPolicy.Kind.RING_HASH, p.ringHashMinRingSize());
            case "maglev" -> new AffinityPolicy(AffinityPolicy.Kind.MAGLEV, p.maglevTableSize());
            case "prequal" -> new PrequalPolicy(p.prequalProbes(), p.prequalPoolSize(), p.prequalMaxAge(), p.prequalReuse(),
                    p.prequalHotQuantile());
            case "lin-ts" -> new LinTsPolicy(LinTsPolicy.DEFAULT_STALE_AFTER);
            default -> create(name, parameters, nominalRates);
        };
    }

    /**
     * Creates a fresh instance of single-round policy {@code name} for one balancer, as the
     * composition SPEC.md §3 defines:
     * <ul>
     *   <li>{@code random}: read none → uniform; {@code round-robin}: read none → cyclic from a
     *       random offset; {@code weighted-round-robin}: read none → smooth WRR over μ_j;
     *       {@code least-connections}: read none → fewest in flight;</li>
     *   <li>{@code least-queue}: read all → shortest queue; {@code p2c} / {@code power-of-k}:
     *       read k distinct (power-of-k: or k i.i.d. draws) → shortest queue; {@code gmsr}: read all → highest μ/(1+q);
     *       {@code gmsr-reference}: as least-queue (the seed's code makes them equal);</li>
     *   <li>{@code asmf}: read k distinct → highest S', reject below τ; ablations drop the
     *       feedback (C ≡ 1), the sampling (read all) or the resources (L ≡ 0);</li>
     *   <li>{@code peak-ewma}: draw 2 distinct, read none → lowest peak-EWMA latency × (in flight + 1).</li>
     * </ul>
     * With {@code policy.error-penalty} &gt; 0 every scorer is wrapped by
     * {@link Scorers#errorAware} (a penalty for the node's recent failure share).
     *
     * @param name a catalog name that is not {@link #multiRound}
     * @param parameters policy parameters
     * @param nominalRates nominal μ_j per node index (weights of weighted-round-robin)
     * @throws IllegalArgumentException if the name is unknown (message lists the allowed names),
     *     or names a multi-round policy (use {@link #instantiate})
     */
    public static PipelinePolicy create(String name, PolicyParameters parameters, double[] nominalRates) {
        PipelinePolicy p = composition(name, parameters, nominalRates);
        ProductionParameters pp = parameters.production();
        if (pp.errorPenalty() > 0 && p.scorer() != null) {
            Scorer aware = Scorers.errorAware(p.scorer(), pp.errorPenalty(), pp.errorDecay());
            return new PipelinePolicy(name, p.sampler(), aware, p.picker());
        }
        return p;
    }

    private static PipelinePolicy composition(String name, PolicyParameters parameters, double[] nominalRates) {
        AsmfSettings a = parameters.asmf();
        ProductionParameters pp = parameters.production();
        return switch (name) {
            case "random" -> new PipelinePolicy(name, Sampler.NONE, null, Pickers.uniform());
            case "round-robin" -> new PipelinePolicy(name, Sampler.NONE, null, Pickers.roundRobin());
            case "weighted-round-robin" -> new PipelinePolicy(name, Sampler.NONE, null, Pickers.smoothWeighted(nominalRates));
            case "weighted-random" -> new PipelinePolicy(name, Sampler.NONE, null,
                    new org.loadlab.balancer.pipeline.WeightedDraw(nominalRates));
            case "least-connections" -> new PipelinePolicy(name, Sampler.NONE, Scorers.inFlight(), Pickers.best());
            case "least-queue", "gmsr-reference" -> new PipelinePolicy(name, Sampler.WHOLE_POOL, Scorers.queueLength(), Pickers.best());
            case "p2c" -> new PipelinePolicy(name, Sampler.distinct(2), Scorers.queueLength(), Pickers.best());
            case "power-of-k" -> new PipelinePolicy(name, parameters.kWithReplacement()
                    ? Sampler.withReplacement(parameters.k()) : Sampler.distinct(parameters.k()), Scorers.queueLength(), Pickers.best());
            case "gmsr" -> new PipelinePolicy(name, Sampler.WHOLE_POOL, Scorers.marginalServiceRate(), Pickers.best());
            case "asmf" -> asmf(name, a);
            case "asmf-no-feedback" -> asmf(name, withSwitches(a, false, true, true));
            case "asmf-no-sampling" -> asmf(name, withSwitches(a, true, false, true));
            case "asmf-no-multiresource" -> asmf(name, withSwitches(a, true, true, false));
            case "peak-ewma" -> new PipelinePolicy(name, Sampler.local(2), new PeakEwmaScore(pp.peakEwmaDecay(), pp.peakEwmaPrior()),
                    Pickers.best());
            case "sticky-lazy", "strict-po2c", "least-request", "ring-hash", "maglev", "prequal", "lin-ts" -> throw new IllegalArgumentException(
                    "'" + name + "' is not a pipeline; build it with PolicyCatalog.instantiate");
            default -> throw new IllegalArgumentException(
                    "unknown policy '" + name + "'; allowed: " + names());
        };
    }

    private static PipelinePolicy asmf(String name, AsmfSettings a) {
        Sampler sampler = a.useSampling() ? Sampler.distinct(a.k()) : Sampler.WHOLE_POOL;
        return new PipelinePolicy(name, sampler, new AsmfScore(a), Pickers.bestAtLeast(a.tau()));
    }

    /** True if the policy uses the nodes' ASMF feedback correction C_j. */
    public static boolean usesFeedback(String name) {
        return name.equals("asmf") || name.equals("asmf-no-sampling") || name.equals("asmf-no-multiresource");
    }

    private static AsmfSettings withSwitches(AsmfSettings a, boolean feedback, boolean sampling, boolean multi) {
        return new AsmfSettings(a.k(), a.alpha(), a.beta(), a.gamma(), a.delta(), a.tau(), feedback, sampling, multi);
    }
}

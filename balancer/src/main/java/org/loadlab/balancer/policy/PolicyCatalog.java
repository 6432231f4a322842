package org.loadlab.balancer.policy;

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
            new Entry("power-of-k", "shortest queue of k distinct random nodes (policy.k)"),
            new Entry("gmsr", "greedy marginal service rate: argmax mu_j/(1+q_j) over all allowed nodes"),
            new Entry("gmsr-reference", "the ASMF seed's gmsr, which its code makes identical to least-queue (SPEC 4)"),
            new Entry("asmf", "ASMF (adaptive sampled marginal feedback): k samples, argmax mu/((1+q)(1+L))*C, reject below tau"),
            new Entry("asmf-no-feedback", "ASMF ablation: correction C = 1"),
            new Entry("asmf-no-sampling", "ASMF ablation: all allowed nodes instead of k samples"),
            new Entry("asmf-no-multiresource", "ASMF ablation: resource load L = 0"),
            new Entry("strict-po2c", "seed 001 baseline: 2 probes every request, shorter queue wins (multi-round engine)"),
            new Entry("sticky-lazy", "seed 001: blind routes to a cached node while credit T - q lasts, else 1 probe, "
                    + "Po2C fallback when q >= T (policy.sticky-lazy.threshold)"));

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
     * True if {@code name} is a multi-round policy ({@link RoundPolicy}: {@code sticky-lazy},
     * {@code strict-po2c}); {@link #create} refuses those, {@link #instantiate} builds them.
     *
     * @param name a policy name
     */
    public static boolean multiRound(String name) {
        return name.equals("sticky-lazy") || name.equals("strict-po2c");
    }

    /**
     * Creates a fresh instance of any catalog policy for one balancer: a
     * {@link SelectionPolicy} or, for {@link #multiRound} names, a {@link RoundPolicy}.
     *
     * @param name a catalog name
     * @param parameters policy parameters
     * @param nominalRates nominal μ_j per node index (weights of weighted-round-robin)
     * @throws IllegalArgumentException if the name is unknown (message lists the allowed names)
     *     or a parameter is out of range (e.g. Sticky-Lazy T &lt; 1)
     */
    public static RoutingPolicy instantiate(String name, PolicyParameters parameters, double[] nominalRates) {
        return switch (name) {
            case "sticky-lazy" -> new StickyLazyPolicy(parameters.stickyLazyThreshold());
            case "strict-po2c" -> new StrictPo2cPolicy();
            default -> create(name, parameters, nominalRates);
        };
    }

    /**
     * Creates a fresh instance of single-round policy {@code name} for one balancer.
     *
     * @param name a catalog name that is not {@link #multiRound}
     * @param parameters policy parameters
     * @param nominalRates nominal μ_j per node index (weights of weighted-round-robin)
     * @throws IllegalArgumentException if the name is unknown (message lists the allowed names),
     *     or names a multi-round policy (use {@link #instantiate})
     */
    public static SelectionPolicy create(String name, PolicyParameters parameters, double[] nominalRates) {
        AsmfSettings a = parameters.asmf();
        return switch (name) {
            case "random" -> new RandomPolicy();
            case "round-robin" -> new RoundRobinPolicy();
            case "weighted-round-robin" -> new WeightedRoundRobinPolicy(nominalRates);
            case "least-connections" -> new LeastConnectionsPolicy();
            case "least-queue" -> ShortestQueuePolicy.leastQueue();
            case "p2c" -> ShortestQueuePolicy.powerOfK("p2c", 2);
            case "power-of-k" -> ShortestQueuePolicy.powerOfK("power-of-k", parameters.k());
            case "gmsr" -> new GmsrPolicy();
            case "gmsr-reference" -> ShortestQueuePolicy.leastQueue("gmsr-reference");
            case "asmf" -> new AsmfPolicy(name, a);
            case "asmf-no-feedback" -> new AsmfPolicy(name, withSwitches(a, false, true, true));
            case "asmf-no-sampling" -> new AsmfPolicy(name, withSwitches(a, true, false, true));
            case "asmf-no-multiresource" -> new AsmfPolicy(name, withSwitches(a, true, true, false));
            case "sticky-lazy", "strict-po2c" -> throw new IllegalArgumentException("'" + name
                    + "' is a multi-round policy; build it with PolicyCatalog.instantiate");
            default -> throw new IllegalArgumentException(
                    "unknown policy '" + name + "'; allowed: " + names());
        };
    }

    /** True if the policy uses the nodes' ASMF feedback correction C_j. */
    public static boolean usesFeedback(String name) {
        return name.equals("asmf") || name.equals("asmf-no-sampling") || name.equals("asmf-no-multiresource");
    }

    private static AsmfSettings withSwitches(AsmfSettings a, boolean feedback, boolean sampling, boolean multi) {
        return new AsmfSettings(a.k(), a.alpha(), a.beta(), a.gamma(), a.delta(), a.tau(), feedback, sampling, multi);
    }
}

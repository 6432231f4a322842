package org.loadlab.experiment.scenario;

import java.util.List;

/**
 * A validated scenario: the cluster, the workload, the information model, policy
 * parameters and scripted events of an experiment. Built by {@link ScenarioLoader}; every
 * key is documented in {@code docs/scenarios.md}. Times are seconds, rates requests/s,
 * demands work units, service rates work units/s.
 *
 * @param name scenario name
 * @param description one line for {@code loadlab scenarios}
 * @param seeds default master seeds, one run per (policy, seed)
 * @param topologySeed seed of μ_j draws, allowed sets and event targets (fixed across run seeds)
 * @param policies policies compared by default
 * @param duration seconds of arrivals (0: until the trace or request limit ends)
 * @param requests arrival limit (0: none)
 * @param warmup seconds excluded from response statistics
 * @param warmupRequests arrivals excluded from the statistics (0: none): the measurement
 *     window starts at the arrival of request {@code warmupRequests + 1}, or at {@code warmup}
 *     seconds if that is later
 * @param drainTimeout seconds allowed for draining after arrivals end
 * @param seriesInterval time-series interval, seconds
 * @param nodes backend nodes
 * @param balancers balancers and how arrivals split over them
 * @param arrivals arrival process
 * @param demand service-demand distribution
 * @param information information model
 * @param network network latency
 * @param policy policy parameters
 * @param events scripted events
 * @param resolvedJson the whole merged scenario as JSON (for results.json and reruns)
 * @param model node/time model: {@code message} (discrete events), {@code reference} (the
 *     ASMF seed's time-stepped simulator, SPEC.md §4) or {@code balls-into-bins} (the message
 *     engine with nodes that never serve: {@code requests} balls land in {@code nodes.count}
 *     bins and the run reports the loads)
 * @param reference parameters of the reference model
 * @param loadSharing parameters of the peer-to-peer load-sharing protocols (block
 *     {@code load-sharing}), used by runs whose policy is a protocol (docs/load-sharing.md)
 * @param guardrails the balancers' guardrail filters (block {@code guardrails})
 * @param membership how long simulated membership news takes after a crash or partition
 *     (block {@code membership})
 * @param keys the requests' affinity keys (block {@code keys})
 * @param slowStart slow start of new and recovered nodes (block {@code slow-start})
 * @param outlierDetection passive outlier ejection (block {@code outlier-detection})
 * @param retry retries, per-try timeout, backoff and retry budget (block {@code retry})
 * @param autonomy seed 003's keys: SLA, node profiles, endpoints, shedding, fail-open, the LinTS
 *     control plane and the autoscaler
 */
public record Scenario(String name, String description, List<Long> seeds, long topologySeed, List<String> policies,
                       double duration, long requests, double warmup, long warmupRequests, double drainTimeout,
                       double seriesInterval,
                       Nodes nodes, Balancers balancers, Arrivals arrivals, Demand demand,
                       Information information, Network network, Policy policy, List<Event> events,
                       String resolvedJson, String model, Reference reference,
                       org.loadlab.node.sharing.SharingSettings loadSharing,
                       org.loadlab.balancer.guardrail.Guardrails guardrails, Membership membership, Keys keys,
                       org.loadlab.balancer.guardrail.SlowStart slowStart,
                       org.loadlab.balancer.guardrail.OutlierDetection outlierDetection,
                       org.loadlab.balancer.retry.RetrySettings retry, Autonomy autonomy) {

    /**
     * True if {@code policy} is a peer-to-peer load-sharing protocol ({@code none},
     * {@code sender-threshold}, ...): its runs have no balancer; arrivals go straight to the
     * nodes, which share load among themselves (SPEC.md §7).
     */
    public static boolean isLoadSharing(String policy) {
        return org.loadlab.node.sharing.SharingProtocol.isProtocol(policy);
    }

    /** True for the ASMF seed's time-stepped reference model. */
    public boolean isReferenceModel() {
        return "reference".equals(model);
    }

    /**
     * True for the balls-into-bins model: the message-level engine with nodes that never
     * serve, so each request (ball) stays where it lands; the run ends when the
     * {@code requests}-th ball has landed and reports the loads (largest: {@code maxQueue}).
     * Source: Azar, Broder, Karlin, Upfal 1994; Mitzenmacher 2001.
     */
    public boolean isBallsIntoBins() {
        return MODEL_BALLS_INTO_BINS.equals(model);
    }

    /** The {@code model} value of the balls-into-bins model. */
    public static final String MODEL_BALLS_INTO_BINS = "balls-into-bins";

    /**
     * Parameters of the reference model (SPEC.md §4).
     *
     * @param step time step dt, seconds
     * @param initialQueueMax initial queue of each node, work units, uniform in 1..max
     * @param simulatorGenerator lifetime of the seed's simulator generator: {@code fresh} (a
     *     new one seeded with the run seed for every run, as the seed's
     *     {@code run_final_comparison} and {@code tune_asmf} do) or {@code shared} (one per
     *     (scenario, seed), passed through the policies in {@link #POLICIES} order, as its
     *     {@code run_rigorous_testing} does)
     */
    public record Reference(double step, int initialQueueMax, String simulatorGenerator) {
        /**
         * The policies of the reference model: the ASMF seed's eight, in the order its
         * {@code run_rigorous_testing} runs them (the order a shared simulator generator
         * passes through).
         */
        public static final List<String> POLICIES = List.of("asmf", "asmf-no-feedback", "asmf-no-sampling",
                "asmf-no-multiresource", "gmsr-reference", "p2c", "least-queue", "random");

        /** Allowed values of {@code reference.simulator-generator}. */
        public static final List<String> GENERATOR_LIFETIMES = List.of("fresh", "shared");

        /** True when one simulator generator is shared across the policies of a (scenario, seed). */
        public boolean sharedGenerator() {
            return "shared".equals(simulatorGenerator);
        }
    }

    /**
     * @param count n
     * @param servers c per node
     * @param rateDistribution constant or uniform
     * @param rateValue μ for constant
     * @param rateMin lower μ bound for uniform
     * @param rateMax upper μ bound for uniform
     * @param queueCapacity max q_j, 0 = unbounded
     * @param resourcePeriod resource update period, seconds
     * @param heartbeatPeriod seconds between a node's heartbeats to the balancers, 0 = none
     * @param speedsPerSeed draw μ_j from each run's seed instead of the topology seed (for
     *     {@code uniform} rates: seed 001's "averaged over 5 seeded trials" with speeds redrawn)
     * @param errors which nodes fail requests, how often and how (block {@code nodes.errors})
     */
    public record Nodes(int count, int servers, String rateDistribution, double rateValue, double rateMin,
                        double rateMax, int queueCapacity, double resourcePeriod, double heartbeatPeriod,
                        boolean speedsPerSeed, NodeErrors errors) {
        /** Expected total service capacity Σ c·μ_j in work units/s. */
        public double expectedCapacity() {
            double mu = rateDistribution.equals("uniform") ? (rateMin + rateMax) / 2 : rateValue;
            return (double) count * servers * mu;
        }
    }

    /**
     * Nodes that fail requests (HTTP 500): each request at {@code nodes} fails with
     * probability {@code rate}, answered at once ({@code fast}) or after its service.
     *
     * @param rate probability in [0, 1] (0: no errors)
     * @param nodes the failing nodes (resolved from {@code nodes} or {@code fraction}; all when neither is set)
     * @param fast true: the error is answered without serving
     */
    public record NodeErrors(double rate, List<Integer> nodes, boolean fast) {
        /** No errors. */
        public static final NodeErrors NONE = new NodeErrors(0, List.of(), true);

        /** The error rate of node {@code j}. */
        public double rateOf(int j) {
            return rate > 0 && nodes.contains(j) ? rate : 0;
        }
    }

    /**
     * Affinity keys of the requests.
     *
     * @param distribution none, zipf or uniform
     * @param count distinct keys
     * @param zipfExponent s of the Zipf popularity 1/r^s
     */
    public record Keys(String distribution, int count, double zipfExponent) {
        /** No keys. */
        public static final Keys NONE = new Keys("none", 10000, 1.0);

        /** True if requests carry keys. */
        public boolean present() {
            return !distribution.equals("none");
        }
    }

    /**
     * @param count number of balancers
     * @param split uniform or zipf
     * @param zipfExponent α of the Zipf split
     * @param allowed all or fraction
     * @param allowedFraction fraction of n per allowed set
     * @param allowedMin minimum allowed-set size
     * @param maxDecisionsInFlight admission bound: decisions in flight per balancer beyond which an arrival is
     *     rejected at once (0 = no bound)
     * @param requestTimeout seconds a dispatched request may go without a final answer before its
     *     balancer ends it (Envoy's route timeout; 0 = none)
     */
    public record Balancers(int count, String split, double zipfExponent, String allowed,
                            double allowedFraction, int allowedMin, int maxDecisionsInFlight, double requestTimeout) {
        /** Size of each balancer's allowed set for {@code n} nodes. */
        public int allowedSize(int n) {
            if (allowed.equals("all")) {
                return n;
            }
            return Math.min(n, Math.max(allowedMin, (int) Math.floor(allowedFraction * n)));
        }
    }

    /**
     * @param process poisson, on-off, mmpp, diurnal or trace
     * @param utilisation target ρ (used when rate is 0)
     * @param rate λ in requests/s (0: derive from utilisation)
     * @param onOff square-wave parameters
     * @param mmpp Markov-modulated parameters
     * @param diurnal diurnal parameters
     * @param trace trace replay parameters
     */
    public record Arrivals(String process, double utilisation, double rate, OnOff onOff, Mmpp mmpp,
                           Diurnal diurnal, Trace trace) {
    }

    /** Square wave: × highFactor for duty·period seconds, then × lowFactor. */
    public record OnOff(double highFactor, double lowFactor, double period, double duty) {
    }

    /** Two-state MMPP with exponential sojourns of mean meanOn / meanOff seconds. */
    public record Mmpp(double highFactor, double lowFactor, double meanOn, double meanOff) {
    }

    /**
     * λ̄(1 + amplitude·sin(2πt/period)) with burstWindows windows of × burstFactor, each
     * burstWidth·period long.
     *
     * @param amplitude A in [0, 1]
     * @param period P in seconds (0: the duration); ignored when {@code periodIsHorizon}
     * @param periodIsHorizon the period is the request horizon H = requests / λ̄ of each run
     *     ({@code period = horizon}), so it follows the run's capacity (SPEC.md §5)
     * @param burstWindows number of burst windows
     * @param burstFactor rate multiplier inside a window
     * @param burstWidth window length as a fraction of the period
     * @param burstStarts start of each window as a fraction of the period (sorted, not
     *     overlapping); empty: {@code burstWindows} windows evenly spaced (centred at (i + ½)/k)
     */
    public record Diurnal(double amplitude, double period, boolean periodIsHorizon, int burstWindows, double burstFactor,
                          double burstWidth, List<Double> burstStarts) {
    }

    /**
     * @param file the resolved trace: a filesystem path or {@code classpath:} resource
     * @param loop replay again from the start when the trace ends
     */
    public record Trace(String file, boolean loop) {
    }

    /**
     * @param distribution exponential, deterministic, lognormal, pareto, mixture or trace
     * @param mean E[D] in work units
     * @param sigma log-normal σ
     * @param alpha Pareto α
     * @param components mixture components
     * @param prefillSecondsPerToken trace mapping: cost per context token
     * @param decodeSecondsPerToken trace mapping: cost per generated token
     * @param mixtureScaling mixture only: {@code components} (each component scaled to its own
     *     mean, by default {@code mean}) or {@code mixture} (standard components mixed, then the
     *     mixture scaled to {@code mean}: SPEC.md §5)
     */
    public record Demand(String distribution, double mean, double sigma, double alpha, List<Component> components,
                         double prefillSecondsPerToken, double decodeSecondsPerToken, String mixtureScaling) {
        /** The {@code mixture-scaling} values. */
        public static final List<String> MIXTURE_SCALINGS = List.of("components", "mixture");

        /** True when the mixture, not each component, is scaled to the mean. */
        public boolean scalesMixture() {
            return "mixture".equals(mixtureScaling);
        }
    }

    /** One mixture component with its weight. */
    public record Component(double weight, Demand demand) {
    }

    /**
     * @param model probe, cached or oracle
     * @param probeTimeout seconds
     * @param reportPeriod seconds between load reports (cached)
     * @param reportDelay extra staleness of a report, seconds
     */
    public record Information(String model, double probeTimeout, double reportPeriod, double reportDelay) {
    }

    /** One-way latency and exponential jitter mean, seconds. */
    public record Network(double latency, double jitter) {
    }

    /**
     * Policy parameters: k of power-of-k and how it draws them, the ASMF block and the
     * Sticky-Lazy block.
     *
     * @param k k of power-of-k
     * @param kWithReplacement power-of-k draws k nodes independently with replacement
     *     ({@code policy.k-sampling = with-replacement}) instead of k distinct ones
     * @param asmf ASMF parameters (seed 000)
     * @param stickyLazy Sticky-Lazy parameters (seed 001)
     * @param rejection what a balancer does with a request its policy refuses
     * @param production the production policies' parameters and error-aware scoring
     */
    public record Policy(int k, boolean kWithReplacement, Asmf asmf, StickyLazy stickyLazy, Rejection rejection,
                         org.loadlab.balancer.policy.ProductionParameters production) {
        /** The {@code policy.k-sampling} values. */
        public static final List<String> K_SAMPLINGS = List.of("distinct", "with-replacement");
    }

    /**
     * Handling of refused requests: reject at once, or delay mode (hold back in a buffer of
     * {@code buffer} requests, retry after backoff·multiplier^attempt seconds, reject after
     * {@code attempts} tries). Seed 000 names delay as the alternative to rejection.
     *
     * @param mode reject or delay
     * @param buffer held requests per balancer
     * @param backoff first wait, seconds
     * @param multiplier wait growth per attempt
     * @param attempts retries per request
     */
    public record Rejection(String mode, int buffer, double backoff, double multiplier, int attempts) {
        /** Reject at once. */
        public static final Rejection REJECT = new Rejection("reject", 64, 0.05, 2.0, 4);
    }

    /**
     * Sticky-Lazy parameters (seed 001, SPEC.md §5).
     *
     * @param threshold T ≥ 1: a probed node with load q &lt; T is cached with blind credit T − q
     * @param credit the credit rule: {@code T-q} (the seed's pseudo-code) or {@code T-q-1}
     */
    public record StickyLazy(int threshold, String credit) {
    }

    /** ASMF parameters (seed 000). */
    public record Asmf(int k, double alpha, double beta, double gamma, double delta, double tau, double eta,
                       double cMin, double cMax, double window) {
    }

    /**
     * When a simulated crash or partition reaches the balancers as membership news, as a
     * cluster's failure detector and split-brain resolver would deliver it.
     *
     * @param unreachableAfter seconds from a crash or partition to {@code NodeUnreachable}
     * @param removedAfter seconds from a crash (or the start of a partition that lasts) to
     *     {@code NodeRemoved}: the member is downed and its requests in flight are lost
     */
    public record Membership(double unreachableAfter, double removedAfter) {
    }

    /**
     * A scripted event.
     *
     * @param at time, seconds
     * @param type fail, recover, degrade, spike, crash, partition, heartbeat-loss, rejoin, chaos, join
     *     (the nodes are absent until {@code at}, then join) or leave (the nodes leave gracefully at {@code at})
     * @param until end of a spike, partition or heartbeat loss, seconds
     * @param factor degradation factor of μ, or spike multiplier of λ
     * @param nodes target node indices (resolved from {@code nodes} or {@code fraction})
     * @param fraction the {@code fraction} the targets were given by, in (0, 1]; 0 when the
     *     nodes were listed (the reference model draws a fraction's targets from the run's
     *     generator, as the ASMF seed does)
     * @param fault chaos: the fault to inject ({@code cpu-spike}, {@code latency}, {@code error-rate},
     *     {@code crash}) or {@code clear}; empty for other events
     * @param value chaos: the fault's parameter
     */
    public record Event(double at, String type, double until, double factor, List<Integer> nodes, double fraction,
                        String fault, double value) {
        /** An event without a chaos fault, its nodes listed. */
        public Event(double at, String type, double until, double factor, List<Integer> nodes) {
            this(at, type, until, factor, nodes, 0, "", 0);
        }
    }
}

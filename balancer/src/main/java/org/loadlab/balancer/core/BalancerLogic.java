package org.loadlab.balancer.core;

import com.carrotsearch.hppc.LongArrayList;
import com.carrotsearch.hppc.LongIntHashMap;
import com.carrotsearch.hppc.LongObjectHashMap;
import com.carrotsearch.hppc.cursors.LongObjectCursor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.NodeWeights;
import org.loadlab.balancer.decision.Step;
import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.balancer.guardrail.NodeHealth;
import org.loadlab.balancer.guardrail.OutlierDetection;
import org.loadlab.balancer.guardrail.OutlierDetector;
import org.loadlab.balancer.guardrail.SlowStart;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.retry.Backoff;
import org.loadlab.balancer.retry.RetryBudget;
import org.loadlab.balancer.retry.RetrySettings;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.ServiceId;
import org.loadlab.balancer.control.FeedbackBuffer;
import org.loadlab.balancer.guardrail.FailOpen;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * A balancer (frontend): receives requests from the workload driver, runs its routing
 * policy on one decision engine, reads node loads through the information model, screens
 * them with the guardrail filters, routes the request and collects its response. The same
 * object runs in the simulation, in live mode and on the cluster; shells only deliver
 * messages.
 *
 * <p><b>Decisions.</b> A policy is a sequence of {@link Step}s: route, reject, or read some
 * nodes and continue. A read goes through the {@link InformationModel}: probe (a
 * {@code Probe} per node; the step continues when every reply is in or {@code ProbeTimeout}
 * fires, unanswered nodes excluded), cached (the last {@code LoadReport}, at once) or oracle
 * (exact state, at once). Queries per decision = the reads it made (the oracle charges
 * |allowed| for a single-round policy's read, SPEC.md §2), plus the asynchronous probes a
 * policy sent (Prequal). Several decisions may wait for replies at once; each is keyed by
 * its request id.
 *
 * <p><b>Membership.</b> {@code NodeUnreachable}, {@code NodeReachable}, {@code NodeRemoved},
 * {@code NodeLeaving} and {@code NodeJoined} take nodes out of the sampling pool and put them
 * back. A decision waiting for a probe of a node that became unreachable counts it as
 * answered "gone" at once. When a node is removed, the requests this balancer has in flight
 * there are lost (counted with {@code lost}; with retries on {@code reset} they are retried
 * instead); its late responses are ignored. A leaving node takes no new requests and its
 * requests in flight complete. Nodes may start absent ({@link #absent}) and join later.
 *
 * <p><b>Guardrails</b> ({@link Guardrails}, when enabled): nodes above the CPU threshold,
 * offline or stale are masked (out of the pool, and out of the candidates of a decision
 * that reads them), at most the ejection cap at once; a decision whose surviving candidates
 * fall below the panic threshold fails open and chooses among all of them; a decision whose
 * candidates are all gone is decided again with a new sample. Counters
 * {@code guardrail_masked} (decisions with a masked candidate), {@code guardrail_ejections},
 * {@code guardrail_fail_open}, {@code redecisions}, {@code membership_unreachable},
 * {@code membership_removed}, {@code membership_leaving}.
 *
 * <p><b>Outlier ejection</b> ({@link OutlierDetection}): consecutive failures and the
 * success-rate test eject a node into the same ledger, under the same cap, for base × the
 * node's ejections; counters {@code outlier_ejections}, {@code outlier_ejections_capped}.
 *
 * <p><b>Slow start</b> ({@link SlowStart}): a node that joins or becomes reachable again
 * carries a weight below 1 for the window; draws of k nodes and weighted pickers honour it,
 * and whole-pool views of ranking policies see the node with that probability. Counter
 * {@code slow_start_nodes}.
 *
 * <p><b>Retries</b> ({@link RetrySettings}): an attempt that fails with a retriable status
 * (or exceeds the per-try timeout) is retried after a fully jittered backoff on a node the
 * request has not tried, chosen by the retry policy, while attempts remain and the retry
 * budget allows (retries waiting in backoff count against it); otherwise the request fails
 * at once with its status. Counters {@code retries}, {@code retry_overflow},
 * {@code retries_exhausted}, {@code retry_success}, {@code per_try_timeouts},
 * {@code failed_<HTTP status>}; error answers count {@code responses_error} in every mode.
 * A timed-out attempt's copy stays at its node ({@link #orphans}); its late answer is ignored.
 *
 * <p><b>Request timeout</b> ({@link #requestTimeout}, Envoy's route timeout, gRPC's deadline): a
 * request dispatched that many seconds ago without a final answer is ended by the balancer,
 * across its retries and backoffs: its in-flight count is released, it is counted
 * {@value #TIMED_OUT}, the decision log hears {@link ResponseStatus#REQUEST_TIMEOUT} (a
 * gateway answers 504) and the policies hear a failure of its node. A copy still at a node
 * (or lost there) stays unresolved in the run's books until its fate is known: its late
 * answer, ignored as an answer and counted {@value #LATE_RESPONSES}, makes it rejected; a node
 * that failed has counted it lost already; a node removed from the cluster makes it lost.
 * Every request is so counted once in arrived = completed + rejected + lost + unresolved.
 *
 * <p><b>Admission.</b> With a bound on decisions in flight ({@link #limitDecisionsInFlight}),
 * an arrival that finds the bound reached is rejected at once and counted
 * ({@value #ADMISSION_SHED}).
 *
 * <p><b>Refusals.</b> A request the policy refuses (ASMF below τ, no usable reply) is
 * rejected, or in delay mode ({@link RejectionSettings}) held back in a bounded buffer and
 * decided again after a growing backoff; counters {@code delayed_retries} and
 * {@code delay_rejections}. A retry the policy refuses fails with 503.
 *
 * <p>Source: DESIGN.md ("balancers sample k peers by message", "Policies as pipelines,
 * guardrails in the core"), SPEC.md §2–§3, §6 (guardrails), seed 001 (multi-round decisions);
 * Envoy (slow start, outlier detection, retry policy and budgets).
 *
 * <p><b>Message type.</b> The core is a {@code Logic<Message>} although it handles only
 * {@link BalancerMessage}s (others are ignored): a {@code Logic<BalancerMessage>} gets a
 * compiler-made bridge that casts every message to the interface {@code BalancerMessage}
 * right after the engine cast it to {@code Message}, and on JDK 17 two interface casts of the
 * same class in turn keep evicting each other from the class's one-entry cache of
 * interfaces (JDK-8180450): a scan of the class's interface list per message, about 8% of
 * the bench workload's time at 100 nodes (docs/performance.md).
 */
public final class BalancerLogic implements Logic<Message> {
    /** Counter: decisions in which a guardrail masked at least one candidate. */
    public static final String GUARDRAIL_MASKED = "guardrail_masked";
    /** Counter: nodes masked by a guardrail (ejections), over the run. */
    public static final String GUARDRAIL_EJECTIONS = "guardrail_ejections";
    /** Counter: decisions that failed open (too few candidates survived the guardrails). */
    public static final String GUARDRAIL_FAIL_OPEN = "guardrail_fail_open";
    /** Counter: decisions made again with a new sample because every candidate was gone. */
    public static final String REDECISIONS = "redecisions";
    /** Counter: nodes that became unreachable. */
    public static final String MEMBERSHIP_UNREACHABLE = "membership_unreachable";
    /** Counter: nodes removed from the cluster. */
    public static final String MEMBERSHIP_REMOVED = "membership_removed";
    /** Counter: nodes that left the cluster gracefully. */
    public static final String MEMBERSHIP_LEAVING = "membership_leaving";
    /** Counter: requests lost because their node was removed while they were in flight. */
    public static final String LOST_ON_REMOVAL = "lost_on_removal";
    /** Counter: live policy switches. */
    public static final String POLICY_SWITCHES = "policy_switches";
    /** Counter: requests the request timeout ended (dispatched, no final answer within {@code balancers.request-timeout}). */
    public static final String TIMED_OUT = "timed_out";
    /** Counter: answers that came after their request had timed out (ignored; the request counts as rejected). */
    public static final String LATE_RESPONSES = "late_responses";
    /** Counter: arrivals refused at once because the decisions in flight were at the admission bound. */
    public static final String ADMISSION_SHED = "admission_shed";
    /** Counter: outlier ejections (nodes put into the ejection ledger by outlier detection). */
    public static final String OUTLIER_EJECTIONS = "outlier_ejections";
    /** Counter: outlier ejections the cap refused. */
    public static final String OUTLIER_CAPPED = "outlier_ejections_capped";
    /** Counter: nodes that entered slow start. */
    public static final String SLOW_START_NODES = "slow_start_nodes";
    /** Counter: retries issued (granted by attempts and budget). */
    public static final String RETRIES = "retries";
    /** Counter: retries refused by the retry budget (the request failed at once). */
    public static final String RETRY_OVERFLOW = "retry_overflow";
    /** Counter: requests that failed after using all their retries. */
    public static final String RETRIES_EXHAUSTED = "retries_exhausted";
    /** Counter: requests served after at least one retry. */
    public static final String RETRY_SUCCESS = "retry_success";
    /** Counter: attempts that exceeded the per-try timeout. */
    public static final String PER_TRY_TIMEOUTS = "per_try_timeouts";
    /** Counter: error answers (HTTP 500) from nodes. */
    public static final String RESPONSES_ERROR = "responses_error";
    /** Counter prefix: requests that finally failed, by HTTP status (e.g. {@code failed_503}). */
    public static final String FAILED_PREFIX = "failed_";
    /** Counter: requests refused by QoS shedding (HTTP 429, seed 003). */
    public static final String SHED = "shed";
    /**
     * Counter-name prefix of the routing modes: every routed decision counts
     * {@code routing_mode:<mode>} once, where the mode is the policy's own rule (its name with
     * '-' as '_', e.g. {@code lin_ts}, {@code p2c}), a mode the policy named (e.g.
     * {@code fallback_circuit_breaker_least_conn}), {@value #MODE_ALL_MASKED},
     * {@value #MODE_PANIC} or {@value #MODE_FAILOVER}.
     */
    public static final String MODE_PREFIX = "routing_mode:";
    /** Routing mode: every candidate was masked; least connections over the reachable nodes (seed 003). */
    public static final String MODE_ALL_MASKED = "fallback_all_masked_least_conn";
    /** Routing mode: too few candidates survived; the policy chose among all of them (Envoy's panic mode). */
    public static final String MODE_PANIC = "fallback_panic_all_candidates";
    /** Routing mode: a retry (seed 003's failover) on a node the request had not tried. */
    public static final String MODE_FAILOVER = "failover";

    private static final int MAX_RESTARTS = 3;
    private static final BalancerMessage.GuardrailTick SWEEP = new BalancerMessage.GuardrailTick();
    private static final BalancerMessage.OutlierTick OUTLIER_TICK = new BalancerMessage.OutlierTick();

    private final BalancerId id;
    private final int nodeCount;
    private final SamplingPool pool;
    private RoutingPolicy policy;
    private RoutingPolicy retryPolicy;
    private final InformationModel information;
    private final RejectionSettings rejection;
    private final Guardrails guardrails;
    private final boolean guarded;
    private final boolean screening;
    private final NodeHealth health;
    private final SlowStartState slow;
    private final OutlierDetector outliers;
    private final RetrySettings retry;
    private final RetryBudget budget;
    // Follows every routed request one by one (records): retries, per-try or request timeouts.
    private boolean tracking;
    private final int[] inFlight;
    private final int[] orphans;
    private final long[] routed;
    private final Candidates poolCandidates;
    private final Candidates readCandidates;
    private final Candidates drawCandidates;
    private final java.util.function.DoubleSupplier clock = this::now;
    private final LongObjectHashMap<Decision> pending = new LongObjectHashMap<>();
    // Finished decisions kept for reuse (more than a few are spare only after a burst of replies).
    private final Decision[] spare = new Decision[64];
    private int spareCount;
    // Delay mode: requests held back instead of rejected, and how many tries each has had.
    private final LongObjectHashMap<BalancerMessage.Arrival> delayed = new LongObjectHashMap<>();
    private final LongIntHashMap attempts = new LongIntHashMap();
    // Retries: every routed request until its outcome is final.
    private final LongObjectHashMap<Attempt> records = new LongObjectHashMap<>();
    private int retriesActive;
    private long asyncProbes;
    private boolean poolPanic;
    private int goneNodes;
    private int keepDecisions;
    private int maxDecisionsInFlight;
    private double requestTimeout;
    // Requests ended by the request timeout whose copy was at a node: their late answer is awaited (null: no timeout).
    private LongObjectHashMap<Attempt> expired;
    private final ArrayDeque<DecisionRecord> kept = new ArrayDeque<>();
    private Env env;
    // Seed 003: fail-open to least connections, QoS shedding, the control services' feedback loop.
    private FailOpen failOpen = FailOpen.PANIC;
    private QosShedding shedding = QosShedding.OFF;
    private ServiceId[] services = new ServiceId[0];
    private double feedbackPeriod;
    private FeedbackBuffer feedback;
    private LoadSnapshot[] newest;
    private BalancerMessage.Weights lastWeights;
    private double weightsAgeSum;
    private double weightsAgeMax;
    private long weightsReceived;
    private RoutingPolicy modePolicy;
    private String modeCounter;
    private RoutingPolicy modePolicy2;
    private String modeCounter2;
    private DecisionLog decisionLog;
    private static final java.util.Map<String, String> MODE_COUNTERS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final BalancerMessage.FeedbackTick FEEDBACK_TICK = new BalancerMessage.FeedbackTick();

    /**
     * A balancer that rejects refused requests at once, without guardrails.
     *
     * @param id this balancer's address
     * @param allowed indices of the nodes this balancer may route to (non-empty, distinct)
     * @param nodeCount n, total number of nodes (indices are in [0, n))
     * @param policy the policy instance owned by this balancer
     * @param information the information model instance owned by this balancer
     * @throws IllegalArgumentException if {@code allowed} is empty or has an index outside [0, n)
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy, InformationModel information) {
        this(id, allowed, nodeCount, policy, information, BalancerSettings.DEFAULT);
    }

    /**
     * A balancer without guardrails that handles refused requests as {@code rejection} says.
     *
     * @throws IllegalArgumentException as the six-argument constructor
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy, InformationModel information,
                         RejectionSettings rejection) {
        this(id, allowed, nodeCount, policy, information, BalancerSettings.of(rejection, Guardrails.OFF));
    }

    /**
     * A balancer with guardrails and no slow start, outlier ejection or retries.
     *
     * @throws IllegalArgumentException as the six-argument constructor
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy, InformationModel information,
                         RejectionSettings rejection, Guardrails guardrails) {
        this(id, allowed, nodeCount, policy, information, BalancerSettings.of(rejection, guardrails));
    }

    /**
     * @param id this balancer's address
     * @param allowed indices of the nodes this balancer may route to (non-empty, distinct)
     * @param nodeCount n, total number of nodes
     * @param policy the policy instance owned by this balancer (also chooses retries' nodes
     *     unless {@link #retryPolicy} names another)
     * @param information the information model instance owned by this balancer
     * @param settings refusals, guardrails, slow start, outlier ejection and retries
     * @throws IllegalArgumentException if {@code allowed} is empty, has an index outside
     *     [0, n) or twice
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy, InformationModel information,
                         BalancerSettings settings) {
        if (allowed.length == 0) {
            throw new IllegalArgumentException(id + " has an empty allowed set");
        }
        boolean[] seen = new boolean[nodeCount];
        for (int node : allowed) {
            if (node < 0 || node >= nodeCount) {
                throw new IllegalArgumentException(id + ": allowed node " + node + " is not in [0, " + nodeCount + ")");
            }
            if (seen[node]) {
                throw new IllegalArgumentException(id + ": allowed node " + node + " is listed twice");
            }
            seen[node] = true;
        }
        this.id = id;
        this.nodeCount = nodeCount;
        this.pool = new SamplingPool(allowed, nodeCount);
        this.policy = policy;
        this.retryPolicy = policy;
        this.information = information;
        this.rejection = settings.rejection();
        this.guardrails = settings.guardrails();
        this.guarded = guardrails.enabled();
        OutlierDetection od = settings.outlierDetection();
        this.outliers = od.enabled() ? new OutlierDetector(od, nodeCount) : null;
        this.screening = guarded || outliers != null;
        this.health = new NodeHealth(guardrails, nodeCount, allowed.length, outliers != null);
        this.slow = new SlowStartState(settings.slowStart(), nodeCount);
        this.retry = settings.retry();
        this.budget = new RetryBudget(retry.budget(), retry.budgetPercent(), retry.minRetryConcurrency());
        this.tracking = retry.tracksRequests();
        this.inFlight = new int[nodeCount];
        this.orphans = new int[nodeCount];
        this.routed = new long[nodeCount];
        this.poolCandidates = new Candidates(inFlight, slow, clock);
        this.readCandidates = new Candidates(inFlight, slow, clock);
        this.drawCandidates = new Candidates(inFlight, slow, clock);
    }

    private double now() {
        return env == null ? 0 : env.now();
    }

    /**
     * Chooses retries' nodes with {@code p} instead of the balancer's policy (e.g. seed 003's
     * failover to the unmasked node with the smallest queue).
     *
     * @param p a fresh policy instance for this balancer
     * @return this
     */
    public BalancerLogic retryPolicy(RoutingPolicy p) {
        this.retryPolicy = p;
        return this;
    }

    /**
     * Nodes that are not members yet when the run starts (they {@code NodeJoined} later, e.g.
     * a scale-up): out of the pool, not counted as removed. Call before the run starts.
     *
     * @param nodes allowed node indices
     * @return this
     */
    public BalancerLogic absent(int... nodes) {
        for (int node : nodes) {
            if (pool.allowed(node) && !health.gone(node)) {
                health.membership(node, NodeHealth.Membership.REMOVED);
                goneNodes++;
                pool.set(node, false);
            }
        }
        return this;
    }

    /**
     * Keeps the last {@code n} decisions for explanations ({@link #decisions()}); 0 (the
     * default) keeps none.
     *
     * @param n decisions to keep, ≥ 0
     * @return this
     */
    public BalancerLogic keepDecisions(int n) {
        this.keepDecisions = Math.max(0, n);
        return this;
    }

    /**
     * What a decision does when the guardrails leave too few candidates: Envoy's panic mode
     * (the default) or seed 003's least connections over all reachable candidates. Call before
     * the run starts.
     *
     * @param mode the fail-open behaviour
     * @return this
     */
    public BalancerLogic failOpen(FailOpen mode) {
        this.failOpen = mode;
        return this;
    }

    /**
     * Turns on seed 003's QoS shedding. Call before the run starts.
     *
     * @param settings when and what to shed
     * @return this
     */
    public BalancerLogic shedding(QosShedding settings) {
        this.shedding = settings;
        if (settings.enabled() && newest == null) {
            newest = new LoadSnapshot[nodeCount];
        }
        return this;
    }

    /**
     * Reports to control services (seed 003's control plane, the autoscaler) every
     * {@code period} seconds: the attempts that ended (node, latency, failed or not), the
     * arrivals, and the newest load and membership of each node. The balancer then stamps its
     * requests to measure their latency. Call before the run starts.
     *
     * @param period seconds between reports, &gt; 0
     * @param to the services
     * @return this
     * @throws IllegalArgumentException if the period is not positive
     */
    public BalancerLogic reportTo(double period, ServiceId... to) {
        if (!(period > 0)) {
            throw new IllegalArgumentException("feedback period must be > 0 s, was " + period);
        }
        this.services = to.clone();
        this.feedbackPeriod = period;
        this.feedback = to.length > 0 ? new FeedbackBuffer() : null;
        if (newest == null) {
            newest = new LoadSnapshot[nodeCount];
        }
        return this;
    }

    /**
     * Logs every routed first attempt with its candidates' loads, the chosen node, the
     * policy's propensity and later the outcome, for off-policy evaluation.
     *
     * @param log where the records go
     * @return this
     */
    public BalancerLogic decisionLog(DecisionLog log) {
        this.decisionLog = log;
        return this;
    }

    /**
     * Admission control: an arrival that finds {@code max} decisions already in flight
     * (waiting for probe replies) is rejected at once, without probing, and counted as
     * {@value #ADMISSION_SHED}. Past the knee of a real cluster, probe replies come later and
     * decisions pile up; refusing the excess at once keeps the work in flight, and so the
     * replies' delay, bounded instead of letting every decision wait out its probe timeout
     * (a concurrency limit, as Envoy's and gRPC's adaptive limiters bound requests in
     * flight). Scenario key {@code balancers.max-decisions-in-flight}; 0 (the default) admits
     * every arrival.
     *
     * @param max decisions in flight allowed at once, ≥ 0 (0 = no bound)
     * @return this
     * @throws IllegalArgumentException if {@code max} is negative
     */
    public BalancerLogic limitDecisionsInFlight(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("balancers.max-decisions-in-flight must be >= 0 (0 = no bound), was " + max);
        }
        this.maxDecisionsInFlight = max;
        return this;
    }

    /**
     * The request timeout (Envoy's route timeout, gRPC's deadline): a request dispatched to a
     * node {@code seconds} ago that has had no final answer is ended by the balancer (see the
     * class comment). The clock starts when the request is first routed and runs across its
     * retries and their backoffs. Without it, a request lost at a node that failed silently
     * stays in this balancer's in-flight count for ever, and the policies that rank by
     * requests in flight starve the node once it recovers. Scenario key
     * {@code balancers.request-timeout}; 0 (the default) sets none. Call before the run starts.
     *
     * @param seconds the timeout, &gt; 0, or 0 for none
     * @return this
     * @throws IllegalArgumentException if {@code seconds} is negative, NaN or infinite
     */
    public BalancerLogic requestTimeout(double seconds) {
        if (!(seconds >= 0 && Double.isFinite(seconds))) {
            throw new IllegalArgumentException("balancers.request-timeout must be >= 0 seconds (0 = none), was " + seconds);
        }
        this.requestTimeout = seconds;
        if (seconds > 0) {
            tracking = true;
            expired = new LongObjectHashMap<>();
        }
        return this;
    }

    /** The request timeout, seconds (0 = none). */
    public double requestTimeout() {
        return requestTimeout;
    }

    /** The admission bound on decisions in flight (0 = none). */
    public int maxDecisionsInFlight() {
        return maxDecisionsInFlight;
    }

    @Override
    public void onStart(Env env) {
        this.env = env;
        if (feedback != null) {
            env.startTimer(FEEDBACK_TICK, feedbackPeriod, FEEDBACK_TICK);
        }
        double period = sweepPeriod();
        if (period > 0) {
            env.startTimer(SWEEP, period, SWEEP);
        }
        if (outliers != null) {
            env.startTimer(OUTLIER_TICK, outliers.settings().interval(), OUTLIER_TICK);
        }
    }

    /** Seconds between the guardrails' looks at silent and stale nodes; 0 when no time-based guardrail is on. */
    private double sweepPeriod() {
        if (!guarded) {
            return 0;
        }
        double a = guardrails.offlineAfter();
        double b = guardrails.staleAfter();
        double shortest = a > 0 && b > 0 ? Math.min(a, b) : Math.max(a, b);
        return shortest / 2;
    }

    /** Looks at every allowed node: a node gone silent or stale is masked even if no decision reads it. */
    private void sweep() {
        env.startTimer(SWEEP, sweepPeriod(), SWEEP);
        double now = env.now();
        for (int node : pool.allowedNodes()) {
            applyEjection(node, health.update(node, null, now), true);
        }
    }

    @Override
    public void on(Message message, Env env) {
        this.env = env;
        if (message instanceof BalancerMessage.Arrival a) {
            env.metrics().arrived(env.now(), id.index());
            if (feedback != null) {
                feedback.arrived();
            }
            if (shedding.enabled() && a.endpoint() >= 0 && shedding.sheds(a.priority(), meanCpu())) {
                env.metrics().count(env.now(), SHED, 1);
                env.metrics().rejected(env.now(), a.arrivalTime());
                if (decisionLog != null) {
                    decisionLog.shed(a, SHED, env.now());
                }
                return;
            }
            if (maxDecisionsInFlight > 0 && pending.size() >= maxDecisionsInFlight) {
                env.metrics().count(env.now(), ADMISSION_SHED, 1);
                env.metrics().rejected(env.now(), a.arrivalTime());
                if (decisionLog != null) {
                    decisionLog.shed(a, ADMISSION_SHED, env.now()); // the gateway's client gets its 429 now, not never
                }
                return;
            }
            startDecision(a);
        } else if (message instanceof BalancerMessage.Weights w) {
            onWeights(w);
        } else if (message instanceof BalancerMessage.FeedbackTick) {
            env.startTimer(FEEDBACK_TICK, feedbackPeriod, FEEDBACK_TICK);
            sendFeedback();
        } else if (message instanceof BalancerMessage.ProbeReply r) {
            onProbeReply(r);
        } else if (message instanceof BalancerMessage.Response r) {
            onResponse(r);
        } else if (message instanceof BalancerMessage.ProbeTimeout t) {
            onProbeTimeout(t.requestId());
        } else if (message instanceof BalancerMessage.LoadReport r) {
            onReport(r.load());
        } else if (message instanceof BalancerMessage.Heartbeat h) {
            onHeartbeat(h.node());
        } else if (message instanceof BalancerMessage.GuardrailTick) {
            sweep();
        } else if (message instanceof BalancerMessage.OutlierTick) {
            onOutlierInterval();
        } else if (message instanceof BalancerMessage.AttemptTimeout t) {
            onAttemptTimeout(t);
        } else if (message instanceof BalancerMessage.RequestTimeout t) {
            onRequestTimeout(t);
        } else if (message instanceof BalancerMessage.RetryDue due) {
            BalancerMessage.Arrival a = delayed.remove(due.requestId());
            if (a != null) {
                startDecision(a);
            } else {
                Attempt t = records.get(due.requestId());
                if (t != null && t.state == Attempt.BACKOFF) {
                    startRetry(t);
                }
            }
        } else if (message instanceof BalancerMessage.NodeUnreachable u) {
            onMembership(u.node(), NodeHealth.Membership.UNREACHABLE, false);
        } else if (message instanceof BalancerMessage.NodeReachable r) {
            onMembership(r.node(), NodeHealth.Membership.REACHABLE, false);
        } else if (message instanceof BalancerMessage.NodeRemoved r) {
            onMembership(r.node(), NodeHealth.Membership.REMOVED, false);
        } else if (message instanceof BalancerMessage.NodeLeaving l) {
            onMembership(l.node(), NodeHealth.Membership.LEAVING, false);
        } else if (message instanceof BalancerMessage.NodeJoined j) {
            onMembership(j.node(), NodeHealth.Membership.REACHABLE, true);
        }
    }

    // ---------------------------------------------------------------- the decision engine

    private void startDecision(BalancerMessage.Arrival a) {
        Decision d = decision(a, policy, 0, null);
        if (allMaskedFallback(d)) {
            return;
        }
        advance(d, policy.start(d));
    }

    /**
     * A decision for {@code a} starting now: a recycled one if any is spare. Saves the
     * allocation of the largest object of a decision (and of its loads array) per request.
     */
    private Decision decision(BalancerMessage.Arrival a, RoutingPolicy p, int attempt, Attempt tried) {
        Decision d = spareCount > 0 ? spare[--spareCount] : new Decision();
        return d.start(a, env.now(), p, attempt, tried);
    }

    /**
     * Decision {@code d} is final (routed or refused) and referenced nowhere: keep it for the
     * next one ({@link Decision#start} sets every field again).
     */
    private void release(Decision d) {
        if (spareCount < spare.length) {
            spare[spareCount++] = d;
        }
    }

    /**
     * Seed 003's fail-open: with least-connections fail-open, a decision that finds the pool
     * empty while reachable nodes are only masked goes to the reachable node (not tried before)
     * with the fewest requests in flight.
     *
     * @return true if the decision was routed so
     */
    private boolean allMaskedFallback(Decision d) {
        if (failOpen != FailOpen.LEAST_CONNECTIONS || pool.size() > 0) {
            return false;
        }
        int best = -1;
        int ties = 0;
        for (int node : pool.allowedNodes()) {
            if (health.gone(node) || d.excluded(node)) {
                continue;
            }
            if (best < 0 || inFlight[node] < inFlight[best]) {
                best = node;
                ties = 1;
            } else if (inFlight[node] == inFlight[best] && env.random().nextInt(++ties) == 0) {
                best = node;
            }
        }
        if (best < 0) {
            return false;
        }
        d.mode = MODE_ALL_MASKED;
        d.failOpen = true;
        env.metrics().count(env.now(), GUARDRAIL_FAIL_OPEN, 1);
        advance(d, Step.route(best));
        return true;
    }

    /** The next step of {@code d} once its read is in: the policy's, or least connections after a fail-open. */
    private Step next(Decision d) {
        Candidates c = screen(d);
        if (d.failOpen && failOpen == FailOpen.LEAST_CONNECTIONS) {
            d.mode = MODE_ALL_MASKED;
            int position = FEWEST.pick(c, IN_FLIGHT, env.random());
            return position < 0 ? Step.reject() : Step.route(c.node(position));
        }
        return d.then.next(c, d);
    }

    private static final org.loadlab.balancer.pipeline.Picker FEWEST = org.loadlab.balancer.pipeline.Pickers.best();
    private static final org.loadlab.balancer.pipeline.Scorer IN_FLIGHT = org.loadlab.balancer.pipeline.Scorers.inFlight();

    /** Runs a decision forward from {@code step} until it is final or waits for probe replies. */
    private void advance(Decision d, Step step) {
        while (true) {
            if (step instanceof Step.Route route) {
                int node = route.node();
                if (!pool.allowed(node)) {
                    throw new IllegalStateException(id + ": policy " + d.policy.name() + " routed to node " + node
                            + ", which is not in the allowed set");
                }
                if (health.gone(node)) {
                    // The policy chose a node that has left since it last heard of it: it forgets the node, and
                    // the request is decided again (a few times at most, then rejected).
                    d.policy.onNodeGone(node);
                    step = d.restarts++ < MAX_RESTARTS ? d.policy.start(d) : Step.reject();
                    continue;
                }
                if (d.excluded(node)) {
                    // A retry goes to a node it has not tried: decide again, then take any other pool node,
                    // and only when none is left the tried one (Envoy's previous-hosts predicate).
                    if (d.restarts++ < MAX_RESTARTS) {
                        step = d.policy.start(d);
                        continue;
                    }
                    int other = untriedPoolNode(d);
                    if (other >= 0) {
                        node = other;
                    }
                }
                env.metrics().decision(env.now(), id.index(), d.queries);
                keep(d, node, "routed");
                env.metrics().count(env.now(), modeOf(d), 1);
                if (decisionLog != null) {
                    if (d.attempt == 0) {
                        decisionLog.routed(d.arrival, d.startedAt, env.now(), node, d.propensity, modeOf(d), pool.ordered(),
                                pool.size(), inFlight, newest);
                    } else {
                        decisionLog.retried(d.arrival.id(), node, env.now());
                    }
                }
                route(d, node);
                release(d);
                return;
            }
            if (step instanceof Step.Reject) {
                if (shouldRedecide(d)) {
                    d.redecisions++;
                    env.metrics().count(env.now(), REDECISIONS, 1);
                    step = d.policy.start(d);
                    continue;
                }
                env.metrics().decision(env.now(), id.index(), d.queries);
                keep(d, -1, "rejected");
                if (d.attempt > 0) {
                    retryRefused(d.arrival.id());
                } else {
                    refuse(d.arrival);
                }
                release(d);
                return;
            }
            Step.Read read = (Step.Read) step;
            for (int node : read.nodes()) {
                if (!pool.allowed(node)) {
                    throw new IllegalStateException(id + ": policy " + d.policy.name() + " read node " + node
                            + ", which is not in the allowed set");
                }
            }
            d.begin(read);
            d.queries += information.charge(read.nodes().length, read.wholeView(), pool.allowedNodes().length);
            if (!information.read(d.arrival.id(), d.nodes, d.loads, d.timeout, d.timeout, env)) {
                pending.put(d.arrival.id(), d);
                return;
            }
            step = next(d);
        }
    }

    /** A pool node the retry decision {@code d} has not tried (by weight), or −1 if every pool node was tried. */
    private int untriedPoolNode(Decision d) {
        int[] o = pool.ordered();
        int size = pool.size();
        for (int tries = 0; tries < 4 * size && size > 0; tries++) {
            int node = o[env.random().nextInt(size)];
            if (!d.excluded(node)) {
                return node;
            }
        }
        for (int i = 0; i < size; i++) {
            if (!d.excluded(o[i])) {
                return o[i];
            }
        }
        return -1;
    }

    private void onProbeReply(BalancerMessage.ProbeReply r) {
        LoadSnapshot load = r.load();
        remember(load);
        if (guarded) {
            health.seen(load, env.now());
        }
        if (r.probeId() < 0) {
            // An asynchronous probe a policy sent (Prequal): its reply feeds the policy's probe pool.
            policy.onProbeReply(load, env.now());
            if (retryPolicy != policy) {
                retryPolicy.onProbeReply(load, env.now());
            }
            return;
        }
        Decision d = pending.get(r.probeId());
        if (d == null) {
            return; // a late reply after the timeout: the decision was already made
        }
        int pos = d.positionOf(load.node());
        if (pos < 0 || d.answered(pos)) {
            return; // a late reply of an earlier round, a foreign node, or a duplicate
        }
        d.loads[pos] = load;
        if (++d.replies == d.nodes.length) {
            pending.remove(r.probeId());
            env.cancelTimer(d.timeout);
            advance(d, next(d));
        }
    }

    private void onProbeTimeout(long requestId) {
        Decision d = pending.remove(requestId);
        if (d == null) {
            return;
        }
        if (guarded) {
            for (int i = 0; i < d.nodes.length; i++) {
                if (!d.answered(i)) {
                    health.missedProbe(d.nodes[i]);
                }
            }
        }
        advance(d, next(d));
    }

    /**
     * Screens the answers of {@code d}'s read: membership masks and the nodes a retry tried
     * (hard), guardrail and outlier masks (soft, capped), fail-open below the panic threshold,
     * and, for a ranking policy reading the whole pool, slow-start thinning.
     */
    private Candidates screen(Decision d) {
        int n = d.nodes.length;
        Candidates c = readCandidates;
        boolean thin = thinning(d) && d.nodes == pool.ordered();
        if (!screening && d.masks == null && goneNodes == 0 && d.tried == null && !thin) {
            d.allGone = false;
            return c.reset(d.nodes, d.loads, null, n);
        }
        if (d.masks == null) {
            d.masks = new String[n];
        }
        double now = env.now();
        int soft = 0;
        int alive = 0;
        int gone = 0;
        boolean unknownRoutable = information.unknownLoadRoutable();
        for (int i = 0; i < n; i++) {
            int node = d.nodes[i];
            LoadSnapshot s = d.loads[i];
            if (d.masks[i] != null || health.gone(node) || d.excluded(node)) {
                if (d.masks[i] == null) {
                    d.masks[i] = health.gone(node) ? health.membershipReason(node) : "retry: tried before";
                }
                gone++;
                continue;
            }
            if (screening) {
                applyEjection(node, health.update(node, s, now), true);
                String why = health.ejected(node);
                if (why != null) {
                    d.masks[i] = why;
                    soft++;
                    continue;
                }
            }
            if (s != null ? s.available() : unknownRoutable) {
                alive++;
            } else {
                gone++;
            }
        }
        d.allGone = gone == n;
        if (soft > 0) {
            env.metrics().count(now, GUARDRAIL_MASKED, 1);
            if (alive < guardrails.panicThreshold() * n || alive == 0) {
                // Too few candidates survive: fail open and choose among all of them (Envoy's panic mode).
                for (int i = 0; i < n; i++) {
                    if (d.masks[i] != null && !health.gone(d.nodes[i]) && !d.excluded(d.nodes[i])) {
                        d.masks[i] = null;
                    }
                }
                d.failOpen = true;
                env.metrics().count(now, GUARDRAIL_FAIL_OPEN, 1);
            }
        }
        if (thin) {
            thin(d.nodes, d.masks, n);
        }
        return c.reset(d.nodes, d.loads, d.masks, n);
    }

    /** True if whole-pool views of {@code d} are thinned by slow-start weight (a ranking policy, some node in slow start). */
    private boolean thinning(Decision d) {
        return slow.unequal() && !d.policy.appliesWeights();
    }

    /**
     * Slow start for policies that rank the whole pool: each node in slow start takes part in
     * this decision with probability equal to its weight (never all of the eligible ones out).
     * {@code nodes} is the ordered pool.
     */
    private void thin(int[] nodes, String[] masks, int n) {
        int eligible = 0;
        for (int i = 0; i < n; i++) {
            if (masks[i] == null) {
                eligible++;
            }
        }
        int thinned = 0;
        int[] out = new int[slow.count];
        for (int k = 0; k < slow.count; k++) {
            int node = slow.list[k];
            int pos = pool.positionInOrdered(node);
            if (pos < 0 || pos >= n || nodes[pos] != node || masks[pos] != null) {
                continue;
            }
            double w = slow.weight(node);
            if (w < 1 && env.random().nextDouble() >= w) {
                masks[pos] = "slow start (weight " + String.format(java.util.Locale.ROOT, "%.2f", w) + ")";
                out[thinned++] = pos;
            }
        }
        if (thinned > 0 && thinned >= eligible) {
            for (int k = 0; k < thinned; k++) {
                masks[out[k]] = null; // keep someone to choose
            }
        }
    }

    /** True if {@code d} met only gone candidates and another sample may find a live node. */
    private boolean shouldRedecide(Decision d) {
        int limit = guarded ? guardrails.redecideAttempts() : Guardrails.OFF.redecideAttempts();
        return (guarded || d.attempt > 0) && d.allGone && d.redecisions < limit && pool.size() > d.nodes.length;
    }

    // ---------------------------------------------------------------- routing and refusal

    private void route(Decision d, int node) {
        BalancerMessage.Arrival a = d.arrival;
        if (!attempts.isEmpty()) {
            attempts.remove(a.id());
        }
        inFlight[node]++;
        routed[node]++;
        double now = env.now();
        env.metrics().routed(now, id.index(), node, d.startedAt, a.arrivalTime());
        boolean stamp = tracking || feedback != null || decisionLog != null || d.policy.measuresLatency()
                || policy.measuresLatency();
        env.send(NodeId.of(node), new NodeMessage.Request(a.id(), a.demand(), a.arrivalTime(), id, stamp ? now : Double.NaN));
        if (tracking) {
            Attempt t = records.get(a.id());
            if (t == null) {
                t = new Attempt(a, retry.maxRetries() + 1);
                records.put(a.id(), t);
                if (requestTimeout > 0) {
                    t.deadline = new BalancerMessage.RequestTimeout(a.id());
                    env.startTimer(t.deadline, requestTimeout, t.deadline);
                }
            }
            t.sent(node, d.attempt, now);
            if (retry.perTryTimeout() > 0) {
                env.startTimer(t, retry.perTryTimeout(), new BalancerMessage.AttemptTimeout(a.id(), d.attempt));
            }
        }
    }

    /**
     * The policy refused {@code a}: reject it, or in delay mode hold it back and retry after
     * a backoff while the buffer has room and attempts remain.
     */
    private void refuse(BalancerMessage.Arrival a) {
        double now = env.now();
        if (rejection.delay()) {
            int tried = attempts.getOrDefault(a.id(), 0);
            if (tried < rejection.attempts() && delayed.size() < rejection.buffer()) {
                attempts.put(a.id(), tried + 1);
                delayed.put(a.id(), a);
                BalancerMessage.RetryDue due = new BalancerMessage.RetryDue(a.id());
                env.startTimer(due, rejection.waitBefore(tried), due);
                env.metrics().count(now, "delayed_retries", 1);
                return;
            }
            attempts.remove(a.id());
            env.metrics().count(now, "delay_rejections", 1);
        }
        env.metrics().rejected(now, a.arrivalTime());
        if (decisionLog != null) {
            decisionLog.finished(a.id(), ResponseStatus.UNAVAILABLE, now);
        }
    }

    private void onResponse(BalancerMessage.Response r) {
        int node = r.node();
        if (health.removed(node)) {
            return; // counted as lost (or retried) when the node was removed
        }
        if (expired != null && lateAfterTimeout(r)) {
            return;
        }
        inFlight[node]--;
        double now = env.now();
        ResponseStatus status = r.status();
        double latency = Double.isNaN(r.routedAt()) ? Double.NaN : now - r.routedAt();
        if (status == ResponseStatus.ERROR) {
            env.metrics().count(now, RESPONSES_ERROR, 1);
        }
        if (!tracking) {
            outcome(node, status, latency, now, true);
            if (status.served()) {
                env.metrics().completed(now, r.arrivalTime(), node);
            } else {
                env.metrics().rejected(now, r.arrivalTime());
            }
            if (decisionLog != null) {
                decisionLog.finished(r.id(), status, now);
            }
            return;
        }
        Attempt t = records.get(r.id());
        if (t == null || t.state != Attempt.IN_FLIGHT || t.node != node || t.routedAt != r.routedAt()) {
            // The late answer of an attempt given up on (timed out): the node has served its copy.
            orphans[node]--;
            outcome(node, status, latency, now, false);
            return;
        }
        env.cancelTimer(t);
        outcome(node, status, latency, now, true);
        if (status.served()) {
            forget(t);
            if (t.attempt > 0) {
                retriesActive--;
                env.metrics().count(now, RETRY_SUCCESS, 1);
            }
            env.metrics().completed(now, r.arrivalTime(), node);
            if (decisionLog != null) {
                decisionLog.finished(t.arrival.id(), status, now);
            }
        } else {
            attemptFailed(t, status);
        }
    }

    /** Tells the policies (and outlier detection, for a current attempt) how an attempt at {@code node} ended. */
    private void outcome(int node, ResponseStatus status, double latency, double now, boolean current) {
        // Timeouts and resets are no measurement (a timed-out copy's late answer reports its real latency).
        if (feedback != null && !Double.isNaN(latency) && status != ResponseStatus.TIMEOUT && status != ResponseStatus.RESET
                && status != ResponseStatus.REQUEST_TIMEOUT) {
            feedback.outcome(node, latency, !status.served());
        }
        policy.onOutcome(node, status, latency, now);
        if (retryPolicy != policy) {
            retryPolicy.onOutcome(node, status, latency, now);
        }
        if (outliers != null && current && !health.gone(node) && !health.outlierEjected(node)) {
            String why = outliers.record(node, status);
            if (why != null) {
                ejectOutlier(node, why, now);
            }
        }
    }

    private void onAttemptTimeout(BalancerMessage.AttemptTimeout timeout) {
        Attempt t = records.get(timeout.requestId());
        if (t == null || t.state != Attempt.IN_FLIGHT || t.attempt != timeout.attempt()) {
            return;
        }
        double now = env.now();
        env.metrics().count(now, PER_TRY_TIMEOUTS, 1);
        orphans[t.node]++; // its copy stays at the node; a late answer will be ignored
        outcome(t.node, ResponseStatus.TIMEOUT, now - t.routedAt, now, true);
        attemptFailed(t, ResponseStatus.TIMEOUT);
    }

    /** Attempt {@code t} ended with {@code status}: retry it if its attempts, the retry conditions and the budget allow. */
    private void attemptFailed(Attempt t, ResponseStatus status) {
        double now = env.now();
        if (t.attempt > 0) {
            retriesActive--;
        }
        t.state = Attempt.ENDED;
        if (!retry.retries(status)) {
            fail(t, status);
            return;
        }
        if (t.attempt >= retry.maxRetries()) {
            if (retry.maxRetries() > 0) {
                env.metrics().count(now, RETRIES_EXHAUSTED, 1);
            }
            fail(t, status);
            return;
        }
        if (!budget.allows(retriesActive, records.size())) {
            env.metrics().count(now, RETRY_OVERFLOW, 1);
            fail(t, status);
            return;
        }
        retriesActive++;
        env.metrics().count(now, RETRIES, 1);
        t.attempt++;
        t.state = Attempt.BACKOFF;
        double wait = Backoff.wait(t.attempt, retry.backoffBase(), retry.backoffMax(), env.random());
        if (wait > 0) {
            BalancerMessage.RetryDue due = new BalancerMessage.RetryDue(t.arrival.id());
            env.startTimer(due, wait, due);
        } else {
            startRetry(t);
        }
    }

    /**
     * The request of {@code t} ends unserved with {@code status}: lost if its node was removed,
     * else failed. Either way the decision log hears that it ended: the autonomous gateway
     * answers its client from there, and would otherwise wait out its own timeout (504) for a
     * request whose node was removed.
     */
    private void fail(Attempt t, ResponseStatus status) {
        double now = env.now();
        forget(t);
        if (status == ResponseStatus.RESET) {
            env.metrics().lost(now, t.node, 1);
            env.metrics().count(now, LOST_ON_REMOVAL, 1);
        } else {
            env.metrics().count(now, FAILED_PREFIX + status.code(), 1);
            env.metrics().rejected(now, t.arrival.arrivalTime());
        }
        if (decisionLog != null) {
            decisionLog.finished(t.arrival.id(), status, now);
        }
    }

    /** The outcome of {@code t}'s request is final: stop following it (and its request timeout). */
    private void forget(Attempt t) {
        records.remove(t.arrival.id());
        if (t.deadline != null) {
            env.cancelTimer(t.deadline);
        }
    }

    /**
     * The request timeout of a request fired: end it wherever it is (see {@link #requestTimeout}).
     * In flight: its count at the node is released and its copy is awaited as expired. In
     * backoff or deciding a retry: it holds no node, and is rejected now.
     */
    private void onRequestTimeout(BalancerMessage.RequestTimeout timeout) {
        long requestId = timeout.requestId();
        Attempt t = records.get(requestId);
        if (t == null || t.deadline != timeout) {
            return; // ended already (a cancelled timer's message may still be delivered by a live shell)
        }
        double now = env.now();
        records.remove(requestId);
        if (t.attempt > 0) {
            retriesActive--; // a retry in flight, in backoff or deciding ends here
        }
        env.metrics().count(now, TIMED_OUT, 1);
        if (t.state == Attempt.IN_FLIGHT) {
            env.cancelTimer(t); // its per-try timeout, if any
            inFlight[t.node]--;
            expired.put(requestId, t);
            outcome(t.node, ResponseStatus.REQUEST_TIMEOUT, now - t.routedAt, now, true);
        } else {
            if (t.state == Attempt.DECIDING) {
                Decision d = pending.remove(requestId);
                if (d != null) {
                    env.cancelTimer(d.timeout);
                    release(d);
                }
            }
            // In backoff its RetryDue finds no record and does nothing.
            env.metrics().rejected(now, t.arrival.arrivalTime());
        }
        t.state = Attempt.ENDED;
        if (decisionLog != null) {
            decisionLog.finished(requestId, ResponseStatus.REQUEST_TIMEOUT, now);
        }
    }

    /**
     * True if {@code r} answers a request that the request timeout ended while this copy was
     * in flight: the answer is too late and ignored (the client had its 504), and the request,
     * unresolved until now, counts as rejected.
     */
    private boolean lateAfterTimeout(BalancerMessage.Response r) {
        Attempt t = expired.get(r.id());
        if (t == null || t.node != r.node() || t.routedAt != r.routedAt()) {
            return false; // not the expired copy (e.g. an earlier attempt's orphan at another node)
        }
        expired.remove(r.id());
        double now = env.now();
        env.metrics().count(now, LATE_RESPONSES, 1);
        env.metrics().rejected(now, r.arrivalTime());
        double latency = Double.isNaN(r.routedAt()) ? Double.NaN : now - r.routedAt();
        outcome(r.node(), r.status(), latency, now, false);
        return true;
    }

    private void startRetry(Attempt t) {
        t.state = Attempt.DECIDING;
        Decision d = decision(t.arrival, retryPolicy, t.attempt, t);
        if (allMaskedFallback(d)) {
            return;
        }
        advance(d, retryPolicy.start(d));
    }

    /** The retry policy found no node for a retry: the request fails with 503. */
    private void retryRefused(long requestId) {
        Attempt t = records.get(requestId);
        if (t == null) {
            return;
        }
        retriesActive--;
        fail(t, ResponseStatus.UNAVAILABLE);
    }

    // ---------------------------------------------------------------- outlier ejection

    private void ejectOutlier(int node, String why, double now) {
        double until = now + outliers.settings().ejectionTime(outliers.ejections(node) + 1);
        int result = health.ejectOutlier(node, until, why);
        if (result == NodeHealth.CAPPED) {
            env.metrics().count(now, OUTLIER_CAPPED, 1);
            return;
        }
        outliers.ejected(node);
        env.metrics().count(now, OUTLIER_EJECTIONS, 1);
        if (result == NodeHealth.EJECTED) {
            applyEjection(node, 1, false);
        }
    }

    /** End of an outlier-detection interval: success-rate ejections, returns of nodes whose time is over. */
    private void onOutlierInterval() {
        double now = env.now();
        env.startTimer(OUTLIER_TICK, outliers.settings().interval(), OUTLIER_TICK);
        int[] nodes = pool.allowedNodes();
        String[] verdicts = new String[nodes.length];
        outliers.endInterval(nodes, health::outlierEjected, verdicts);
        for (int i = 0; i < nodes.length; i++) {
            int node = nodes[i];
            applyEjection(node, health.update(node, null, now), true);
            if (verdicts[i] != null && !health.gone(node) && !health.outlierEjected(node)) {
                ejectOutlier(node, verdicts[i], now);
            }
        }
    }

    // ---------------------------------------------------------------- news about nodes

    private void onReport(LoadSnapshot load) {
        remember(load);
        information.onReport(load);
        if (guarded && load.node() < nodeCount) {
            double now = env.now();
            health.reported(load, now);
            applyEjection(load.node(), health.update(load.node(), null, now), true);
        }
    }

    private void onHeartbeat(int node) {
        if (guarded && node >= 0 && node < nodeCount) {
            double now = env.now();
            health.heard(node, now);
            applyEjection(node, health.update(node, null, now), true);
        }
    }

    private void onMembership(int node, NodeHealth.Membership state, boolean join) {
        if (!pool.allowed(node)) {
            return;
        }
        NodeHealth.Membership before = health.membership(node);
        if ((before == NodeHealth.Membership.REMOVED || before == NodeHealth.Membership.LEAVING)
                && state == NodeHealth.Membership.REACHABLE && !join) {
            return; // a removed or departed member never comes back; a new one joins
        }
        if (!health.membership(node, state)) {
            return;
        }
        goneNodes += (state == NodeHealth.Membership.REACHABLE ? 0 : 1) - (before == NodeHealth.Membership.REACHABLE ? 0 : 1);
        double now = env.now();
        if (state == NodeHealth.Membership.REACHABLE) {
            if (slow.begin(node, now)) {
                env.metrics().count(now, SLOW_START_NODES, 1);
            }
            refreshPool(node);
            return;
        }
        pool.set(node, false);
        policiesForget(node);
        env.metrics().count(now, switch (state) {
            case REMOVED -> MEMBERSHIP_REMOVED;
            case LEAVING -> MEMBERSHIP_LEAVING;
            default -> MEMBERSHIP_UNREACHABLE;
        }, 1);
        if (state == NodeHealth.Membership.REMOVED) {
            removeInFlight(node, now);
        }
        updatePanic();
        releaseProbesTo(node);
    }

    /** Node {@code node} was removed: its requests in flight are lost, or retried where retries cover resets. */
    private void removeInFlight(int node, double now) {
        if (!tracking) {
            if (inFlight[node] > 0) {
                env.metrics().lost(now, node, inFlight[node]);
                env.metrics().count(now, LOST_ON_REMOVAL, inFlight[node]);
                inFlight[node] = 0;
                if (decisionLog != null) {
                    decisionLog.nodeRemoved(node, now); // it knows which of its open requests went there
                }
            }
            return;
        }
        LongArrayList ids = new LongArrayList();
        for (LongObjectCursor<Attempt> e : records) {
            if (e.value.node == node && e.value.state == Attempt.IN_FLIGHT) {
                ids.add(e.key);
            }
        }
        inFlight[node] = 0;
        orphans[node] = 0;
        loseExpiredAt(node, now);
        long[] sorted = ids.toArray();
        Arrays.sort(sorted);
        for (long requestId : sorted) {
            Attempt t = records.get(requestId);
            env.cancelTimer(t);
            outcome(node, ResponseStatus.RESET, now - t.routedAt, now, false);
            attemptFailed(t, ResponseStatus.RESET);
        }
    }

    /**
     * Node {@code node} was removed: the copies of timed-out requests still there will never
     * answer, so those requests are lost (counted with {@value #LOST_ON_REMOVAL}).
     */
    private void loseExpiredAt(int node, double now) {
        if (expired == null || expired.isEmpty()) {
            return;
        }
        int lost = expired.removeAll((long requestId, Attempt t) -> t.node == node);
        if (lost > 0) {
            env.metrics().lost(now, node, lost);
            env.metrics().count(now, LOST_ON_REMOVAL, lost);
        }
    }

    /** Decisions waiting for a probe of a node that is gone count it as answered at once (in request order). */
    private void releaseProbesTo(int node) {
        LongArrayList waiting = new LongArrayList();
        for (LongObjectCursor<Decision> e : pending) {
            int pos = e.value.positionOf(node);
            if (pos >= 0 && !e.value.answered(pos)) {
                waiting.add(e.key);
            }
        }
        long[] ids = waiting.toArray();
        Arrays.sort(ids);
        for (long requestId : ids) {
            Decision d = pending.get(requestId);
            int pos = d.positionOf(node);
            if (d.masks == null) {
                d.masks = new String[d.nodes.length];
            }
            d.masks[pos] = health.membershipReason(node);
            if (++d.replies == d.nodes.length) {
                pending.remove(requestId);
                env.cancelTimer(d.timeout);
                advance(d, next(d));
            }
        }
    }

    /**
     * Keeps the pool in step with a node's ejection (+1 masked, −1 restored, 0 unchanged);
     * {@code guardrail} says whether a +1 is a guardrail's ejection (counted) or an outlier's.
     */
    private void applyEjection(int node, int change, boolean guardrail) {
        if (change == 0) {
            return;
        }
        if (change > 0 && guardrail) {
            env.metrics().count(env.now(), GUARDRAIL_EJECTIONS, 1);
        }
        updatePanic();
        refreshPool(node);
        if (change > 0 && !pool.contains(node)) {
            policiesForget(node);
        }
    }

    private void policiesForget(int node) {
        policy.onNodeGone(node);
        if (retryPolicy != policy) {
            retryPolicy.onNodeGone(node);
        }
    }

    /** A node is in the pool while it is reachable and not masked (masked ones too while the pool panics). */
    private void refreshPool(int node) {
        boolean was = pool.contains(node);
        boolean in = !health.gone(node) && (health.ejected(node) == null || poolPanic);
        pool.set(node, in);
        if (in && !was) {
            double now = env.now();
            policy.onNodeBack(node, now);
            if (retryPolicy != policy) {
                retryPolicy.onNodeBack(node, now);
            }
        }
    }

    /** The pool panics (keeps its masked nodes) while fewer than the panic threshold of its reachable nodes are healthy. */
    private void updatePanic() {
        if (!screening) {
            return;
        }
        int reachable = 0;
        for (int node : pool.allowedNodes()) {
            if (!health.gone(node)) {
                reachable++;
            }
        }
        int healthy = reachable - health.ejectedCount();
        boolean panic = reachable > 0 && healthy < guardrails.panicThreshold() * reachable;
        if (panic != poolPanic) {
            poolPanic = panic;
            for (int node : pool.allowedNodes()) {
                if (health.ejected(node) != null) {
                    refreshPool(node);
                }
            }
        }
    }

    // ---------------------------------------------------------------- seed 003: control services, shedding

    /** Keeps the newest load of each node (for the control services' reports and QoS shedding). */
    private void remember(LoadSnapshot load) {
        if (newest != null && load.node() >= 0 && load.node() < nodeCount) {
            LoadSnapshot old = newest[load.node()];
            if (old == null || old.sampledAt() <= load.sampledAt()) {
                newest[load.node()] = load;
            }
        }
    }

    /** Mean CPU share of the member nodes whose load is known (0 when none is). */
    private double meanCpu() {
        double sum = 0;
        int known = 0;
        for (int node : pool.allowedNodes()) {
            LoadSnapshot s = newest[node];
            if (s != null && !health.gone(node)) {
                sum += s.cpu();
                known++;
            }
        }
        return known == 0 ? 0 : sum / known;
    }

    private void onWeights(BalancerMessage.Weights w) {
        double age = env.now() - w.publishedAt();
        weightsAgeSum += age;
        weightsAgeMax = Math.max(weightsAgeMax, age);
        weightsReceived++;
        if (lastWeights == null || w.version() > lastWeights.version()) {
            lastWeights = w;
        }
        policy.onWeights(w);
        if (retryPolicy != policy) {
            retryPolicy.onWeights(w);
        }
    }

    private void sendFeedback() {
        boolean[] members = new boolean[nodeCount];
        for (int node : pool.allowedNodes()) {
            members[node] = !health.gone(node);
        }
        org.loadlab.balancer.control.ControlMessage.Feedback f = feedback.drain(id.index(), env.now(), newest, members);
        for (ServiceId s : services) {
            env.send(s, f);
        }
    }

    /** The routing-mode counter of decision {@code d} ({@value #MODE_PREFIX} + mode). */
    private String modeOf(Decision d) {
        String mode = d.attempt > 0 ? MODE_FAILOVER : d.mode != null ? d.mode : d.failOpen ? MODE_PANIC : null;
        if (mode != null) {
            return MODE_COUNTERS.computeIfAbsent(mode, m -> MODE_PREFIX + m);
        }
        RoutingPolicy p = d.policy;
        if (p == modePolicy) {
            return modeCounter;
        }
        if (p == modePolicy2) {
            return modeCounter2;
        }
        String counter = MODE_COUNTERS.computeIfAbsent(p.name().replace('-', '_'), m -> MODE_PREFIX + m);
        modePolicy2 = modePolicy;
        modeCounter2 = modeCounter;
        modePolicy = p;
        modeCounter = counter;
        return counter;
    }

    /**
     * The age of the routing weights when they reached this balancer (now − publishedAt),
     * seconds: {count, mean, max}; zeros before any arrived.
     */
    public double[] weightsAge() {
        return new double[] {weightsReceived, weightsReceived == 0 ? 0 : weightsAgeSum / weightsReceived, weightsAgeMax};
    }

    /** The newest routing weights this balancer took, or null. */
    public BalancerMessage.Weights weights() {
        return lastWeights;
    }

    /** The newest load this balancer has of {@code node} (kept while it reports to control services or sheds), or null. */
    public LoadSnapshot newest(int node) {
        return newest == null ? null : newest[node];
    }

    /** The fail-open behaviour. */
    public FailOpen failOpenMode() {
        return failOpen;
    }

    /** The QoS shedding settings. */
    public QosShedding sheddingSettings() {
        return shedding;
    }

    /** Mean CPU share of the member nodes as this balancer knows it (shedding's input; 0 unless it keeps loads). */
    public double knownMeanCpu() {
        return newest == null ? 0 : meanCpu();
    }

    // ---------------------------------------------------------------- explanations and control

    private void keep(Decision d, int chosen, String outcome) {
        if (keepDecisions == 0) {
            return;
        }
        List<DecisionRecord.Candidate> list = new ArrayList<>();
        if (d.nodes != null) {
            for (int i = 0; i < d.nodes.length && list.size() < DecisionRecord.KEPT_CANDIDATES; i++) {
                int node = d.nodes[i];
                LoadSnapshot s = d.loads[i];
                list.add(new DecisionRecord.Candidate(node, s, inFlight[node], d.policy.score(s, inFlight[node]),
                        d.masks == null ? null : d.masks[i]));
            }
        }
        kept.addFirst(new DecisionRecord(d.arrival.id(), d.startedAt, env.now(), d.policy.name(), list, chosen, outcome,
                d.failOpen, d.redecisions, d.queries));
        while (kept.size() > keepDecisions) {
            kept.removeLast();
        }
    }

    /** The last decisions kept ({@link #keepDecisions}), newest first. */
    public List<DecisionRecord> decisions() {
        return List.copyOf(kept);
    }

    /**
     * What this balancer knows of node {@code node} now, for explanations: newest load seen,
     * requests in flight, membership, and the guardrail mask if any.
     *
     * @param node an allowed node
     * @param now current time, seconds
     */
    public DecisionRecord.NodeView view(int node, double now) {
        LoadSnapshot s = health.latest(node);
        String mask = health.gone(node) ? health.membershipReason(node)
                : health.ejected(node);
        return new DecisionRecord.NodeView(node, s, s == null ? Double.NaN : now - s.sampledAt(),
                policy.score(s, inFlight[node]), mask, inFlight[node]);
    }

    /**
     * Decides with {@code next} from the next request on (decisions under way finish with the
     * policy they started with). Counted as {@value #POLICY_SWITCHES}. Retries switch too
     * unless the scenario names their own policy.
     *
     * @param next a fresh policy instance for this balancer
     * @param now current time, seconds
     * @param env where the counter goes
     */
    public void switchPolicy(RoutingPolicy next, double now, Env env) {
        if (retryPolicy == policy) {
            retryPolicy = next;
        }
        this.policy = next;
        if (lastWeights != null) {
            next.onWeights(lastWeights);
        }
        env.metrics().count(now, POLICY_SWITCHES, 1);
    }

    /** Requests this balancer has routed to node {@code node} so far (retries included). */
    public long routed(int node) {
        return routed[node];
    }

    /** Requests this balancer has in flight at node {@code node} (sent, not yet answered; timed-out copies included). */
    public int inFlight(int node) {
        return inFlight[node];
    }

    /**
     * Copies of requests at node {@code node} whose attempt timed out and was given up on:
     * the node still holds (or serves) them, but they are no longer requests of the run (the
     * request was retried elsewhere or failed).
     */
    public int orphans(int node) {
        return orphans[node];
    }

    /** Retries granted and not yet ended (waiting in backoff or in flight). */
    public int activeRetries() {
        return retriesActive;
    }

    /** Requests this balancer follows until their outcome is final (in flight or in backoff); 0 without retries. */
    public int activeRequests() {
        return records.size();
    }

    /** Number of decisions waiting for probe replies. */
    public int pendingDecisions() {
        return pending.size();
    }

    /** Requests held back in delay mode, waiting for their next try. */
    public int delayedRequests() {
        return delayed.size();
    }

    /**
     * What this balancer holds now, each request counted once: deciding (waiting for probe
     * replies, first attempts and retries alike), delayed (delay mode), in backoff (a retry
     * waiting for its timer) and in flight at a node. A shell ending a run takes it as the
     * balancer's last act to account for every request that arrived and was not resolved.
     * Copies of timed-out attempts still at a node ({@link #orphans}) are not requests. Requests
     * the request timeout ended while their copy was at a node count as in flight: the run's
     * books resolve them when the late answer comes (rejected) or the node loses them (lost),
     * so a shell subtracts the requests failed nodes counted as lost, as it does without one.
     */
    public HeldRequests held() {
        int deciding = 0;
        int backoff = 0;
        long flying = 0;
        if (!tracking) {
            deciding = pending.size();
            flying = inFlightTotal();
        } else {
            for (LongObjectCursor<Decision> e : pending) {
                if (!records.containsKey(e.key)) {
                    deciding++; // a first attempt (a retry's decision is counted by its record below)
                }
            }
            for (LongObjectCursor<Attempt> e : records) {
                switch (e.value.state) {
                    case Attempt.IN_FLIGHT -> flying++;
                    case Attempt.BACKOFF -> backoff++;
                    case Attempt.DECIDING -> deciding++;
                    default -> {
                        // ENDED lasts only while a failed attempt is handled
                    }
                }
            }
            if (expired != null) {
                flying += expired.size(); // timed out, their copy at a node: unresolved until answered or lost
            }
        }
        return new HeldRequests(deciding, delayed.size(), backoff, flying);
    }

    /**
     * The requests a balancer holds ({@link #held()}).
     *
     * @param deciding decisions waiting for probe replies
     * @param delayed requests held back in delay mode
     * @param inBackoff retries waiting for their backoff timer
     * @param inFlight requests routed to a node and not yet answered
     */
    public record HeldRequests(int deciding, int delayed, int inBackoff, long inFlight) {
    }

    /** Requests this balancer has in flight at all nodes (routed, not yet answered, not counted lost). */
    public long inFlightTotal() {
        long sum = 0;
        for (int count : inFlight) {
            sum += count;
        }
        return sum;
    }

    /** The policy in use. */
    public RoutingPolicy routingPolicy() {
        return policy;
    }

    /** The information model in use. */
    public InformationModel information() {
        return information;
    }

    /** The guardrail settings. */
    public Guardrails guardrails() {
        return guardrails;
    }

    /** The retry settings. */
    public RetrySettings retrySettings() {
        return retry;
    }

    /** The node's slow-start weight now, in (0, 1]. */
    public double weight(int node) {
        return slow.weight(node);
    }

    /** Why node {@code node} is masked now (guardrail or outlier), or null. */
    public String ejected(int node) {
        return health.ejected(node);
    }

    /** The nodes this balancer may route to. */
    public int[] allowed() {
        return pool.allowedNodes().clone();
    }

    /** Number of nodes in the sampling pool now. */
    public int poolSize() {
        return pool.size();
    }

    /** n, the number of nodes of the run (node indices are in [0, n)). */
    public int nodeCount() {
        return nodeCount;
    }

    /** This balancer's address. */
    public BalancerId id() {
        return id;
    }

    /**
     * Slow-start weights: when each node in slow start (re)entered the pool, and the list of
     * those nodes (a node leaves it lazily once its window is over). Weight 1 for everyone else.
     */
    private final class SlowStartState implements NodeWeights {
        private final SlowStart settings;
        private final double[] since;
        private final int[] list;
        private final int[] position;
        private int count;

        SlowStartState(SlowStart settings, int nodeCount) {
            this.settings = settings;
            this.since = new double[settings.enabled() ? nodeCount : 0];
            this.list = new int[since.length];
            this.position = new int[since.length];
            Arrays.fill(since, Double.NaN);
        }

        /** The node (re)entered the pool: its ramp starts now. @return true if slow start is on */
        boolean begin(int node, double now) {
            if (!settings.enabled()) {
                return false;
            }
            if (Double.isNaN(since[node])) {
                position[node] = count;
                list[count++] = node;
            }
            since[node] = now;
            return true;
        }

        @Override
        public double weight(int node) {
            if (count == 0 || Double.isNaN(since[node])) {
                return 1.0;
            }
            double f = settings.factor(env.now() - since[node]);
            if (f >= 1.0 && env.now() - since[node] >= settings.window()) {
                end(node);
            }
            return f;
        }

        private void end(int node) {
            int p = position[node];
            int last = list[--count];
            list[p] = last;
            position[last] = p;
            since[node] = Double.NaN;
        }

        /** True while some node's weight is below 1 (ends windows that are over). */
        boolean unequal() {
            if (count == 0) {
                return false;
            }
            double now = env.now();
            for (int k = count - 1; k >= 0; k--) {
                int node = list[k];
                if (now - since[node] >= settings.window()) {
                    end(node);
                }
            }
            return count > 0;
        }
    }

    /**
     * One routed request followed by the retry mechanism until its outcome is final: its
     * current attempt (node, number, when sent) and the nodes it has tried. The object is
     * also the key of its per-try timeout timer.
     */
    private static final class Attempt {
        static final int IN_FLIGHT = 0;
        static final int BACKOFF = 1;
        static final int DECIDING = 2;
        static final int ENDED = 3;

        final BalancerMessage.Arrival arrival;
        final int[] tried;
        int triedCount;
        int node = -1;
        int attempt;
        double routedAt;
        int state;
        // The request timeout's timer (message and key), or null without one.
        BalancerMessage.RequestTimeout deadline;

        Attempt(BalancerMessage.Arrival arrival, int maxAttempts) {
            this.arrival = arrival;
            this.tried = new int[maxAttempts];
        }

        void sent(int node, int attempt, double now) {
            this.node = node;
            this.attempt = attempt;
            this.routedAt = now;
            this.state = IN_FLIGHT;
            if (!tried(node) && triedCount < tried.length) {
                tried[triedCount++] = node;
            }
        }

        boolean tried(int node) {
            for (int i = 0; i < triedCount; i++) {
                if (tried[i] == node) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * One request's decision: its context for the policy, and its current read while answers
     * are out. Recycled ({@link #decision}, {@link #release}): a policy must not keep a
     * context beyond the call it was passed to (none does), and the loads array is reused by
     * the next read of the same size (as {@link Candidates} says, its arrays are valid during
     * the call only).
     */
    private final class Decision implements DecisionContext {
        BalancerMessage.Arrival arrival;
        BalancerMessage.ProbeTimeout timeout;
        double startedAt;
        RoutingPolicy policy;
        int attempt;
        Attempt tried;
        int queries;
        int redecisions;
        int restarts;
        int[] nodes;
        LoadSnapshot[] loads;
        String[] masks;
        Step.Continuation then;
        int replies;
        boolean allGone;
        boolean failOpen;
        String mode;
        double propensity = Double.NaN;

        /** Starts this (new or recycled) decision: every field as a new decision has it. */
        Decision start(BalancerMessage.Arrival arrival, double startedAt, RoutingPolicy policy, int attempt, Attempt tried) {
            this.arrival = arrival;
            this.startedAt = startedAt;
            this.policy = policy;
            this.attempt = attempt;
            this.tried = tried;
            this.timeout = new BalancerMessage.ProbeTimeout(arrival.id());
            queries = 0;
            redecisions = 0;
            restarts = 0;
            nodes = null;
            masks = null;
            then = null;
            replies = 0;
            allGone = false;
            failOpen = false;
            mode = null;
            propensity = Double.NaN;
            return this;
        }

        void begin(Step.Read read) {
            nodes = read.nodes();
            if (loads == null || loads.length != nodes.length) {
                loads = new LoadSnapshot[nodes.length];
            } else {
                Arrays.fill(loads, null);
            }
            masks = null;
            then = read.then();
            replies = 0;
            allGone = false;
        }

        boolean answered(int pos) {
            return loads[pos] != null || masks != null && masks[pos] != null;
        }

        int positionOf(int node) {
            if (nodes == pool.ordered()) {
                return pool.positionInOrdered(node);
            }
            for (int i = 0; i < nodes.length; i++) {
                if (nodes[i] == node) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public long requestId() {
            return arrival.id();
        }

        @Override
        public void mode(String name) {
            this.mode = name;
        }

        @Override
        public void propensity(double probability) {
            this.propensity = probability;
        }

        @Override
        public double now() {
            return env.now();
        }

        @Override
        public RandomGenerator random() {
            return env.random();
        }

        @Override
        public int allowedCount() {
            return pool.allowedNodes().length;
        }

        @Override
        public int poolSize() {
            return pool.size();
        }

        private NodeWeights drawWeights() {
            return slow.unequal() ? slow : null;
        }

        @Override
        public int sampleAllowed() {
            return pool.uniform(env.random(), drawWeights());
        }

        @Override
        public int sampleAllowedExcept(int node) {
            return pool.uniformExcept(node, env.random(), drawWeights());
        }

        @Override
        public int[] sample(int k) {
            return pool.sample(k, env.random(), drawWeights());
        }

        @Override
        public Candidates pool() {
            int[] ordered = pool.ordered();
            int size = pool.size();
            boolean thin = thinning(this);
            if (tried == null && !thin) {
                return poolCandidates.reset(ordered, null, null, size);
            }
            String[] m = new String[size];
            if (tried != null) {
                for (int i = 0; i < tried.triedCount; i++) {
                    int pos = pool.positionInOrdered(tried.tried[i]);
                    if (pos >= 0 && pos < size) {
                        m[pos] = "retry: tried before";
                    }
                }
                if (allMasked(m, size)) {
                    Arrays.fill(m, null); // every pool node was tried: any may take the retry
                }
            }
            if (thin) {
                thin(ordered, m, size);
            }
            return poolCandidates.reset(ordered, null, m, size);
        }

        private boolean allMasked(String[] m, int size) {
            for (int i = 0; i < size; i++) {
                if (m[i] == null) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int inFlight(int node) {
            return inFlight[node];
        }

        @Override
        public boolean unknownLoadRoutable() {
            return information.unknownLoadRoutable();
        }

        @Override
        public void count(String name, long delta) {
            env.metrics().count(env.now(), name, delta);
        }

        @Override
        public int attempt() {
            return attempt;
        }

        @Override
        public boolean excluded(int node) {
            return tried != null && tried.tried(node);
        }

        @Override
        public long key() {
            return arrival.key();
        }

        @Override
        public Candidates draw(int k) {
            int[] drawn = sample(k);
            int size = drawn == pool.ordered() ? pool.size() : drawn.length;
            String[] m = null;
            if (tried != null) {
                for (int i = 0; i < size; i++) {
                    if (tried.tried(drawn[i])) {
                        if (m == null) {
                            m = new String[size];
                        }
                        m[i] = "retry: tried before";
                    }
                }
                if (m != null && allMasked(m, size)) {
                    m = null; // only tried nodes were drawn: the engine re-decides a route to one
                }
            }
            return drawCandidates.reset(drawn, null, m, size);
        }

        @Override
        public boolean routable(int node) {
            return pool.contains(node) && !excluded(node);
        }

        @Override
        public double weight(int node) {
            return slow.weight(node);
        }

        @Override
        public boolean weightsUnequal() {
            return slow.unequal();
        }

        @Override
        public void probe(int[] targets) {
            for (int node : targets) {
                if (!pool.allowed(node)) {
                    throw new IllegalStateException(id + ": policy " + policy.name() + " probed node " + node
                            + ", which is not in the allowed set");
                }
                env.send(NodeId.of(node), new NodeMessage.Probe(-(++asyncProbes), id));
            }
            queries += targets.length;
        }
    }
}

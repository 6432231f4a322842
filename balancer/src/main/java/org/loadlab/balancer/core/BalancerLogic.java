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
import org.loadlab.balancer.decision.Step;
import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.balancer.guardrail.NodeHealth;
import org.loadlab.balancer.information.InformationModel;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

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
 * |allowed| for a single-round policy's read, SPEC.md §2). Several decisions may wait for
 * replies at once; each is keyed by its request id.
 *
 * <p><b>Membership.</b> {@code NodeUnreachable}, {@code NodeReachable}, {@code NodeRemoved}
 * and {@code NodeJoined} take nodes out of the sampling pool and put them back. A decision
 * waiting for a probe of a node that became unreachable counts it as answered "gone" at
 * once. When a node is removed, the requests this balancer has in flight there are lost
 * (counted with {@code lost}); its late responses are ignored.
 *
 * <p><b>Guardrails</b> ({@link Guardrails}, when enabled): nodes above the CPU threshold,
 * offline or stale are masked (out of the pool, and out of the candidates of a decision
 * that reads them), at most the ejection cap at once; a decision whose surviving candidates
 * fall below the panic threshold fails open and chooses among all of them; a decision whose
 * candidates are all gone is decided again with a new sample. Counters
 * {@code guardrail_masked} (decisions with a masked candidate), {@code guardrail_ejections},
 * {@code guardrail_fail_open}, {@code redecisions}, {@code membership_unreachable},
 * {@code membership_removed}.
 *
 * <p><b>Refusals.</b> A request the policy refuses (ASMF below τ, no usable reply) is
 * rejected, or in delay mode ({@link RejectionSettings}) held back in a bounded buffer and
 * decided again after a growing backoff; counters {@code delayed_retries} and
 * {@code delay_rejections}.
 *
 * <p>Source: DESIGN.md ("balancers sample k peers by message", "Policies as pipelines,
 * guardrails in the core"), SPEC.md §2–§3, §6 (guardrails), seed 001 (multi-round decisions).
 */
public final class BalancerLogic implements Logic<BalancerMessage> {
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
    /** Counter: requests lost because their node was removed while they were in flight. */
    public static final String LOST_ON_REMOVAL = "lost_on_removal";
    /** Counter: live policy switches. */
    public static final String POLICY_SWITCHES = "policy_switches";

    private static final int MAX_RESTARTS = 3;
    private static final BalancerMessage.GuardrailTick SWEEP = new BalancerMessage.GuardrailTick();

    private final BalancerId id;
    private final int nodeCount;
    private final SamplingPool pool;
    private RoutingPolicy policy;
    private final InformationModel information;
    private final RejectionSettings rejection;
    private final Guardrails guardrails;
    private final boolean guarded;
    private final NodeHealth health;
    private final int[] inFlight;
    private final long[] routed;
    private final Candidates poolCandidates;
    private final Candidates readCandidates;
    private final LongObjectHashMap<Decision> pending = new LongObjectHashMap<>();
    // Delay mode: requests held back instead of rejected, and how many tries each has had.
    private final LongObjectHashMap<BalancerMessage.Arrival> delayed = new LongObjectHashMap<>();
    private final LongIntHashMap attempts = new LongIntHashMap();
    private boolean poolPanic;
    private int goneNodes;
    private int keepDecisions;
    private final ArrayDeque<DecisionRecord> kept = new ArrayDeque<>();
    private Env env;

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
        this(id, allowed, nodeCount, policy, information, RejectionSettings.REJECT, Guardrails.OFF);
    }

    /**
     * A balancer without guardrails that handles refused requests as {@code rejection} says.
     *
     * @throws IllegalArgumentException as the seven-argument constructor
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy, InformationModel information,
                         RejectionSettings rejection) {
        this(id, allowed, nodeCount, policy, information, rejection, Guardrails.OFF);
    }

    /**
     * @param id this balancer's address
     * @param allowed indices of the nodes this balancer may route to (non-empty, distinct)
     * @param nodeCount n, total number of nodes
     * @param policy the policy instance owned by this balancer
     * @param information the information model instance owned by this balancer
     * @param rejection what to do with a refused request
     * @param guardrails the guardrail filters
     * @throws IllegalArgumentException if {@code allowed} is empty, has an index outside
     *     [0, n) or twice
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy, InformationModel information,
                         RejectionSettings rejection, Guardrails guardrails) {
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
        this.information = information;
        this.rejection = rejection;
        this.guardrails = guardrails;
        this.guarded = guardrails.enabled();
        this.health = new NodeHealth(guardrails, nodeCount, allowed.length);
        this.inFlight = new int[nodeCount];
        this.routed = new long[nodeCount];
        this.poolCandidates = new Candidates(inFlight);
        this.readCandidates = new Candidates(inFlight);
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

    @Override
    public void onStart(Env env) {
        this.env = env;
        double period = sweepPeriod();
        if (period > 0) {
            env.startTimer(SWEEP, period, SWEEP);
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
            applyEjection(node, health.update(node, null, now));
        }
    }

    @Override
    public void on(BalancerMessage message, Env env) {
        this.env = env;
        if (message instanceof BalancerMessage.Arrival a) {
            env.metrics().arrived(env.now(), id.index());
            startDecision(a);
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
        } else if (message instanceof BalancerMessage.RetryDue due) {
            BalancerMessage.Arrival a = delayed.remove(due.requestId());
            if (a != null) {
                startDecision(a);
            }
        } else if (message instanceof BalancerMessage.NodeUnreachable u) {
            onMembership(u.node(), NodeHealth.Membership.UNREACHABLE, false);
        } else if (message instanceof BalancerMessage.NodeReachable r) {
            onMembership(r.node(), NodeHealth.Membership.REACHABLE, false);
        } else if (message instanceof BalancerMessage.NodeRemoved r) {
            onMembership(r.node(), NodeHealth.Membership.REMOVED, false);
        } else if (message instanceof BalancerMessage.NodeJoined j) {
            onMembership(j.node(), NodeHealth.Membership.REACHABLE, true);
        }
    }

    // ---------------------------------------------------------------- the decision engine

    private void startDecision(BalancerMessage.Arrival a) {
        Decision d = new Decision(a, env.now());
        advance(d, policy.start(d));
    }

    /** Runs a decision forward from {@code step} until it is final or waits for probe replies. */
    private void advance(Decision d, Step step) {
        while (true) {
            if (step instanceof Step.Route route) {
                int node = route.node();
                if (!pool.allowed(node)) {
                    throw new IllegalStateException(id + ": policy " + policy.name() + " routed to node " + node
                            + ", which is not in the allowed set");
                }
                if (health.gone(node)) {
                    // The policy chose a node that has left since it last heard of it: it forgets the node, and
                    // the request is decided again (a few times at most, then rejected).
                    policy.onNodeGone(node);
                    step = d.restarts++ < MAX_RESTARTS ? policy.start(d) : Step.reject();
                    continue;
                }
                env.metrics().decision(env.now(), id.index(), d.queries);
                keep(d, node, "routed");
                route(d, node);
                return;
            }
            if (step instanceof Step.Reject) {
                if (shouldRedecide(d)) {
                    d.redecisions++;
                    env.metrics().count(env.now(), REDECISIONS, 1);
                    step = policy.start(d);
                    continue;
                }
                env.metrics().decision(env.now(), id.index(), d.queries);
                keep(d, -1, "rejected");
                refuse(d.arrival);
                return;
            }
            Step.Read read = (Step.Read) step;
            for (int node : read.nodes()) {
                if (!pool.allowed(node)) {
                    throw new IllegalStateException(id + ": policy " + policy.name() + " read node " + node
                            + ", which is not in the allowed set");
                }
            }
            d.begin(read);
            d.queries += information.charge(read.nodes().length, read.wholeView(), pool.allowedNodes().length);
            if (!information.read(d.arrival.id(), d.nodes, d.loads, d.timeout, d.timeout, env)) {
                pending.put(d.arrival.id(), d);
                return;
            }
            step = d.then.next(screen(d), d);
        }
    }

    private void onProbeReply(BalancerMessage.ProbeReply r) {
        LoadSnapshot load = r.load();
        if (guarded) {
            health.seen(load, env.now());
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
            advance(d, d.then.next(screen(d), d));
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
        advance(d, d.then.next(screen(d), d));
    }

    /**
     * Screens the answers of {@code d}'s read: membership masks (hard), guardrail masks
     * (soft, capped), and fail-open below the panic threshold.
     */
    private Candidates screen(Decision d) {
        int n = d.nodes.length;
        Candidates c = readCandidates;
        if (!guarded && d.masks == null && goneNodes == 0) {
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
            if (d.masks[i] != null || health.gone(node)) {
                if (d.masks[i] == null) {
                    d.masks[i] = health.membershipReason(node);
                }
                gone++;
                continue;
            }
            if (guarded) {
                applyEjection(node, health.update(node, s, now));
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
                    if (d.masks[i] != null && !health.gone(d.nodes[i])) {
                        d.masks[i] = null;
                    }
                }
                d.failOpen = true;
                env.metrics().count(now, GUARDRAIL_FAIL_OPEN, 1);
            }
        }
        return c.reset(d.nodes, d.loads, d.masks, n);
    }

    /** True if {@code d} met only gone candidates and another sample may find a live node. */
    private boolean shouldRedecide(Decision d) {
        return guarded && d.allGone && d.redecisions < guardrails.redecideAttempts() && pool.size() > d.nodes.length;
    }

    // ---------------------------------------------------------------- routing and refusal

    private void route(Decision d, int node) {
        BalancerMessage.Arrival a = d.arrival;
        if (!attempts.isEmpty()) {
            attempts.remove(a.id());
        }
        inFlight[node]++;
        routed[node]++;
        env.metrics().routed(env.now(), id.index(), node, d.startedAt, a.arrivalTime());
        env.send(NodeId.of(node), new NodeMessage.Request(a.id(), a.demand(), a.arrivalTime(), id));
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
    }

    private void onResponse(BalancerMessage.Response r) {
        int node = r.node();
        if (health.membership(node) == NodeHealth.Membership.REMOVED) {
            return; // counted as lost when the node was removed
        }
        inFlight[node]--;
        policy.onResponse(node, r.served());
        if (r.served()) {
            env.metrics().completed(env.now(), r.arrivalTime(), node);
        } else {
            env.metrics().rejected(env.now(), r.arrivalTime());
        }
    }

    // ---------------------------------------------------------------- news about nodes

    private void onReport(LoadSnapshot load) {
        information.onReport(load);
        if (guarded && load.node() < nodeCount) {
            double now = env.now();
            health.reported(load, now);
            applyEjection(load.node(), health.update(load.node(), null, now));
        }
    }

    private void onHeartbeat(int node) {
        if (guarded && node >= 0 && node < nodeCount) {
            double now = env.now();
            health.heard(node, now);
            applyEjection(node, health.update(node, null, now));
        }
    }

    private void onMembership(int node, NodeHealth.Membership state, boolean join) {
        if (!pool.allowed(node)) {
            return;
        }
        NodeHealth.Membership before = health.membership(node);
        if (before == NodeHealth.Membership.REMOVED && state == NodeHealth.Membership.REACHABLE && !join) {
            return; // a removed member never comes back; a new one joins
        }
        if (!health.membership(node, state)) {
            return;
        }
        goneNodes += (state == NodeHealth.Membership.REACHABLE ? 0 : 1) - (before == NodeHealth.Membership.REACHABLE ? 0 : 1);
        double now = env.now();
        if (state == NodeHealth.Membership.REACHABLE) {
            refreshPool(node);
            return;
        }
        pool.set(node, false);
        policy.onNodeGone(node);
        env.metrics().count(now, state == NodeHealth.Membership.REMOVED ? MEMBERSHIP_REMOVED : MEMBERSHIP_UNREACHABLE, 1);
        if (state == NodeHealth.Membership.REMOVED && inFlight[node] > 0) {
            env.metrics().lost(now, node, inFlight[node]);
            env.metrics().count(now, LOST_ON_REMOVAL, inFlight[node]);
            inFlight[node] = 0;
        }
        updatePanic();
        releaseProbesTo(node);
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
                advance(d, d.then.next(screen(d), d));
            }
        }
    }

    /** Keeps the pool in step with a node's ejection (+1 masked, −1 restored, 0 unchanged). */
    private void applyEjection(int node, int change) {
        if (change == 0) {
            return;
        }
        if (change > 0) {
            env.metrics().count(env.now(), GUARDRAIL_EJECTIONS, 1);
        }
        updatePanic();
        refreshPool(node);
        if (change > 0 && !pool.contains(node)) {
            policy.onNodeGone(node);
        }
    }

    /** A node is in the pool while it is reachable and not masked (masked ones too while the pool panics). */
    private void refreshPool(int node) {
        pool.set(node, !health.gone(node) && (health.ejected(node) == null || poolPanic));
    }

    /** The pool panics (keeps its masked nodes) while fewer than the panic threshold of its reachable nodes are healthy. */
    private void updatePanic() {
        if (!guarded) {
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
                list.add(new DecisionRecord.Candidate(node, s, inFlight[node], policy.score(s, inFlight[node]),
                        d.masks == null ? null : d.masks[i]));
            }
        }
        kept.addFirst(new DecisionRecord(d.arrival.id(), d.startedAt, env.now(), policy.name(), list, chosen, outcome,
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
     * policy they started with). Counted as {@value #POLICY_SWITCHES}.
     *
     * @param next a fresh policy instance for this balancer
     * @param now current time, seconds
     * @param env where the counter goes
     */
    public void switchPolicy(RoutingPolicy next, double now, Env env) {
        this.policy = next;
        env.metrics().count(now, POLICY_SWITCHES, 1);
    }

    /** Requests this balancer has routed to node {@code node} so far. */
    public long routed(int node) {
        return routed[node];
    }

    /** Requests this balancer has in flight at node {@code node} (sent, not yet answered). */
    public int inFlight(int node) {
        return inFlight[node];
    }

    /** Number of decisions waiting for probe replies. */
    public int pendingDecisions() {
        return pending.size();
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

    /** One request's decision: its context for the policy, and its current read while answers are out. */
    private final class Decision implements DecisionContext {
        final BalancerMessage.Arrival arrival;
        final BalancerMessage.ProbeTimeout timeout;
        final double startedAt;
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

        Decision(BalancerMessage.Arrival arrival, double startedAt) {
            this.arrival = arrival;
            this.startedAt = startedAt;
            this.timeout = new BalancerMessage.ProbeTimeout(arrival.id());
        }

        void begin(Step.Read read) {
            nodes = read.nodes();
            loads = new LoadSnapshot[nodes.length];
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

        @Override
        public int sampleAllowed() {
            return pool.uniform(env.random());
        }

        @Override
        public int sampleAllowedExcept(int node) {
            return pool.uniformExcept(node, env.random());
        }

        @Override
        public int[] sample(int k) {
            return pool.sample(k, env.random());
        }

        @Override
        public Candidates pool() {
            int[] ordered = pool.ordered();
            return poolCandidates.reset(ordered, null, null, pool.size());
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
    }
}

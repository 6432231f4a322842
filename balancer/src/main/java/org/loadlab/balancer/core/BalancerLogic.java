package org.loadlab.balancer.core;

import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.policy.CandidateSet;
import org.loadlab.balancer.policy.DecisionContext;
import org.loadlab.balancer.policy.RoundPolicy;
import org.loadlab.balancer.policy.RoutingPolicy;
import org.loadlab.balancer.policy.SelectionPolicy;
import org.loadlab.balancer.policy.Step;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.ClusterView;
import org.loadlab.kernel.Env;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * A balancer (frontend): receives requests from the workload driver, reads the load of
 * the nodes its policy asks for through the information model, routes the request and
 * collects its response.
 *
 * <ul>
 *   <li>Probe model: sends {@code Probe} to k distinct nodes (sampled without replacement
 *       from the allowed set), collects {@code ProbeReply} keyed by request id, and decides
 *       when all replies are in or the probe timeout fires; unanswered nodes are excluded,
 *       and a request with no reply at all is rejected.</li>
 *   <li>Cached model: reads the last {@code LoadReport} of each sampled node (0 messages);
 *       nodes that never reported are excluded, and if none has reported the choice is
 *       uniform among the sampled nodes.</li>
 *   <li>Oracle model: the exact state of every allowed node ({@link ClusterView}); the policy
 *       still chooses among its k samples, but each decision counts |allowed| queries
 *       (SPEC.md §2), the price of global state.</li>
 * </ul>
 * Queries per decision: probes sent (probe), cache reads (cached), |allowed| (oracle).
 *
 * <p>A request the policy refuses (ASMF below τ, no usable reply) is rejected, or in delay
 * mode ({@link RejectionSettings}) held back in a bounded buffer and decided again after a
 * growing backoff; counters {@code delayed_retries} and {@code delay_rejections}.
 *
 * <p><b>Multi-round policies</b> ({@link RoundPolicy}, e.g. {@code sticky-lazy},
 * {@code strict-po2c}) decide in steps: route at once (0 queries: Sticky-Lazy's blind phase),
 * or read some nodes, then route, reject or read more nodes. Every node read is one query of
 * the request's decision: a {@code Probe} message (probe model; the round ends when every
 * reply is in or {@code ProbeTimeout} fires, each round restarting the timeout), a cache read
 * (cached) or an oracle read (oracle: the nodes actually read, not |allowed|). The decision
 * is recorded once, when the request is routed or rejected, with the sum of its reads.
 * Single-round {@link SelectionPolicy}s keep their one-read path unchanged.
 *
 * <p>Source: DESIGN.md ("balancers sample k peers by message"), SPEC.md §2–§3, seed 001.
 */
public final class BalancerLogic implements Logic<BalancerMessage> {
    private final BalancerId id;
    private final int[] allowed;
    private final int[] sampleBuffer;
    private final int[] positionInAllowed;
    private final RoutingPolicy routing;
    private final SelectionPolicy policy;
    private final RoundPolicy rounds;
    private final InformationModel information;
    private final int[] inFlight;
    private final LoadSnapshot[] cache;
    private final CandidateSet candidates;
    private final int[] scratchNodes;
    private final LoadSnapshot[] scratchLoads;
    private final Map<Long, PendingDecision> pending = new HashMap<>();
    private final Map<Long, RoundDecision> roundsPending = new HashMap<>();
    private final RejectionSettings rejection;
    // Delay mode: requests held back instead of rejected, and how many tries each has had.
    private final Map<Long, BalancerMessage.Arrival> delayed = new HashMap<>();
    private final Map<Long, Integer> attempts = new HashMap<>();

    /**
     * @param id this balancer's address
     * @param allowed indices of the nodes this balancer may route to (non-empty, distinct)
     * @param nodeCount n, total number of nodes (indices are in [0, n))
     * @param policy the policy instance owned by this balancer: a single-round
     *     {@link SelectionPolicy} or a multi-round {@link RoundPolicy}
     * @param information the information model
     * @throws IllegalArgumentException if {@code allowed} is empty or has an index outside [0, n),
     *     or the policy is of neither kind
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy,
                         InformationModel information) {
        this(id, allowed, nodeCount, policy, information, RejectionSettings.REJECT);
    }

    /**
     * A balancer that handles refused requests as {@code rejection} says (reject at once,
     * or delay mode: hold back and retry with backoff).
     *
     * @param id this balancer's address
     * @param allowed indices of the nodes this balancer may route to (non-empty, distinct)
     * @param nodeCount n, total number of nodes
     * @param policy the policy instance owned by this balancer
     * @param information the information model
     * @param rejection what to do with a refused request
     * @throws IllegalArgumentException as the five-argument constructor
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, RoutingPolicy policy,
                         InformationModel information, RejectionSettings rejection) {
        this.rejection = rejection;
        if (allowed.length == 0) {
            throw new IllegalArgumentException(id + " has an empty allowed set");
        }
        this.id = id;
        this.allowed = allowed.clone();
        this.sampleBuffer = allowed.clone();
        this.positionInAllowed = new int[nodeCount];
        java.util.Arrays.fill(positionInAllowed, -1);
        for (int i = 0; i < allowed.length; i++) {
            if (allowed[i] < 0 || allowed[i] >= nodeCount) {
                throw new IllegalArgumentException(id + ": allowed node " + allowed[i] + " is not in [0, " + nodeCount + ")");
            }
            positionInAllowed[allowed[i]] = i;
        }
        this.routing = policy;
        this.policy = policy instanceof SelectionPolicy sp ? sp : null;
        this.rounds = policy instanceof RoundPolicy rp ? rp : null;
        if (this.policy == null && this.rounds == null) {
            throw new IllegalArgumentException(id + ": policy " + policy + " is neither a SelectionPolicy nor a RoundPolicy");
        }
        this.information = information;
        this.inFlight = new int[nodeCount];
        this.cache = information.kind() == InformationModel.Kind.CACHED ? new LoadSnapshot[nodeCount] : null;
        this.candidates = new CandidateSet(inFlight);
        this.scratchNodes = new int[allowed.length];
        this.scratchLoads = new LoadSnapshot[allowed.length];
    }

    @Override
    public void on(BalancerMessage message, Env env) {
        if (message instanceof BalancerMessage.Arrival a) {
            onArrival(a, env);
        } else if (message instanceof BalancerMessage.ProbeReply r) {
            onProbeReply(r, env);
        } else if (message instanceof BalancerMessage.Response r) {
            onResponse(r, env);
        } else if (message instanceof BalancerMessage.ProbeTimeout t) {
            PendingDecision p = pending.remove(t.requestId());
            if (p != null) {
                decide(p.arrival, p.nodes, p.loads, p.count, p.count, env);
            } else {
                RoundDecision d = roundsPending.remove(t.requestId());
                if (d != null) {
                    d.env = env;
                    advance(d, d.then.next(d.loads, d), env);
                }
            }
        } else if (message instanceof BalancerMessage.LoadReport r) {
            onLoadReport(r);
        } else if (message instanceof BalancerMessage.RetryDue due) {
            BalancerMessage.Arrival a = delayed.remove(due.requestId());
            if (a != null) {
                startDecision(a, env);
            }
        }
    }

    private void onArrival(BalancerMessage.Arrival a, Env env) {
        env.metrics().arrived(env.now(), id.index());
        startDecision(a, env);
    }

    /** Decides where {@code a} goes: on arrival, and again on each delay-mode retry. */
    private void startDecision(BalancerMessage.Arrival a, Env env) {
        if (rounds != null) {
            RoundDecision d = new RoundDecision(a, env);
            advance(d, rounds.start(d), env);
            return;
        }
        int reads = policy.sampleSize(allowed.length);
        if (reads == 0) {
            decide(a, allowed, null, allowed.length, 0, env);
            return;
        }
        RandomGenerator rng = env.random();
        switch (information.kind()) {
            case ORACLE -> {
                int[] nodes = pick(reads, scratchNodes, rng);
                ClusterView view = information.oracleView();
                for (int i = 0; i < reads; i++) {
                    scratchLoads[i] = view.load(nodes[i], env.now());
                }
                // The oracle reads the whole allowed set's state (SPEC §2: counted as |allowed| queries).
                decide(a, nodes, scratchLoads, reads, allowed.length, env);
            }
            case CACHED -> {
                int[] nodes = pick(reads, scratchNodes, rng);
                boolean any = false;
                for (int i = 0; i < reads; i++) {
                    scratchLoads[i] = cache[nodes[i]];
                    any |= scratchLoads[i] != null;
                }
                // Before the first reports arrive the balancer has nothing to go on: choose blindly.
                decide(a, nodes, any ? scratchLoads : null, reads, reads, env);
            }
            case PROBE -> {
                int[] nodes = reads == allowed.length ? allowed : pick(reads, new int[reads], rng);
                PendingDecision p = new PendingDecision(a, nodes, new LoadSnapshot[reads], reads);
                pending.put(a.id(), p);
                NodeMessage.Probe probe = new NodeMessage.Probe(a.id(), id);
                for (int i = 0; i < reads; i++) {
                    env.send(NodeId.of(nodes[i]), probe);
                }
                env.startTimer(p.timeout, information.probeTimeout(), p.timeout);
            }
        }
    }

    private void onProbeReply(BalancerMessage.ProbeReply r, Env env) {
        PendingDecision p = pending.get(r.probeId());
        if (p == null) {
            RoundDecision d = roundsPending.get(r.probeId());
            if (d != null) {
                onRoundReply(d, r, env);
            }
            return; // otherwise a late reply after the timeout: the decision was already made
        }
        int pos = p.positionOf(r.load().node(), positionInAllowed, allowed);
        if (pos < 0 || p.loads[pos] != null) {
            return;
        }
        p.loads[pos] = r.load();
        if (++p.replies == p.count) {
            pending.remove(r.probeId());
            env.cancelTimer(p.timeout);
            decide(p.arrival, p.nodes, p.loads, p.count, p.count, env);
        }
    }

    private void decide(BalancerMessage.Arrival a, int[] nodes, LoadSnapshot[] loads, int count, int queries, Env env) {
        double now = env.now();
        env.metrics().decision(now, id.index(), queries);
        if (loads == null && queries > 0 && information.kind() == InformationModel.Kind.CACHED) {
            route(a, nodes[env.random().nextInt(count)], env);
            return;
        }
        int chosen = policy.choose(candidates.reset(nodes, loads, count), env.random());
        if (chosen == SelectionPolicy.REJECT) {
            refuse(a, env);
            return;
        }
        route(a, nodes[chosen], env);
    }

    /**
     * The policy refused {@code a}: reject it, or in delay mode hold it back and retry after
     * a backoff while the buffer has room and attempts remain.
     */
    private void refuse(BalancerMessage.Arrival a, Env env) {
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

    private void route(BalancerMessage.Arrival a, int node, Env env) {
        if (!attempts.isEmpty()) {
            attempts.remove(a.id());
        }
        inFlight[node]++;
        env.send(NodeId.of(node), new NodeMessage.Request(a.id(), a.demand(), a.arrivalTime(), id));
    }

    private void onResponse(BalancerMessage.Response r, Env env) {
        inFlight[r.node()]--;
        if (rounds != null) {
            rounds.onResponse(r.node(), r.served());
        }
        if (r.served()) {
            env.metrics().completed(env.now(), r.arrivalTime(), r.node());
        } else {
            env.metrics().rejected(env.now(), r.arrivalTime());
        }
    }

    private void onLoadReport(BalancerMessage.LoadReport r) {
        if (cache == null) {
            return;
        }
        LoadSnapshot current = cache[r.load().node()];
        if (current == null || current.sampledAt() <= r.load().sampledAt()) {
            cache[r.load().node()] = r.load();
        }
    }

    /** Samples {@code k} distinct allowed nodes into {@code out} (partial Fisher–Yates, O(k)). */
    private int[] pick(int k, int[] out, RandomGenerator rng) {
        if (k == allowed.length) {
            return allowed;
        }
        int m = sampleBuffer.length;
        for (int i = 0; i < k; i++) {
            int j = i + rng.nextInt(m - i);
            int t = sampleBuffer[i];
            sampleBuffer[i] = sampleBuffer[j];
            sampleBuffer[j] = t;
            out[i] = sampleBuffer[i];
        }
        return out;
    }

    /** Requests this balancer has in flight at node {@code node} (sent, not yet answered). */
    public int inFlight(int node) {
        return inFlight[node];
    }

    /** Number of decisions waiting for probe replies. */
    public int pendingDecisions() {
        return pending.size() + roundsPending.size();
    }

    /**
     * The single-round selection policy in use.
     *
     * @throws UnsupportedOperationException if this balancer runs a multi-round
     *     {@link RoundPolicy} (use {@link #routingPolicy()})
     */
    public SelectionPolicy policy() {
        if (policy == null) {
            throw new UnsupportedOperationException(id + " runs the multi-round policy " + routing.name()
                    + ", not a SelectionPolicy; use routingPolicy()");
        }
        return policy;
    }

    /** The policy in use: a {@link SelectionPolicy} or a {@link RoundPolicy}. */
    public RoutingPolicy routingPolicy() {
        return routing;
    }

    // ---- multi-round policies ------------------------------------------------------------

    /**
     * Runs a multi-round decision forward from {@code step} until it is final or waits for
     * probe replies. Cached and oracle reads are answered at once.
     */
    private void advance(RoundDecision d, Step step, Env env) {
        while (true) {
            if (step instanceof Step.Route route) {
                int node = route.node();
                if (node < 0 || node >= positionInAllowed.length || positionInAllowed[node] < 0) {
                    throw new IllegalStateException(id + ": policy " + rounds.name() + " routed to node " + node
                            + ", which is not in the allowed set");
                }
                env.metrics().decision(env.now(), id.index(), d.queries);
                route(d.arrival, node, env);
                return;
            }
            if (step instanceof Step.Reject) {
                env.metrics().decision(env.now(), id.index(), d.queries);
                refuse(d.arrival, env);
                return;
            }
            Step.Read read = (Step.Read) step;
            int[] nodes = read.nodes();
            for (int node : nodes) {
                if (node < 0 || node >= positionInAllowed.length || positionInAllowed[node] < 0) {
                    throw new IllegalStateException(id + ": policy " + rounds.name() + " read node " + node
                            + ", which is not in the allowed set");
                }
            }
            d.queries += nodes.length;
            LoadSnapshot[] loads = new LoadSnapshot[nodes.length];
            switch (information.kind()) {
                case ORACLE -> {
                    ClusterView view = information.oracleView();
                    for (int i = 0; i < nodes.length; i++) {
                        loads[i] = view.load(nodes[i], env.now());
                    }
                }
                case CACHED -> {
                    for (int i = 0; i < nodes.length; i++) {
                        loads[i] = cache[nodes[i]];
                    }
                }
                case PROBE -> {
                    d.nodes = nodes;
                    d.loads = loads;
                    d.then = read.then();
                    d.replies = 0;
                    roundsPending.put(d.arrival.id(), d);
                    NodeMessage.Probe probe = new NodeMessage.Probe(d.arrival.id(), id);
                    for (int node : nodes) {
                        env.send(NodeId.of(node), probe);
                    }
                    // Same key: a later round's timeout replaces this one.
                    env.startTimer(d.timeout, information.probeTimeout(), d.timeout);
                    return;
                }
            }
            d.env = env;
            step = read.then().next(loads, d);
        }
    }

    private void onRoundReply(RoundDecision d, BalancerMessage.ProbeReply r, Env env) {
        int node = r.load().node();
        int pos = -1;
        for (int i = 0; i < d.nodes.length; i++) {
            if (d.nodes[i] == node) {
                pos = i;
                break;
            }
        }
        if (pos < 0 || d.loads[pos] != null) {
            return; // a late reply of an earlier round, a foreign node, or a duplicate
        }
        d.loads[pos] = r.load();
        if (++d.replies == d.nodes.length) {
            roundsPending.remove(d.arrival.id());
            env.cancelTimer(d.timeout);
            d.env = env;
            advance(d, d.then.next(d.loads, d), env);
        }
    }

    /** One request of a multi-round policy: its context, and its current round while probes are out. */
    private final class RoundDecision implements DecisionContext {
        final BalancerMessage.Arrival arrival;
        final BalancerMessage.ProbeTimeout timeout;
        Env env;
        int queries;
        int[] nodes;
        LoadSnapshot[] loads;
        Step.Continuation then;
        int replies;

        RoundDecision(BalancerMessage.Arrival arrival, Env env) {
            this.arrival = arrival;
            this.env = env;
            this.timeout = new BalancerMessage.ProbeTimeout(arrival.id());
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
            return allowed.length;
        }

        @Override
        public int sampleAllowed() {
            return allowed[env.random().nextInt(allowed.length)];
        }

        @Override
        public int sampleAllowedExcept(int node) {
            int pos = node >= 0 && node < positionInAllowed.length ? positionInAllowed[node] : -1;
            if (pos < 0) {
                return sampleAllowed();
            }
            if (allowed.length < 2) {
                return -1;
            }
            // Uniform over the other m - 1 positions: draw in [0, m-1) and skip pos.
            int i = env.random().nextInt(allowed.length - 1);
            return allowed[i >= pos ? i + 1 : i];
        }

        @Override
        public int inFlight(int node) {
            return inFlight[node];
        }

        @Override
        public boolean unknownLoadRoutable() {
            return information.kind() == InformationModel.Kind.CACHED;
        }

        @Override
        public void count(String name, long delta) {
            env.metrics().count(env.now(), name, delta);
        }
    }

    /** A request waiting for its probe replies. */
    private static final class PendingDecision {
        final BalancerMessage.Arrival arrival;
        final int[] nodes;
        final LoadSnapshot[] loads;
        final int count;
        final BalancerMessage.ProbeTimeout timeout;
        int replies;

        PendingDecision(BalancerMessage.Arrival arrival, int[] nodes, LoadSnapshot[] loads, int count) {
            this.arrival = arrival;
            this.nodes = nodes;
            this.loads = loads;
            this.count = count;
            this.timeout = new BalancerMessage.ProbeTimeout(arrival.id());
        }

        int positionOf(int node, int[] positionInAllowed, int[] allowed) {
            if (nodes == allowed) {
                return positionInAllowed[node];
            }
            for (int i = 0; i < count; i++) {
                if (nodes[i] == node) {
                    return i;
                }
            }
            return -1;
        }
    }
}

package org.loadlab.balancer.core;

import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.policy.CandidateSet;
import org.loadlab.balancer.policy.SelectionPolicy;
import org.loadlab.node.kernel.BalancerId;
import org.loadlab.node.kernel.ClusterView;
import org.loadlab.node.kernel.Env;
import org.loadlab.node.kernel.LoadSnapshot;
import org.loadlab.node.kernel.Logic;
import org.loadlab.node.kernel.NodeId;
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
 * <p>Source: DESIGN.md ("balancers sample k peers by message"), SPEC.md §2–§3.
 */
public final class BalancerLogic implements Logic<BalancerMessage> {
    private final BalancerId id;
    private final int[] allowed;
    private final int[] sampleBuffer;
    private final int[] positionInAllowed;
    private final SelectionPolicy policy;
    private final InformationModel information;
    private final int[] inFlight;
    private final LoadSnapshot[] cache;
    private final CandidateSet candidates;
    private final int[] scratchNodes;
    private final LoadSnapshot[] scratchLoads;
    private final Map<Long, PendingDecision> pending = new HashMap<>();

    /**
     * @param id this balancer's address
     * @param allowed indices of the nodes this balancer may route to (non-empty, distinct)
     * @param nodeCount n, total number of nodes (indices are in [0, n))
     * @param policy the selection policy instance owned by this balancer
     * @param information the information model
     * @throws IllegalArgumentException if {@code allowed} is empty or has an index outside [0, n)
     */
    public BalancerLogic(BalancerId id, int[] allowed, int nodeCount, SelectionPolicy policy,
                         InformationModel information) {
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
        this.policy = policy;
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
            }
        } else if (message instanceof BalancerMessage.LoadReport r) {
            onLoadReport(r);
        }
    }

    private void onArrival(BalancerMessage.Arrival a, Env env) {
        env.metrics().arrived(env.now(), id.index());
        int reads = policy.sampleSize(allowed.length);
        if (reads == 0) {
            decide(a, allowed, null, allowed.length, 0, env);
            return;
        }
        RandomGenerator rng = env.random();
        switch (information.kind()) {
            case ORACLE -> {
                int[] nodes = pick(reads, scratchNodes, rng);
                ClusterView view = env.oracle();
                for (int i = 0; i < reads; i++) {
                    scratchLoads[i] = view.load(nodes[i]);
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
            return; // late reply after the timeout: the decision was already made
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
            env.metrics().rejected(now, a.arrivalTime());
            return;
        }
        route(a, nodes[chosen], env);
    }

    private void route(BalancerMessage.Arrival a, int node, Env env) {
        inFlight[node]++;
        env.send(NodeId.of(node), new NodeMessage.Request(a.id(), a.demand(), a.arrivalTime(), id));
    }

    private void onResponse(BalancerMessage.Response r, Env env) {
        inFlight[r.node()]--;
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
        return pending.size();
    }

    /** The selection policy in use. */
    public SelectionPolicy policy() {
        return policy;
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

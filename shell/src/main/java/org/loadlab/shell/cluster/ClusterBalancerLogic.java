package org.loadlab.shell.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.core.InformationModel;
import org.loadlab.balancer.policy.RoutingPolicy;
import org.loadlab.balancer.policy.SelectionPolicy;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * The cluster's balancer: the very {@link BalancerLogic} of the simulation, with its policy
 * wrapped in a {@link GuardedPolicy}, and a thin layer between it and its LogicActor that
 * <ul>
 *   <li>masks nodes the cluster lost (member removed or unreachable), nodes that stopped
 *       answering probes, failed nodes and nodes above the CPU threshold (guardrails);</li>
 *   <li>answers a probe to an unreachable node at once with an "unavailable" reply, so the
 *       decision does not wait for the probe timeout;</li>
 *   <li>counts, when a node's member is removed, the requests it had in flight there as lost
 *       (the node cannot count them any more);</li>
 *   <li>measures each decision's latency and keeps the last decisions for explanations;</li>
 *   <li>switches the policy on request.</li>
 * </ul>
 * Scenario time is the experiment clock shared by all members.
 */
public final class ClusterBalancerLogic implements Logic<Message>, GuardedPolicy.Guard {

    /** Guardrail settings. */
    public record Guardrails(double maskCpuAbove, double silentAfterSeconds, double staleAfterSeconds, int decisionsKept) {
    }

    private record Kept(long request, double at, GuardedPolicy.Draft draft, int chosenNode, String outcome, String reason,
                        double decisionMicros) {
    }

    private final int index;
    private final BalancerLogic logic;
    private final GuardedPolicy policy;
    private final RoutingPolicy unguarded;
    private final InformationModel information;
    private final int[] allowed;
    private final ExperimentClock clock;
    private final ObservationBuffer buffer;
    private final Guardrails guardrails;
    private final LoadSnapshot[] latest;
    private final double[] firstUnanswered;
    private final boolean[] unreachable;
    private final boolean[] removed;
    private final long[] routed;
    private static final int MAX_RETRIES = 3;
    private final Map<Long, Long> arrivalNanos = new HashMap<>();
    private final Map<Long, BalancerMessage.Arrival> arrivals = new HashMap<>();
    private final Map<Long, Integer> retries = new HashMap<>();
    private boolean again;
    private final ArrayDeque<Kept> decisions = new ArrayDeque<>();
    private final WrappedEnv env = new WrappedEnv();
    private long current = -1;

    /**
     * @param index balancer index i
     * @param policy the run's policy for this balancer (from the run's assembly); a single-round
     *     {@link SelectionPolicy} gets the guardrails and can be switched live, a multi-round policy
     *     (Sticky-Lazy, strict-po2c) runs as it is
     * @param information the scenario's information model
     * @param allowed node indices this balancer may route to
     * @param nodeCount n
     * @param clock the experiment clock
     * @param buffer where routing latencies go (and, through the actor's sink, every observation)
     * @param guardrails masking settings
     */
    public ClusterBalancerLogic(int index, RoutingPolicy policy, InformationModel information, int[] allowed, int nodeCount,
                                ExperimentClock clock, ObservationBuffer buffer, Guardrails guardrails) {
        this.index = index;
        this.policy = policy instanceof SelectionPolicy sp ? new GuardedPolicy(sp, this, nodeCount) : null;
        this.unguarded = this.policy == null ? policy : null;
        this.information = information;
        this.allowed = allowed.clone();
        this.logic = new BalancerLogic(new BalancerId(index), allowed, nodeCount,
                this.policy != null ? this.policy : policy, information);
        this.clock = clock;
        this.buffer = buffer;
        this.guardrails = guardrails;
        this.latest = new LoadSnapshot[nodeCount];
        this.firstUnanswered = new double[nodeCount];
        Arrays.fill(firstUnanswered, Double.NaN);
        this.unreachable = new boolean[nodeCount];
        this.removed = new boolean[nodeCount];
        this.routed = new long[nodeCount];
    }

    @Override
    public void onStart(Env shell) {
        env.shell = shell;
        logic.onStart(env);
    }

    @Override
    public void on(Message message, Env shell) {
        env.shell = shell;
        if (message instanceof BalancerMessage m) {
            onProtocol(m);
        } else if (message instanceof Control.NodesUnreachable u) {
            Arrays.fill(unreachable, false);
            for (int j : u.nodes()) {
                if (j >= 0 && j < unreachable.length) {
                    unreachable[j] = true;
                }
            }
        } else if (message instanceof Control.NodesRemoved r) {
            onRemoved(r.nodes());
        } else if (message instanceof Control.UsePolicy p && policy != null) {
            policy.setDelegate(p.policy());
            env.metrics().count(clock.now(), "policy_switches", 1);
        } else if (message instanceof Control.ExplainQuery q) {
            q.replyTo().tell(explain(q.member(), q.lastDecisions()));
        }
    }

    private void onProtocol(BalancerMessage m) {
        if (m instanceof BalancerMessage.Arrival a) {
            current = a.id();
            again = retries.containsKey(a.id());
            if (!again) {
                arrivalNanos.put(a.id(), System.nanoTime());
                arrivals.put(a.id(), a);
            }
        } else if (m instanceof BalancerMessage.ProbeReply r) {
            current = r.probeId();
            see(r.load());
            firstUnanswered[r.load().node()] = Double.NaN;
        } else if (m instanceof BalancerMessage.ProbeTimeout t) {
            current = t.requestId();
        } else if (m instanceof BalancerMessage.LoadReport r) {
            see(r.load());
        }
        try {
            logic.on(m, env);
        } finally {
            current = -1;
            again = false;
        }
    }

    private void see(LoadSnapshot s) {
        int j = s.node();
        if (j >= 0 && j < latest.length && (latest[j] == null || latest[j].sampledAt() <= s.sampledAt())) {
            latest[j] = s;
        }
    }

    private void onRemoved(List<Integer> nodes) {
        double now = clock.now();
        for (int j : nodes) {
            if (j < 0 || j >= removed.length || removed[j]) {
                continue;
            }
            removed[j] = true;
            int inFlight = logic.inFlight(j);
            if (inFlight > 0) {
                env.metrics().lost(now, j, inFlight);
            }
        }
    }

    // ---------------------------------------------------------------- guardrails

    @Override
    public boolean gone(int node) {
        LoadSnapshot s = latest[node];
        return removed[node] || unreachable[node] || s != null && !s.available() && s.sampledAt() >= clock.now() - 1.0;
    }

    /** True if some allowed node is not gone: a decision that met only gone nodes is worth another try. */
    private boolean anyAlive() {
        for (int j : allowed) {
            if (!removed[j] && !unreachable[j]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Decides the request again (a new sample) instead of rejecting it or sending it to a
     * removed node, when its candidates were all gone: at most {@value #MAX_RETRIES} times.
     */
    private boolean retry(long request) {
        BalancerMessage.Arrival a = arrivals.get(request);
        int tries = retries.getOrDefault(request, 0);
        if (a == null || tries >= MAX_RETRIES || !anyAlive()) {
            return false;
        }
        retries.put(request, tries + 1);
        env.shell.startTimer(new Object(), 0.0, a);
        env.shell.metrics().count(clock.now(), "cluster_redecisions", 1);
        return true;
    }

    private boolean allGone(GuardedPolicy.Draft d) {
        if (d == null) {
            return false;
        }
        for (int i = 0; i < d.nodes().length; i++) {
            LoadSnapshot s = d.loads()[i];
            double since = firstUnanswered[d.nodes()[i]];
            boolean silent = s == null && !Double.isNaN(since) && clock.now() - since > guardrails.silentAfterSeconds();
            boolean goneNow = gone(d.nodes()[i]) || s != null && !s.available() || silent;
            if (!goneNow) {
                return false;
            }
        }
        return d.nodes().length > 0;
    }

    @Override
    public String maskReason(int node, LoadSnapshot load) {
        if (removed[node]) {
            return "member removed from the cluster";
        }
        if (unreachable[node]) {
            return "unreachable (not listed by the Receptionist)";
        }
        double now = clock.now();
        LoadSnapshot s = load != null ? load : latest[node];
        if (s != null && !s.available()) {
            return "failed (its snapshot says unavailable)";
        }
        if (s != null && s.cpu() > guardrails.maskCpuAbove()) {
            return String.format(Locale.ROOT, "cpu %.2f > %.2f", s.cpu(), guardrails.maskCpuAbove());
        }
        double since = firstUnanswered[node];
        if (!Double.isNaN(since) && now - since > guardrails.silentAfterSeconds()) {
            return String.format(Locale.ROOT, "silent: no probe reply for %.3f s", now - since);
        }
        if (information.kind() == InformationModel.Kind.CACHED && latest[node] != null
                && now - latest[node].sampledAt() > guardrails.staleAfterSeconds()) {
            return String.format(Locale.ROOT, "stale: last report %.1f s old", now - latest[node].sampledAt());
        }
        return null;
    }

    // ---------------------------------------------------------------- decisions

    private void finish(long request, int node, double arrivalTime, String outcome) {
        double now = clock.now();
        GuardedPolicy.Draft d = policy == null ? null : policy.takeDraft();
        Long t0 = arrivalNanos.remove(request);
        arrivals.remove(request);
        retries.remove(request);
        double decision = t0 == null ? Double.NaN : (System.nanoTime() - t0) / 1e9;
        double added = Math.max(0.0, (now - arrivalTime) / clock.timeScale());
        if (!Double.isNaN(decision)) {
            buffer.routing(now, decision, added);
        }
        decisions.addFirst(new Kept(request, now, d, node, outcome, null, decision * 1e6));
        while (decisions.size() > guardrails.decisionsKept()) {
            decisions.removeLast();
        }
    }

    private String reason(Kept k) {
        GuardedPolicy.Draft d = k.draft;
        String name = policyName();
        if (k.outcome.equals("lost")) {
            return "routed to node-" + k.chosenNode + " whose member was removed: the request is lost";
        }
        if (d == null) {
            if (policy == null) {
                return name + (k.chosenNode >= 0 ? " routed to node-" + k.chosenNode : " rejected the request")
                        + " (multi-round policy: no guardrails, candidates not recorded)";
            }
            return k.chosenNode >= 0 ? "no load reports yet: uniform choice among the sampled nodes" : "rejected";
        }
        int masked = 0;
        StringBuilder m = new StringBuilder();
        for (int i = 0; i < d.nodes().length; i++) {
            if (d.maskReasons()[i] != null) {
                masked++;
                m.append(masked == 1 ? "" : "; ").append("node-").append(d.nodes()[i]).append(": ").append(d.maskReasons()[i]);
            }
        }
        String masks = masked == 0 ? "" : " (masked " + m + ")";
        if (k.chosenNode < 0) {
            boolean anyUsable = false;
            for (LoadSnapshot s : d.loads()) {
                anyUsable |= s != null && s.available();
            }
            return (anyUsable ? name + " rejected the request (e.g. best score below its threshold)"
                    : "no usable candidate: no probe reply, or every candidate failed") + masks;
        }
        if (d.failOpen()) {
            return "fail-open: every candidate was masked, " + name + " chose node-" + k.chosenNode + " among all" + masks;
        }
        double score = d.scores().score(d.loads()[0], d.inFlight()[0]);
        String scoreText = Double.isNaN(score) ? "" : String.format(Locale.ROOT, " (score %.4g: %s)", score, d.scores().rule());
        return name + " chose node-" + k.chosenNode + scoreText + " among " + d.nodes().length + " candidate(s)" + masks;
    }

    private Protocol.BalancerExplain explain(String member, int last) {
        double now = clock.now();
        List<Protocol.NodeView> views = new ArrayList<>();
        PolicyScores scores = policy != null ? policy.scores() : PolicyScores.of(unguarded);
        for (int j : allowed) {
            LoadSnapshot s = latest[j];
            String why = maskReason(j, null);
            views.add(new Protocol.NodeView(j, s, s == null ? Double.NaN : now - s.sampledAt(),
                    scores.score(s, logic.inFlight(j)), why != null, why, logic.inFlight(j), routed[j]));
        }
        List<Protocol.Decision> list = new ArrayList<>();
        for (Kept k : decisions) {
            if (list.size() >= last) {
                break;
            }
            List<Protocol.Candidate> cands = new ArrayList<>();
            if (k.draft != null) {
                GuardedPolicy.Draft d = k.draft;
                for (int i = 0; i < d.nodes().length; i++) {
                    LoadSnapshot s = d.loads()[i];
                    cands.add(new Protocol.Candidate(d.nodes()[i], s == null ? -1 : s.queueLength(), s == null ? Double.NaN : s.cpu(),
                            d.scores().score(s, d.inFlight()[i]), d.maskReasons()[i] != null, d.maskReasons()[i]));
                }
            }
            list.add(new Protocol.Decision(k.request, k.at, cands, k.chosenNode, k.outcome, reason(k), k.decisionMicros));
        }
        return new Protocol.BalancerExplain(index, member, policyName(), information.kind().name().toLowerCase(Locale.ROOT),
                scores.rule(), now, views, list);
    }

    /** The current policy's name. */
    public String policyName() {
        return policy != null ? policy.name() : unguarded.name();
    }

    /** True if the policy can be switched live (a single-round policy). */
    public boolean switchable() {
        return policy != null;
    }

    /** The Env the balancer logic sees: the experiment clock, and the interceptions described above. */
    private final class WrappedEnv implements Env {
        Env shell;
        private final MetricsSink sink = new MetricsSink() {
            @Override
            public void arrived(double now, int balancer) {
                if (!again) { // a re-decision is not a new arrival
                    shell.metrics().arrived(now, balancer);
                }
            }

            @Override
            public void decision(double now, int balancer, int queries) {
                shell.metrics().decision(now, balancer, queries);
            }

            @Override
            public void rejected(double now, double arrivalTime) {
                if (current >= 0 && arrivalNanos.containsKey(current)) {
                    if (policy != null && allGone(policy.peekDraft()) && retry(current)) {
                        policy.takeDraft();
                        return; // decided again with a new sample instead
                    }
                    finish(current, -1, arrivalTime, "rejected");
                }
                shell.metrics().rejected(now, arrivalTime);
            }

            @Override
            public void completed(double now, double arrivalTime, int node) {
                shell.metrics().completed(now, arrivalTime, node);
            }

            @Override
            public void lost(double now, int node, int count) {
                shell.metrics().lost(now, node, count);
            }

            @Override
            public void count(double now, String name, long delta) {
                shell.metrics().count(now, name, delta);
            }

            @Override
            public void stateUpdate(double now, int node, int receivers) {
                shell.metrics().stateUpdate(now, node, receivers);
            }

            @Override
            public void messageSent(double now, Message message) {
                shell.metrics().messageSent(now, message);
            }
        };

        @Override
        public double now() {
            return clock.now();
        }

        @Override
        public Address self() {
            return shell.self();
        }

        @Override
        public RandomGenerator random() {
            return shell.random();
        }

        @Override
        public void send(Address to, Message message) {
            if (to instanceof NodeId node && node.index() < removed.length) {
                int j = node.index();
                if (message instanceof NodeMessage.Probe p) {
                    if (removed[j] || unreachable[j]) {
                        // As a refused connection: answered at once, unavailable, never waited for.
                        LoadSnapshot down = new LoadSnapshot(j, 0, 0, 0.0, 0, 0, 0, 0, 1.0, now(), false);
                        shell.startTimer(new Object(), 0.0, new BalancerMessage.ProbeReply(p.probeId(), down));
                        return;
                    }
                    if (Double.isNaN(firstUnanswered[j])) {
                        firstUnanswered[j] = now();
                    }
                } else if (message instanceof NodeMessage.Request r) {
                    if ((removed[j] || unreachable[j]) && retry(r.id())) {
                        if (policy != null) {
                            policy.takeDraft();
                        }
                        return; // fail-open chose a gone node: decide again with a new sample
                    }
                    routed[j]++;
                    if (removed[j]) {
                        finish(r.id(), j, r.arrivalTime(), "lost");
                        shell.metrics().lost(now(), j, 1);
                        return;
                    }
                    finish(r.id(), j, r.arrivalTime(), "routed");
                }
            }
            shell.send(to, message);
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
            shell.startTimer(key, delaySeconds, message);
        }

        @Override
        public void cancelTimer(Object key) {
            shell.cancelTimer(key);
        }

        @Override
        public MetricsSink metrics() {
            return sink;
        }

    }
}

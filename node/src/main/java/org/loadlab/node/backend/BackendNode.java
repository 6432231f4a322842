package org.loadlab.node.backend;

import java.util.random.RandomGenerator;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * A backend node: FCFS queue in front of {@code c} servers of rate μ_j work units/s (a
 * request of demand D takes D/μ_j seconds), CPU/MEM/IO/NET resource state, ASMF feedback
 * correction, probe answers, periodic load reports, and failure / degradation events.
 *
 * <p>Failure loses every queued and in-service request (counted with
 * {@link MetricsSink#lost}, and told one by one to its {@link LostRequests} listener); a failed node neither serves, answers probes nor reports,
 * and requests reaching it are lost too. A crash (of the node's member) stops it the same
 * way but silently: it counts nothing, as a crashed JVM cannot; the balancers count their
 * requests in flight there when membership removes the node. Degradation rescales the
 * remaining work of requests in service. With a heartbeat period the node sends every
 * balancer a {@code Heartbeat}; a heartbeat-loss event silences heartbeats and reports.
 *
 * <p>Every answer carries a {@link ResponseStatus}: OK, ERROR (its {@link ErrorModel} or a chaos
 * {@code error-rate} fault failed the request) or OVERLOADED (its queue was full), and echoes
 * the balancer's routing timestamp. Probe replies and reports carry a latency estimate from
 * the node's recent service times.
 *
 * <p>The resource and feedback state come from {@link NodeLoadState}, the waiting line from
 * {@link WaitingLine}, which this class extends so that they are fields of the node object
 * itself (fewer objects to load per touch at 10^5 nodes).
 *
 * <p>Source: SPEC.md §1 (backend node), seed 000 (resources, feedback).
 */
public final class BackendNode extends WaitingLine<NodeMessage.Request> implements Logic<Message>, ServingNode {
    /** Counter: requests refused by an error-rate chaos fault. */
    public static final String CHAOS_ERRORS = "chaos_errors";
    /** Counter: chaos faults injected. */
    public static final String CHAOS_INJECTIONS = "chaos_injections";
    /** Counter: requests the node failed by its own error rate ({@link ErrorModel}). */
    public static final String NODE_ERRORS = "node_errors";
    /** Weight of the newest service time in the node's running mean (for its latency estimate). */
    private static final double SERVICE_EWMA_WEIGHT = 0.1;

    private final NodeId id;
    private final int index;
    private final double nominalRate;
    private final NodeSettings settings;
    private final ErrorModel errors;
    // c, kept here: the busy check, the busy-servers metric and every probe's latency
    // estimate then read this object only.
    private final int serverCount;
    // Server slot 0 (the only one of the usual node) is these fields of the node itself, not
    // an object of its own: at 10^5 nodes that object was one more cache miss at every
    // request start and completion (docs/performance.md, "The node's own state"). Slots 1..c-1
    // are Server objects in moreServers (empty for c = 1).
    private NodeMessage.Request request0;
    private double startedAt0;
    private double finishAt0;
    private double remainingWork0;
    private final Server[] moreServers;
    // The completion timer key of slot 0 (a Server object is the key of its own slot's timer).
    // Timer keys are per participant, so every node can use the same one.
    private static final Object SLOT0_KEY = new Object();
    private static final NodeMessage.ServiceDone SLOT0_DONE = NodeMessage.ServiceDone.of(0);
    private static final Server[] NO_MORE_SERVERS = new Server[0];
    // Timer keys are per participant (the engine's and Pekko's timers both), so every node can
    // use the same two: two objects less per node at 10^6 nodes.
    private static final Object REPORT_KEY = new Object();
    private static final Object HEARTBEAT_KEY = new Object();
    private RandomGenerator rng;
    private double rate;
    private boolean failed;
    private boolean crashed;
    private boolean quiet;
    private int busy;
    // q_j (waiting + in service), kept beside busy: a probe reads one field, not the waiting
    // line's size (docs/performance.md).
    private int queued;
    // Chaos faults (NodeMessage.InjectFault): pinned CPU, reply latency, error rate, crash.
    private double cpuSpike = Double.NaN;
    private double extraLatency;
    private double errorRate;
    private boolean chaosCrash;
    private java.util.Map<Long, Held> held; // created by the first latency fault (most nodes never have one)
    private long heldSeq;
    // Running mean of recent service times, seconds (NaN before the first completion).
    private double meanService = Double.NaN;
    private LostRequests lostRequests = LostRequests.NONE;

    /**
     * @param id this node's address
     * @param nominalRate μ_j in work units per second, ≥ 0
     * @param settings shared node settings
     * @throws IllegalArgumentException if {@code nominalRate < 0}
     */
    public BackendNode(NodeId id, double nominalRate, NodeSettings settings) {
        this(id, nominalRate, settings, ErrorModel.NONE);
    }

    /**
     * @param id this node's address
     * @param nominalRate μ_j in work units per second, ≥ 0
     * @param settings shared node settings
     * @param errors how often and how this node fails requests
     * @throws IllegalArgumentException if {@code nominalRate < 0}
     */
    public BackendNode(NodeId id, double nominalRate, NodeSettings settings, ErrorModel errors) {
        super(settings.resourcePeriod(), settings.feedback());
        if (!(nominalRate >= 0)) {
            throw new IllegalArgumentException("service rate of " + id + " must be >= 0, was " + nominalRate);
        }
        this.id = id;
        this.index = id.index();
        this.nominalRate = nominalRate;
        this.rate = nominalRate;
        this.settings = settings;
        this.errors = errors;
        int c = settings.servers();
        this.serverCount = c;
        this.moreServers = c > 1 ? new Server[c - 1] : NO_MORE_SERVERS;
        for (int s = 1; s < c; s++) {
            moreServers[s - 1] = new Server(s);
        }
    }

    @Override
    public void onStart(Env env) {
        rng = env.random();
        advanceResources(env.now(), 0, rng);
        env.metrics().busyServers(env.now(), index, 0, serverCount); // an idle node is 0% busy, not unknown
        if (settings.reportPeriod() > 0 && !settings.reportTo().isEmpty()) {
            // A random phase keeps the nodes from reporting in lock step.
            env.startTimer(REPORT_KEY, rng.nextDouble() * settings.reportPeriod(), new NodeMessage.ReportTick());
        }
        if (settings.heartbeatPeriod() > 0 && !settings.reportTo().isEmpty()) {
            env.startTimer(HEARTBEAT_KEY, rng.nextDouble() * settings.heartbeatPeriod(), new NodeMessage.HeartbeatTick());
        }
    }

    /** Starts the report and heartbeat schedules afresh (at a random phase, as at the start). */
    private void restartSchedules(Env env) {
        if (settings.reportPeriod() > 0 && !settings.reportTo().isEmpty()) {
            env.startTimer(REPORT_KEY, rng.nextDouble() * settings.reportPeriod(), new NodeMessage.ReportTick());
        }
        if (settings.heartbeatPeriod() > 0 && !settings.reportTo().isEmpty()) {
            env.startTimer(HEARTBEAT_KEY, rng.nextDouble() * settings.heartbeatPeriod(), new NodeMessage.HeartbeatTick());
        }
    }

    /**
     * Handles one node message (anything else is ignored). Typed {@code Logic<Message>} on
     * purpose: a {@code Logic<NodeMessage>} has a bridge that casts every message to a second
     * interface right after the engine's cast to {@link Message}, and on JDK 17 a class
     * remembers only the last interface it was checked against (JDK-8180450), so the two
     * casts evicted each other on every event (docs/performance.md).
     */
    @Override
    public void on(Message message, Env env) {
        if (rng == null) {
            rng = env.random(); // a message may beat onStart in a shell that starts actors lazily (cluster)
        }
        if (crashed && !(message instanceof NodeMessage.Recover)) {
            return; // a crashed member receives nothing and says nothing
        }
        if (message instanceof NodeMessage.Request r) {
            if (errorRate > 0 && !failed && rng.nextDouble() < errorRate) {
                reply(r.replyTo(), BalancerMessage.Response.to(r, index, ResponseStatus.ERROR), env);
                env.metrics().count(env.now(), CHAOS_ERRORS, 1);
                return;
            }
            if (errors.rate() > 0 && errors.fast() && !failed && rng.nextDouble() < errors.rate()) {
                reply(r.replyTo(), BalancerMessage.Response.to(r, index, ResponseStatus.ERROR), env);
                env.metrics().count(env.now(), NODE_ERRORS, 1);
                return;
            }
            onRequest(r, env);
        } else if (message instanceof NodeMessage.ServiceDone d) {
            onServiceDone(d.slot(), env);
        } else if (message instanceof NodeMessage.Probe p) {
            onProbe(p, env);
        } else if (message instanceof NodeMessage.ReportTick) {
            onReportTick(env);
        } else if (message instanceof NodeMessage.ReportDue due) {
            sendReport(due.snapshot(), env);
        } else if (message instanceof NodeMessage.Fail) {
            onFail(env);
        } else if (message instanceof NodeMessage.Recover) {
            failed = false;
            if (crashed) {
                crashed = false;
                restartSchedules(env); // a crashed member's timers died with it; a restarted one starts them again
            }
        } else if (message instanceof NodeMessage.Degrade d) {
            onDegrade(d.factor(), env);
        } else if (message instanceof NodeMessage.Crash) {
            onCrash(env);
        } else if (message instanceof NodeMessage.SignsOfLife s) {
            quiet = !s.on();
        } else if (message instanceof NodeMessage.HeartbeatTick) {
            onHeartbeatTick(env);
        } else if (message instanceof NodeMessage.InjectFault f) {
            inject(f.fault(), f.value(), env);
        } else if (message instanceof NodeMessage.ClearFaults) {
            clearFaults(env);
        } else if (message instanceof NodeMessage.DelayedSend d) {
            Held h = held == null ? null : held.remove(d.seq());
            if (h != null) {
                env.send(h.to(), h.message());
            }
        }
    }

    private void onRequest(NodeMessage.Request r, Env env) {
        double now = env.now();
        if (failed) {
            env.metrics().lost(now, index, 1);
            lostRequests.lost(r, now);
            return;
        }
        int q = queueLength();
        if (settings.queueCapacity() > 0 && q >= settings.queueCapacity()) {
            reply(r.replyTo(), BalancerMessage.Response.to(r, index, ResponseStatus.OVERLOADED), env);
            return;
        }
        advanceResources(now, q, rng);
        countArrival(now);
        queued++;
        if (busy < serverCount) {
            startService(freeSlot(), r, now, now, env);
        } else {
            addWaiting(r, now);
        }
        env.metrics().queueLength(now, index, q + 1);
    }

    private void onServiceDone(int slot, Env env) {
        double now = env.now();
        NodeMessage.Request done;
        double finishAt;
        double startedAt;
        if (slot == 0) {
            done = request0;
            finishAt = finishAt0;
            startedAt = startedAt0;
        } else {
            Server server = moreServers[slot - 1];
            done = server.request;
            finishAt = server.finishAt;
            startedAt = server.startedAt;
        }
        if (done == null) {
            return;
        }
        // The request finished at finishAt; a live shell may notice a little later. Starting
        // the next request at the true finish time keeps timer lag from inflating service.
        double finished = Math.min(now, finishAt);
        advanceResources(now, queueLength(), rng);
        countCompletion(now);
        setRequest(slot, null);
        busy--;
        queued--;
        double took = finished - startedAt;
        meanService = Double.isNaN(meanService) ? took : meanService + SERVICE_EWMA_WEIGHT * (took - meanService);
        ResponseStatus status = ResponseStatus.OK;
        if (errors.rate() > 0 && !errors.fast() && rng.nextDouble() < errors.rate()) {
            status = ResponseStatus.ERROR; // served in full, then failed
            env.metrics().count(now, NODE_ERRORS, 1);
        }
        reply(done.replyTo(), BalancerMessage.Response.to(done, index, status), env);
        if (queued > busy) { // someone waits (q_j = waiting + busy)
            double since = waitingHeadSince();
            NodeMessage.Request next = pollWaiting();
            startService(slot, next, since, finished, env);
        } else {
            env.metrics().busyServers(now, index, busy, serverCount);
        }
        env.metrics().queueLength(now, index, queueLength());
    }

    private void startService(int slot, NodeMessage.Request r, double enqueued, double start, Env env) {
        setRequest(slot, r);
        busy++;
        env.metrics().serviceStarted(env.now(), index, Math.max(0.0, start - enqueued));
        env.metrics().busyServers(env.now(), index, busy, serverCount);
        if (slot == 0) {
            remainingWork0 = r.demand();
            startedAt0 = start;
            schedule0(start, env);
        } else {
            Server server = moreServers[slot - 1];
            server.remainingWork = r.demand();
            server.startedAt = start;
            schedule(server, start, env);
        }
    }

    /** Arms the completion timer of slot 0 for service that (re)started at {@code start}. */
    private void schedule0(double start, Env env) {
        if (rate > 0) {
            finishAt0 = start + remainingWork0 / rate;
            env.startTimer(SLOT0_KEY, Math.max(0.0, finishAt0 - env.now()), SLOT0_DONE);
        } else {
            finishAt0 = Double.POSITIVE_INFINITY;
            env.cancelTimer(SLOT0_KEY);
        }
    }

    /** Arms the completion timer of a slot ≥ 1 for service that (re)started at {@code start}. */
    private void schedule(Server server, double start, Env env) {
        if (rate > 0) {
            server.finishAt = start + server.remainingWork / rate;
            env.startTimer(server, Math.max(0.0, server.finishAt - env.now()), server.done);
        } else {
            server.finishAt = Double.POSITIVE_INFINITY;
            env.cancelTimer(server);
        }
    }

    private void onDegrade(double factor, Env env) {
        double now = env.now();
        double oldRate = rate;
        rate = nominalRate * factor;
        if (request0 != null) {
            if (oldRate > 0) {
                remainingWork0 = Math.max(0.0, finishAt0 - now) * oldRate;
            }
            schedule0(now, env);
        }
        for (Server server : moreServers) {
            if (server.request != null) {
                if (oldRate > 0) {
                    server.remainingWork = Math.max(0.0, server.finishAt - now) * oldRate;
                }
                schedule(server, now, env);
            }
        }
    }

    private void onProbe(NodeMessage.Probe p, Env env) {
        if (failed) {
            return;
        }
        reply(p.replyTo(), new BalancerMessage.ProbeReply(p.probeId(), snapshot(env.now())), env);
    }

    private void onReportTick(Env env) {
        env.startTimer(REPORT_KEY, settings.reportPeriod(), new NodeMessage.ReportTick());
        if (failed) {
            return;
        }
        LoadSnapshot s = snapshot(env.now());
        if (settings.reportDelay() > 0) {
            env.startTimer(new Object(), settings.reportDelay(), new NodeMessage.ReportDue(s));
        } else {
            sendReport(s, env);
        }
    }

    private void onHeartbeatTick(Env env) {
        env.startTimer(HEARTBEAT_KEY, settings.heartbeatPeriod(), new NodeMessage.HeartbeatTick());
        if (failed || quiet) {
            return;
        }
        BalancerMessage.Heartbeat beat = new BalancerMessage.Heartbeat(index, env.now());
        for (BalancerId b : settings.reportTo()) {
            reply(b, beat, env);
        }
    }

    private void sendReport(LoadSnapshot s, Env env) {
        if (failed || quiet) {
            return;
        }
        BalancerMessage.LoadReport report = new BalancerMessage.LoadReport(s);
        for (BalancerId b : settings.reportTo()) {
            reply(b, report, env);
        }
        env.metrics().stateUpdate(env.now(), index, settings.reportTo().size());
    }

    private void onFail(Env env) {
        if (failed) {
            return;
        }
        if (lostRequests != LostRequests.NONE) {
            tellLost(env.now());
        }
        int lost = stop(env);
        failed = true;
        if (lost > 0) {
            env.metrics().lost(env.now(), index, lost);
        }
        stopped(env);
    }

    private void onCrash(Env env) {
        if (!failed) {
            stop(env);
            stopped(env);
        }
        crashed = true;
        failed = true;
    }

    private void stopped(Env env) {
        env.metrics().busyServers(env.now(), index, 0, serverCount);
        env.metrics().queueLength(env.now(), index, 0);
    }

    /** Tells the listener of every queued and in-service request, in request-id order (they are about to be dropped). */
    private void tellLost(double now) {
        java.util.List<NodeMessage.Request> lost = new java.util.ArrayList<>(queued);
        if (request0 != null) {
            lost.add(request0);
        }
        for (Server server : moreServers) {
            if (server.request != null) {
                lost.add(server.request);
            }
        }
        for (int i = 0; i < waitingSize(); i++) {
            lost.add(waitingAt(i));
        }
        lost.sort(java.util.Comparator.comparingLong(NodeMessage.Request::id));
        for (NodeMessage.Request r : lost) {
            lostRequests.lost(r, now);
        }
    }

    /** Drops every queued and in-service request; returns how many there were. */
    private int stop(Env env) {
        double now = env.now();
        int dropped = queueLength();
        advanceResources(now, dropped, rng); // close the current period with the q it had
        if (request0 != null) {
            env.cancelTimer(SLOT0_KEY);
            request0 = null;
        }
        for (Server server : moreServers) {
            if (server.request != null) {
                env.cancelTimer(server);
                server.request = null;
            }
        }
        clearWaiting();
        busy = 0;
        queued = 0;
        return dropped;
    }

    /** Sends {@code message} to a balancer, {@code extraLatency} seconds late while a latency fault is active. */
    private void reply(BalancerId to, BalancerMessage message, Env env) {
        if (extraLatency > 0) {
            long seq = ++heldSeq;
            if (held == null) {
                held = new java.util.HashMap<>();
            }
            held.put(seq, new Held(to, message));
            env.startTimer(seq, extraLatency, new NodeMessage.DelayedSend(seq));
            return;
        }
        env.send(to, message);
    }

    private void inject(String fault, double value, Env env) {
        switch (fault) {
            case "cpu-spike" -> {
                cpuSpike = value;
                pinResource(0, value);
            }
            case "latency" -> extraLatency = value;
            case "error-rate" -> errorRate = value;
            case "crash" -> {
                chaosCrash = true;
                onFail(env);
            }
            default -> throw new IllegalArgumentException("unknown chaos fault '" + fault + "'; allowed: "
                    + String.join(", ", org.loadlab.node.protocol.ChaosFaults.NAMES));
        }
        env.metrics().count(env.now(), CHAOS_INJECTIONS, 1);
    }

    private void clearFaults(Env env) {
        if (!Double.isNaN(cpuSpike)) {
            pinResource(0, Double.NaN);
            cpuSpike = Double.NaN;
        }
        extraLatency = 0;
        errorRate = 0;
        if (chaosCrash) {
            chaosCrash = false;
            failed = false;
        }
    }

    /** The active chaos faults, e.g. {@code latency=0.200}; empty when none. */
    public java.util.List<String> faults() {
        java.util.List<String> f = new java.util.ArrayList<>();
        if (!Double.isNaN(cpuSpike)) {
            f.add(String.format(java.util.Locale.ROOT, "cpu-spike=%.2f", cpuSpike));
        }
        if (extraLatency > 0) {
            f.add(String.format(java.util.Locale.ROOT, "latency=%.3f", extraLatency));
        }
        if (errorRate > 0) {
            f.add(String.format(java.util.Locale.ROOT, "error-rate=%.2f", errorRate));
        }
        if (chaosCrash) {
            f.add("crash");
        }
        return f;
    }

    /**
     * The node's state now, as a probe reply or report carries it (also the oracle view).
     *
     * @param now current time, seconds
     */
    public LoadSnapshot snapshot(double now) {
        int q = queueLength();
        if (rng != null) { // before onStart (a status query racing the start) the resources keep their first values
            advanceResources(now, q, rng);
        }
        advanceFeedback(now);
        return new LoadSnapshot(index, q, busy, failed ? 0.0 : rate, cpu(), mem(), io(), net(), correction(), now,
                !failed, latencyEstimate(q));
    }

    /**
     * The response time a request arriving now would see: (q_j / c + 1) × the node's recent
     * mean service time (one work unit at μ_j before its first completion); +∞ while failed
     * or stalled.
     */
    private double latencyEstimate(int q) {
        double service = !Double.isNaN(meanService) ? meanService : rate > 0 ? 1.0 / rate : Double.POSITIVE_INFINITY;
        return failed ? Double.POSITIVE_INFINITY : ((double) q / serverCount + 1) * service;
    }

    /** q_j: requests waiting plus in service. */
    public int queueLength() {
        return queued;
    }

    /** Current μ_j in work units per second (nominal × degradation factor). */
    public double serviceRate() {
        return rate;
    }

    /** True once the node has failed (or crashed) and not recovered. */
    public boolean failed() {
        return failed;
    }

    /** True once the node's member has crashed and not recovered. */
    public boolean crashed() {
        return crashed;
    }

    /** This node's address. */
    public NodeId id() {
        return id;
    }

    @Override
    public void lostRequests(LostRequests listener) {
        this.lostRequests = java.util.Objects.requireNonNull(listener, "listener");
    }

    /** A reply held back by a latency fault. */
    private record Held(BalancerId to, BalancerMessage message) {
    }

    /** Puts {@code r} (null: none) in service at {@code slot}. */
    private void setRequest(int slot, NodeMessage.Request r) {
        if (slot == 0) {
            request0 = r;
        } else {
            moreServers[slot - 1].request = r;
        }
    }

    private int freeSlot() {
        if (request0 == null) {
            return 0;
        }
        for (int s = 0; s < moreServers.length; s++) {
            if (moreServers[s].request == null) {
                return s + 1;
            }
        }
        throw new IllegalStateException("no free server slot although busy < servers");
    }

    /**
     * One of the node's servers of slot ≥ 1 (slot 0 is fields of the node): the request in
     * service, its finish time and remaining work (kept for degradation). The object itself
     * is the key of its completion timer.
     */
    private static final class Server {
        final NodeMessage.ServiceDone done;
        NodeMessage.Request request;
        double startedAt;
        double finishAt;
        double remainingWork;

        Server(int slot) {
            this.done = NodeMessage.ServiceDone.of(slot);
        }
    }
}

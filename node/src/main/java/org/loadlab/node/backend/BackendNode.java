package org.loadlab.node.backend;

import java.util.random.RandomGenerator;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * A backend node: FCFS queue in front of {@code c} servers of rate μ_j work units/s (a
 * request of demand D takes D/μ_j seconds), CPU/MEM/IO/NET resource state, ASMF feedback
 * correction, probe answers, periodic load reports, and failure / degradation events.
 *
 * <p>Failure loses every queued and in-service request (counted with
 * {@link MetricsSink#lost}); a failed node neither serves, answers probes nor reports,
 * and requests reaching it are lost too. Degradation rescales the remaining work of
 * requests in service.
 *
 * <p>Source: SPEC.md §1 (backend node), seed 000 (resources, feedback).
 */
public final class BackendNode implements Logic<NodeMessage> {
    private final NodeId id;
    private final int index;
    private final double nominalRate;
    private final NodeSettings settings;
    private final ResourceModel resources;
    private final FeedbackCorrection feedback;
    private final TimedQueue<NodeMessage.Request> waiting = new TimedQueue<>();
    private final Server[] servers;
    private final Object reportKey = new Object();
    private RandomGenerator rng;
    private double rate;
    private boolean failed;
    private int busy;
    // q_j (waiting + in service), kept beside busy: a probe then reads this object only, not
    // the waiting queue, one cache miss fewer per probe at 10^5 nodes (docs/performance.md).
    private int queued;

    /**
     * @param id this node's address
     * @param nominalRate μ_j in work units per second, ≥ 0
     * @param settings shared node settings
     * @throws IllegalArgumentException if {@code nominalRate < 0}
     */
    public BackendNode(NodeId id, double nominalRate, NodeSettings settings) {
        if (!(nominalRate >= 0)) {
            throw new IllegalArgumentException("service rate of " + id + " must be >= 0, was " + nominalRate);
        }
        this.id = id;
        this.index = id.index();
        this.nominalRate = nominalRate;
        this.rate = nominalRate;
        this.settings = settings;
        this.resources = new ResourceModel(settings.resourcePeriod());
        this.feedback = new FeedbackCorrection(settings.feedback());
        int c = settings.servers();
        this.servers = new Server[c];
        for (int s = 0; s < c; s++) {
            servers[s] = new Server(s);
        }
    }

    @Override
    public void onStart(Env env) {
        rng = env.random();
        resources.advance(env.now(), 0, rng);
        env.metrics().busyServers(env.now(), index, 0, servers.length); // an idle node is 0% busy, not unknown
        if (settings.reportPeriod() > 0 && !settings.reportTo().isEmpty()) {
            // A random phase keeps the nodes from reporting in lock step.
            env.startTimer(reportKey, rng.nextDouble() * settings.reportPeriod(), new NodeMessage.ReportTick());
        }
    }

    @Override
    public void on(NodeMessage message, Env env) {
        if (rng == null) {
            rng = env.random(); // a message may beat onStart in a shell that starts actors lazily (cluster)
        }
        if (message instanceof NodeMessage.Request r) {
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
        } else if (message instanceof NodeMessage.Degrade d) {
            onDegrade(d.factor(), env);
        }
    }

    private void onRequest(NodeMessage.Request r, Env env) {
        double now = env.now();
        if (failed) {
            env.metrics().lost(now, index, 1);
            return;
        }
        int q = queueLength();
        if (settings.queueCapacity() > 0 && q >= settings.queueCapacity()) {
            env.send(r.replyTo(), new BalancerMessage.Response(r.id(), index, r.arrivalTime(), false));
            return;
        }
        resources.advance(now, q, rng);
        feedback.arrival(now);
        queued++;
        if (busy < servers.length) {
            startService(freeSlot(), r, now, now, env);
        } else {
            waiting.add(r, now);
        }
        env.metrics().queueLength(now, index, q + 1);
    }

    private void onServiceDone(int slot, Env env) {
        double now = env.now();
        Server server = servers[slot];
        NodeMessage.Request done = server.request;
        if (done == null) {
            return;
        }
        // The request finished at finishAt; a live shell may notice a little later. Starting
        // the next request at the true finish time keeps timer lag from inflating service.
        double finished = Math.min(now, server.finishAt);
        resources.advance(now, queueLength(), rng);
        feedback.completion(now);
        server.request = null;
        busy--;
        queued--;
        env.send(done.replyTo(), new BalancerMessage.Response(done.id(), index, done.arrivalTime(), true));
        if (!waiting.isEmpty()) {
            double since = waiting.headSince();
            NodeMessage.Request next = waiting.poll();
            startService(slot, next, since, finished, env);
        } else {
            env.metrics().busyServers(now, index, busy, servers.length);
        }
        env.metrics().queueLength(now, index, queueLength());
    }

    private void startService(int slot, NodeMessage.Request r, double enqueued, double start, Env env) {
        Server server = servers[slot];
        server.request = r;
        busy++;
        env.metrics().serviceStarted(env.now(), index, Math.max(0.0, start - enqueued));
        env.metrics().busyServers(env.now(), index, busy, servers.length);
        server.remainingWork = r.demand();
        schedule(server, start, env);
    }

    /** Arms the completion timer of {@code slot} for service that (re)started at {@code start}. */
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
        for (Server server : servers) {
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
        env.send(p.replyTo(), new BalancerMessage.ProbeReply(p.probeId(), snapshot(env.now())));
    }

    private void onReportTick(Env env) {
        env.startTimer(reportKey, settings.reportPeriod(), new NodeMessage.ReportTick());
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

    private void sendReport(LoadSnapshot s, Env env) {
        if (failed) {
            return;
        }
        BalancerMessage.LoadReport report = new BalancerMessage.LoadReport(s);
        for (BalancerId b : settings.reportTo()) {
            env.send(b, report);
        }
        env.metrics().stateUpdate(env.now(), index, settings.reportTo().size());
    }

    private void onFail(Env env) {
        if (failed) {
            return;
        }
        double now = env.now();
        int lost = queueLength();
        resources.advance(now, lost, rng); // close the current period with the q it had
        for (Server server : servers) {
            if (server.request != null) {
                env.cancelTimer(server);
                server.request = null;
            }
        }
        waiting.clear();
        busy = 0;
        queued = 0;
        failed = true;
        if (lost > 0) {
            env.metrics().lost(now, index, lost);
        }
        env.metrics().busyServers(now, index, 0, servers.length);
        env.metrics().queueLength(now, index, 0);
    }

    /**
     * The node's state now, as a probe reply or report carries it (also the oracle view).
     *
     * @param now current time, seconds
     */
    public LoadSnapshot snapshot(double now) {
        int q = queueLength();
        resources.advance(now, q, rng);
        feedback.advance(now);
        return new LoadSnapshot(index, q, busy, failed ? 0.0 : rate, resources.cpu(), resources.mem(), resources.io(),
                resources.net(), feedback.correction(), now, !failed);
    }

    /** q_j: requests waiting plus in service. */
    public int queueLength() {
        return queued;
    }

    /** Current μ_j in work units per second (nominal × degradation factor). */
    public double serviceRate() {
        return rate;
    }

    /** True once the node has failed and not recovered. */
    public boolean failed() {
        return failed;
    }

    /** The node's resource model (chaos faults pin resources through it). */
    public ResourceModel resources() {
        return resources;
    }

    /** This node's address. */
    public NodeId id() {
        return id;
    }

    private int freeSlot() {
        for (int s = 0; s < servers.length; s++) {
            if (servers[s].request == null) {
                return s;
            }
        }
        throw new IllegalStateException("no free server slot although busy < servers");
    }

    /**
     * One of the node's c servers: the request in service, its finish time and remaining
     * work (kept for degradation). The object itself is the key of its completion timer.
     */
    private static final class Server {
        final NodeMessage.ServiceDone done;
        NodeMessage.Request request;
        double finishAt;
        double remainingWork;

        Server(int slot) {
            this.done = new NodeMessage.ServiceDone(slot);
        }
    }
}

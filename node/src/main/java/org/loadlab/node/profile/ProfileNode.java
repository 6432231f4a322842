package org.loadlab.node.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.backend.LostRequests;
import org.loadlab.node.backend.NodeSettings;
import org.loadlab.node.backend.ServingNode;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.ChaosFaults;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * A backend node of seed 003's model: no queue, every request is served at once and
 * concurrently, its latency set when it arrives by how busy the node is. With a = active
 * requests (this one included) and the smoothed CPU c in percent:
 * <pre>
 *   latency (ms) = base + 3.5·a^1.3 + (c &gt; 70 ? 8·e^((c−70)/7) : 0) + U(jitter) + chaos extra
 *   CPU target   = clamp(a / capacity · 100 · multiplier, 5, 100);   c ← 0.8·c + 0.2·target
 * </pre>
 * The CPU steps toward its target on every arrival, every completion and every
 * {@code resource-period} (the seed node's 0.1 s heartbeat loop), as the seed's node does; it
 * starts at 5 %. A request fails (HTTP 500) with probability min(0.85, (c − thr)/(100 − thr))
 * when c is above the profile's threshold, decided when it arrives and answered when its
 * latency is over. The request's demand plays no part (the seed's requests are alike).
 *
 * <p>Chaos ({@link NodeMessage.InjectFault}): {@code cpu-spike} pins the CPU (value × 100 %),
 * {@code error-rate} fails each request with that probability before the threshold test,
 * {@code latency} adds value seconds to every request, {@code crash} fails the node. The
 * seed's {@code cpu_spike}, {@code error_spike} and {@code latency} faults, each with its
 * {@code extra_latency_ms}, are combinations of these. Failure, crash, recovery, reports,
 * heartbeats and heartbeat loss behave as {@link org.loadlab.node.backend.BackendNode}'s.
 *
 * <p>Source: seed 003 ({@code backend_node.py}: calculate_cpu, calculate_latency,
 * check_success), SPEC.md §6.
 */
public final class ProfileNode implements ServingNode {
    /** Counter: requests failed by the CPU-threshold error model. */
    public static final String NODE_ERRORS = "node_errors";
    /** Counter: requests failed by an error-rate chaos fault. */
    public static final String CHAOS_ERRORS = "chaos_errors";
    /** Counter: chaos faults injected. */
    public static final String CHAOS_INJECTIONS = "chaos_injections";
    /** CPU of an idle node, percent (the seed's floor and start value). */
    public static final double IDLE_CPU = 5.0;

    private final NodeId id;
    private final int index;
    private final NodeProfile profile;
    private final NodeSettings settings;
    private final Object cpuKey = new Object();
    private final Object reportKey = new Object();
    private final Object heartbeatKey = new Object();
    private final NodeMessage.ReportTick cpuTick = new NodeMessage.ReportTick();
    private final NodeMessage.HeartbeatTick beat = new NodeMessage.HeartbeatTick();
    private Slot[] slots = new Slot[8];
    private int[] free = new int[8];
    private int freeCount;
    private int used;
    private RandomGenerator rng;
    private int active;
    private double cpu = IDLE_CPU;
    private boolean failed;
    private boolean crashed;
    private boolean quiet;
    private double forcedCpu = Double.NaN;
    private double extraLatency;
    private double chaosErrorRate;
    private boolean chaosCrash;
    private LostRequests lostRequests = LostRequests.NONE;

    /**
     * @param id this node's address
     * @param profile its backend profile
     * @param settings reports, heartbeats and the CPU loop's period ({@code resource-period})
     */
    public ProfileNode(NodeId id, NodeProfile profile, NodeSettings settings) {
        this.id = id;
        this.index = id.index();
        this.profile = profile;
        this.settings = settings;
    }

    @Override
    public void onStart(Env env) {
        rng = env.random();
        env.metrics().busyServers(env.now(), index, 0, 1);
        env.startTimer(cpuKey, rng.nextDouble() * settings.resourcePeriod(), cpuTick);
        if (settings.reportPeriod() > 0 && !settings.reportTo().isEmpty()) {
            env.startTimer(reportKey, rng.nextDouble() * settings.reportPeriod(), new NodeMessage.ReportDue(null));
        }
        if (settings.heartbeatPeriod() > 0 && !settings.reportTo().isEmpty()) {
            env.startTimer(heartbeatKey, rng.nextDouble() * settings.heartbeatPeriod(), beat);
        }
    }

    @Override
    public void on(Message message, Env env) {
        if (rng == null) {
            rng = env.random();
        }
        // The node's own loops keep their schedule while it is down, so that it reports again
        // as soon as it recovers (an autoscaled node is held stopped until it is started).
        if (message instanceof NodeMessage.ReportTick) {
            env.startTimer(cpuKey, settings.resourcePeriod(), cpuTick);
            if (!failed) {
                stepCpu();
            }
            return;
        }
        if (message instanceof NodeMessage.ReportDue due && due.snapshot() == null) {
            env.startTimer(reportKey, settings.reportPeriod(), new NodeMessage.ReportDue(null));
            report(env);
            return;
        }
        if (message instanceof NodeMessage.HeartbeatTick) {
            env.startTimer(heartbeatKey, settings.heartbeatPeriod(), beat);
            if (!failed && !quiet) {
                BalancerMessage.Heartbeat h = new BalancerMessage.Heartbeat(index, env.now());
                for (BalancerId b : settings.reportTo()) {
                    env.send(b, h);
                }
            }
            return;
        }
        if (crashed && !(message instanceof NodeMessage.Recover)) {
            return;
        }
        if (message instanceof NodeMessage.Request r) {
            onRequest(r, env);
        } else if (message instanceof NodeMessage.ServiceDone d) {
            onDone(d.slot(), env);
        } else if (message instanceof NodeMessage.ReportDue due) {
            send(due.snapshot(), env);
        } else if (message instanceof NodeMessage.Probe p) {
            if (!failed) {
                env.send(p.replyTo(), new BalancerMessage.ProbeReply(p.probeId(), snapshot(env.now())));
            }
        } else if (message instanceof NodeMessage.Fail) {
            fail(env, true);
        } else if (message instanceof NodeMessage.Crash) {
            fail(env, false);
            crashed = true;
        } else if (message instanceof NodeMessage.Recover) {
            failed = false;
            crashed = false;
        } else if (message instanceof NodeMessage.SignsOfLife s) {
            quiet = !s.on();
        } else if (message instanceof NodeMessage.InjectFault f) {
            inject(f.fault(), f.value(), env);
        } else if (message instanceof NodeMessage.ClearFaults) {
            forcedCpu = Double.NaN;
            extraLatency = 0;
            chaosErrorRate = 0;
            if (chaosCrash) {
                chaosCrash = false;
                failed = false;
            }
        } else if (message instanceof NodeMessage.Degrade) {
            // The seed's model has no service rate to degrade; a degradation is a latency or CPU fault here.
        }
    }

    /** A report is due (the report timer's {@code ReportDue} carries no snapshot: it is taken now). */
    private void report(Env env) {
        if (failed || quiet) {
            return;
        }
        LoadSnapshot s = snapshot(env.now());
        if (settings.reportDelay() > 0) {
            env.startTimer(new Object(), settings.reportDelay(), new NodeMessage.ReportDue(s));
        } else {
            send(s, env);
        }
    }

    private void send(LoadSnapshot s, Env env) {
        if (failed || quiet) {
            return;
        }
        BalancerMessage.LoadReport report = new BalancerMessage.LoadReport(s);
        for (BalancerId b : settings.reportTo()) {
            env.send(b, report);
        }
        env.metrics().stateUpdate(env.now(), index, settings.reportTo().size());
    }

    private void onRequest(NodeMessage.Request r, Env env) {
        double now = env.now();
        if (failed) {
            env.metrics().lost(now, index, 1);
            lostRequests.lost(r, now);
            return;
        }
        active++;
        stepCpu();
        double jitter = profile.jitterMinMs() + (profile.jitterMaxMs() - profile.jitterMinMs()) * rng.nextDouble();
        double latencyMs = latencyMs(active, cpu) + jitter + extraLatency * 1000.0;
        ResponseStatus status = ResponseStatus.OK;
        if (chaosErrorRate > 0 && rng.nextDouble() < chaosErrorRate) {
            status = ResponseStatus.ERROR;
            env.metrics().count(now, CHAOS_ERRORS, 1);
        } else if (cpu > profile.errorCpuThreshold()
                && rng.nextDouble() < errorProbability(cpu, profile.errorCpuThreshold())) {
            status = ResponseStatus.ERROR;
            env.metrics().count(now, NODE_ERRORS, 1);
        }
        int slot = take(r, status, now);
        env.startTimer(slots[slot], latencyMs / 1000.0, slots[slot].done);
        env.metrics().serviceStarted(now, index, 0.0);
        env.metrics().queueLength(now, index, active);
        if (active == 1) {
            env.metrics().busyServers(now, index, 1, 1);
        }
    }

    private void onDone(int slotIndex, Env env) {
        Slot s = slots[slotIndex];
        if (s == null || s.request == null) {
            return;
        }
        double now = env.now();
        NodeMessage.Request r = s.request;
        ResponseStatus status = s.status;
        release(slotIndex);
        active--;
        stepCpu();
        env.send(r.replyTo(), BalancerMessage.Response.to(r, index, status));
        env.metrics().queueLength(now, index, active);
        if (active == 0) {
            env.metrics().busyServers(now, index, 0, 1);
        }
    }

    /** Fails (or crashes, silently: {@code count} false) the node: every active request is lost. */
    private void fail(Env env, boolean count) {
        if (failed) {
            return;
        }
        int lost = active;
        double now = env.now();
        if (count && lostRequests != LostRequests.NONE) {
            tellLost(now);
        }
        for (int i = 0; i < used; i++) {
            if (slots[i] != null && slots[i].request != null) {
                env.cancelTimer(slots[i]);
                release(i);
            }
        }
        active = 0;
        failed = true;
        if (count && lost > 0) {
            env.metrics().lost(now, index, lost);
        }
        env.metrics().queueLength(now, index, 0);
        env.metrics().busyServers(now, index, 0, 1);
    }

    /** Tells the listener of every active request, in request-id order (they are about to be dropped). */
    private void tellLost(double now) {
        List<NodeMessage.Request> lost = new ArrayList<>(active);
        for (int i = 0; i < used; i++) {
            if (slots[i] != null && slots[i].request != null) {
                lost.add(slots[i].request);
            }
        }
        lost.sort(java.util.Comparator.comparingLong(NodeMessage.Request::id));
        for (NodeMessage.Request r : lost) {
            lostRequests.lost(r, now);
        }
    }

    private void inject(String fault, double value, Env env) {
        switch (fault) {
            case "cpu-spike" -> {
                forcedCpu = value * 100.0;
                cpu = forcedCpu;
            }
            case "latency" -> extraLatency = value;
            case "error-rate" -> chaosErrorRate = value;
            case "crash" -> {
                chaosCrash = true;
                fail(env, true);
            }
            default -> throw new IllegalArgumentException("unknown chaos fault '" + fault + "'; allowed: "
                    + String.join(", ", ChaosFaults.NAMES));
        }
        env.metrics().count(env.now(), CHAOS_INJECTIONS, 1);
    }

    /** One step of the CPU toward its target (a pinned CPU stays pinned). */
    private void stepCpu() {
        if (!Double.isNaN(forcedCpu)) {
            cpu = forcedCpu;
            return;
        }
        cpu = 0.8 * cpu + 0.2 * cpuTarget(active, profile);
    }

    /**
     * The CPU target of a node of {@code profile} with {@code active} requests, percent:
     * clamp(active / capacity · 100 · multiplier, 5, 100).
     */
    public static double cpuTarget(int active, NodeProfile profile) {
        double t = active / profile.capacity() * 100.0 * profile.cpuMultiplier();
        return Math.max(IDLE_CPU, Math.min(100.0, t));
    }

    /**
     * The deterministic part of the latency, ms: base + 3.5·active^1.3 + the CPU term
     * 8·e^((cpu−70)/7) above 70 % (jitter and chaos come on top).
     *
     * @param active requests at the node, this one included
     * @param cpuPercent smoothed CPU, percent
     */
    public double latencyMs(int active, double cpuPercent) {
        double cpuTerm = cpuPercent > 70.0 ? 8.0 * Math.exp((cpuPercent - 70.0) / 7.0) : 0.0;
        return profile.baseLatencyMs() + 3.5 * Math.pow(active, 1.3) + cpuTerm;
    }

    /** min(0.85, (cpu − threshold)/(100 − threshold)) for a CPU above the threshold, else 0. */
    public static double errorProbability(double cpuPercent, double threshold) {
        return cpuPercent <= threshold ? 0.0 : Math.min(0.85, (cpuPercent - threshold) / (100.0 - threshold));
    }

    private int take(NodeMessage.Request r, ResponseStatus status, double now) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == slots.length) {
                slots = java.util.Arrays.copyOf(slots, used * 2);
                free = java.util.Arrays.copyOf(free, used * 2);
            }
            slot = used++;
            slots[slot] = new Slot(slot);
        }
        slots[slot].request = r;
        slots[slot].status = status;
        return slot;
    }

    private void release(int slot) {
        slots[slot].request = null;
        free[freeCount++] = slot;
    }

    @Override
    public NodeId id() {
        return id;
    }

    /** The node's profile. */
    public NodeProfile profile() {
        return profile;
    }

    /** Smoothed CPU now, percent. */
    public double cpuPercent() {
        return cpu;
    }

    @Override
    public int queueLength() {
        return active;
    }

    @Override
    public LoadSnapshot snapshot(double now) {
        double estimate = failed ? Double.POSITIVE_INFINITY : (latencyMs(active + 1, cpu) + extraLatency * 1000.0) / 1000.0;
        return new LoadSnapshot(index, active, active, failed ? 0.0 : profile.capacity(), cpu / 100.0, 0, 0, 0, 1.0, now,
                !failed, estimate);
    }

    @Override
    public List<String> faults() {
        List<String> f = new ArrayList<>();
        if (!Double.isNaN(forcedCpu)) {
            f.add(String.format(Locale.ROOT, "cpu-spike=%.2f", forcedCpu / 100.0));
        }
        if (extraLatency > 0) {
            f.add(String.format(Locale.ROOT, "latency=%.3f", extraLatency));
        }
        if (chaosErrorRate > 0) {
            f.add(String.format(Locale.ROOT, "error-rate=%.2f", chaosErrorRate));
        }
        if (chaosCrash) {
            f.add("crash");
        }
        return f;
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public boolean crashed() {
        return crashed;
    }

    @Override
    public void lostRequests(LostRequests listener) {
        this.lostRequests = java.util.Objects.requireNonNull(listener, "listener");
    }

    /** One active request: the request, the status decided on arrival, and its completion timer's message (the slot is the key). */
    private static final class Slot {
        final NodeMessage.ServiceDone done;
        NodeMessage.Request request;
        ResponseStatus status;

        Slot(int index) {
            this.done = NodeMessage.ServiceDone.of(index);
        }
    }
}

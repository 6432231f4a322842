package org.loadlab.balancer.lints;

import java.util.List;
import org.loadlab.balancer.control.ControlMessage;
import org.loadlab.balancer.control.FleetView;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * Seed 003's control plane, separate from the routing path: it gathers the balancers'
 * outcome reports into a {@link RewardWindow} and, every {@code interval} seconds, builds each
 * member node's context (CPU, queue, recent p99, the global request rate and its change),
 * closes the window, updates the {@link LinTsModel} with the previous contexts, draws new
 * weights and publishes them with their time to every balancer ({@link BalancerMessage.Weights}).
 * In the simulation it is an entity with a timer; in the Pekko shells its own actor (one for
 * every balancer of a cluster).
 *
 * <p>Counters: {@code lints_updates} (control steps), {@code lints_arm_updates} (node models
 * updated).
 *
 * <p>Source: seed 003 ({@code agent.py} {@code _run_loop}), SPEC.md §6.
 */
public final class LinTsControlPlane implements Logic<ControlMessage> {
    /** Counter: control steps (weights published). */
    public static final String UPDATES = "lints_updates";
    /** Counter: node models updated with a reward. */
    public static final String ARM_UPDATES = "lints_arm_updates";
    /** CPU assumed of a member node no balancer has a load of yet, percent (the seed's default). */
    static final double UNKNOWN_CPU = 10.0;

    private static final ControlMessage.Tick TICK = new ControlMessage.Tick();

    private final LinTsSettings settings;
    private final LinTsModel model;
    private final RewardWindow window;
    private final FleetView fleet;
    private final List<BalancerId> balancers;
    private final int nodeCount;
    private long arrivals;
    private double lastTick;
    private double previousRate;
    private long version;
    private double[] lastWeights = new double[0];
    private double lastPublished = Double.NaN;

    /**
     * @param settings the loop's parameters
     * @param nodeCount node indices 0..n−1 (every node that may ever join)
     * @param balancers the balancers it serves (they report to it; it publishes to them)
     */
    public LinTsControlPlane(LinTsSettings settings, int nodeCount, List<BalancerId> balancers) {
        this.settings = settings;
        this.nodeCount = nodeCount;
        this.model = new LinTsModel(settings, nodeCount);
        this.window = new RewardWindow(nodeCount, settings.slaLatency() * 1000.0);
        this.fleet = new FleetView(nodeCount, balancers.size());
        this.balancers = List.copyOf(balancers);
    }

    @Override
    public void onStart(Env env) {
        lastTick = env.now();
        env.startTimer(TICK, settings.interval(), TICK);
    }

    @Override
    public void on(ControlMessage message, Env env) {
        if (message instanceof ControlMessage.Feedback f) {
            fleet.update(f);
            arrivals += f.arrivals();
            for (int i = 0; i < f.outcomes(); i++) {
                window.record(f.nodes()[i], f.latencyMs()[i], f.failed()[i]);
            }
        } else if (message instanceof ControlMessage.Tick) {
            env.startTimer(TICK, settings.interval(), TICK);
            step(env);
        }
    }

    /** One control step: contexts, window, model update, new weights, publication. */
    private void step(Env env) {
        double now = env.now();
        double elapsed = now - lastTick;
        double rate = elapsed > 0 ? arrivals / elapsed : 0;
        double rateChange = (rate - previousRate) / settings.interval();
        previousRate = rate;
        arrivals = 0;
        lastTick = now;
        double[][] contexts = new double[nodeCount][];
        for (int j = 0; j < nodeCount; j++) {
            if (!fleet.member(j)) {
                continue;
            }
            LoadSnapshot s = fleet.load(j);
            double cpu = s == null ? UNKNOWN_CPU : s.cpu() * 100.0;
            double queue = s == null ? 0 : s.queueLength();
            contexts[j] = ContextVector.of(cpu, queue, window.recentP99(j), rate, rateChange);
        }
        int updated = model.update(window.flush());
        double[] w = model.weights(contexts, env.random());
        lastWeights = w;
        lastPublished = now;
        BalancerMessage.Weights published = new BalancerMessage.Weights(++version, now, w);
        for (BalancerId b : balancers) {
            env.send(b, published);
        }
        env.metrics().count(now, UPDATES, 1);
        if (updated > 0) {
            env.metrics().count(now, ARM_UPDATES, updated);
        }
    }

    /** The model (B, f, θ̂ per node). */
    public LinTsModel model() {
        return model;
    }

    /** The reward window (recent p99, error and breach rates per node). */
    public RewardWindow window() {
        return window;
    }

    /** The weights published last (empty before the first step). */
    public double[] lastWeights() {
        return lastWeights.clone();
    }

    /** When the last weights were published, seconds (NaN before the first). */
    public double lastPublished() {
        return lastPublished;
    }

    /** Weights published so far. */
    public long version() {
        return version;
    }

    /** The loop's parameters. */
    public LinTsSettings settings() {
        return settings;
    }
}

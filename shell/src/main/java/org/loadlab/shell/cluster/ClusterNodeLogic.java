package org.loadlab.shell.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;

/**
 * The cluster's backend node: the very {@link BackendNode} of the simulation on the
 * experiment clock, plus chaos faults (POST /chaos/inject) applied around it:
 * <ul>
 *   <li>{@code cpu-spike}: CPU pinned to the given level (default 0.99) through the node's
 *       resource model, so probes and reports show it (ASMF scores and the CPU guardrail react);</li>
 *   <li>{@code latency}: every reply (response, probe reply, load report) leaves the given
 *       number of scenario seconds later (default 0.05), as a slow link or a stalled process;</li>
 *   <li>{@code error-rate}: each request is refused at once with the given probability
 *       (default 0.5), answered {@code served = false} (counted as rejected, and in the
 *       {@code chaos_errors} counter);</li>
 *   <li>{@code crash}: the node fails as a scripted {@code fail} event does (queued and
 *       in-service requests lost and counted, no probe replies) until cleared.</li>
 * </ul>
 * {@code clear} removes all of them (a crashed node recovers with an empty queue).
 */
public final class ClusterNodeLogic implements Logic<Message> {
    /** The fault names POST /chaos/inject accepts. */
    public static final List<String> FAULTS = List.of("cpu-spike", "latency", "error-rate", "crash");

    private record Pending(Address to, Message message) {
    }

    private final BackendNode node;
    private final int index;
    private final double nominalRate;
    private final ExperimentClock clock;
    private final RandomGenerator chaos;
    private final Map<Long, Pending> delayed = new HashMap<>();
    private final WrappedEnv env = new WrappedEnv();
    private double cpuLevel = Double.NaN;
    private double extraLatency;
    private double errorRate;
    private boolean crashed;
    private long seq;

    /**
     * @param node the run's node j (from the run's assembly)
     * @param nominalRate its nominal μ_j
     * @param clock the experiment clock
     * @param chaosSeed seed of the stream deciding which requests an error-rate fault refuses
     */
    public ClusterNodeLogic(BackendNode node, double nominalRate, ExperimentClock clock, long chaosSeed) {
        this.node = node;
        this.index = node.id().index();
        this.nominalRate = nominalRate;
        this.clock = clock;
        this.chaos = new SplittableRandom(chaosSeed);
    }

    /** Default parameter of {@code fault} when the request gives none. */
    public static double defaultValue(String fault) {
        return switch (fault) {
            case "cpu-spike" -> 0.99;
            case "latency" -> 0.05;
            case "error-rate" -> 0.5;
            default -> 0.0;
        };
    }

    /**
     * Checks a fault's parameter.
     *
     * @return null if fine, else what is allowed
     */
    public static String checkValue(String fault, double value) {
        return switch (fault) {
            case "cpu-spike" -> value >= 0 && value <= 1 ? null : "a CPU level in [0, 1]";
            case "latency" -> value >= 0 && value <= 60 ? null : "extra scenario seconds in [0, 60]";
            case "error-rate" -> value >= 0 && value <= 1 ? null : "a probability in [0, 1]";
            default -> null;
        };
    }

    @Override
    public void onStart(Env shell) {
        env.shell = shell;
        node.onStart(env);
    }

    @Override
    public void on(Message message, Env shell) {
        env.shell = shell;
        if (message instanceof NodeMessage.Request r && errorRate > 0 && !node.failed() && chaos.nextDouble() < errorRate) {
            env.send(r.replyTo(), new BalancerMessage.Response(r.id(), index, r.arrivalTime(), false));
            env.metrics().count(clock.now(), "chaos_errors", 1);
        } else if (message instanceof NodeMessage m) {
            node.on(m, env);
        } else if (message instanceof Control.DelayedSend d) {
            Pending p = delayed.remove(d.seq());
            if (p != null) {
                shell.send(p.to(), p.message());
            }
        } else if (message instanceof Control.InjectFault f) {
            inject(f.fault(), f.value());
        } else if (message instanceof Control.ClearFaults) {
            clear();
        } else if (message instanceof Control.NodeStatusQuery q) {
            q.replyTo().tell(new Protocol.NodeStatus(index, q.member(), node.failed() ? "failed" : "up",
                    node.snapshot(clock.now()), nominalRate, faults()));
        }
    }

    private void inject(String fault, double value) {
        switch (fault) {
            case "cpu-spike" -> {
                cpuLevel = value;
                node.resources().pin(0, value);
            }
            case "latency" -> extraLatency = value;
            case "error-rate" -> errorRate = value;
            case "crash" -> {
                crashed = true;
                node.on(new NodeMessage.Fail(), env);
            }
            default -> {
                return;
            }
        }
        env.metrics().count(clock.now(), "chaos_injections", 1);
    }

    private void clear() {
        if (!Double.isNaN(cpuLevel)) {
            node.resources().pin(0, Double.NaN);
            cpuLevel = Double.NaN;
        }
        extraLatency = 0;
        errorRate = 0;
        if (crashed) {
            crashed = false;
            node.on(new NodeMessage.Recover(), env);
        }
    }

    /** Active faults, e.g. {@code latency=0.2}. */
    public List<String> faults() {
        List<String> f = new ArrayList<>();
        if (!Double.isNaN(cpuLevel)) {
            f.add(String.format(Locale.ROOT, "cpu-spike=%.2f", cpuLevel));
        }
        if (extraLatency > 0) {
            f.add(String.format(Locale.ROOT, "latency=%.3f", extraLatency));
        }
        if (errorRate > 0) {
            f.add(String.format(Locale.ROOT, "error-rate=%.2f", errorRate));
        }
        if (crashed) {
            f.add("crash");
        }
        return f;
    }

    /** The Env the node sees: the experiment clock, replies delayed while a latency fault is active. */
    private final class WrappedEnv implements Env {
        Env shell;

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
            if (extraLatency > 0 && to instanceof BalancerId) {
                long s = ++seq;
                delayed.put(s, new Pending(to, message));
                shell.startTimer(s, extraLatency, new Control.DelayedSend(s));
                return;
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
            return shell.metrics();
        }

    }
}

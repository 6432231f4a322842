package org.loadlab.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.information.ProbeModel;
import org.loadlab.balancer.pipeline.PipelinePolicy;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.kernel.Address;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One routing decision of the bench workload (p2c, probe model), at two depths:
 * {@code choose} is the policy alone (the shorter of two probed queues, ties at random);
 * {@code balancerRoundTrip} is the balancer core handling one request end to end, outside
 * any engine: the arrival (two probes sent, a probe timeout started), both probe replies
 * (the timeout cancelled, the request sent) and the response. Score: ns per decision; with
 * {@code -prof gc} the bytes each allocates (the messages are records, so a decision
 * allocates them; the rest is the balancer's pending-decision bookkeeping).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class RoutingDecisionBenchmark {
    /** Cluster size n (the balancer's per-node arrays). */
    @Param({"100", "100000"})
    public int n;

    private final SplittableRandom rng = new SplittableRandom(11);
    private PipelinePolicy p2c;
    private Candidates candidates;
    private final int[] nodes = new int[2];
    private final LoadSnapshot[] loads = new LoadSnapshot[2];
    private LoadSnapshot[] snapshots;
    private BalancerLogic balancer;
    private CapturingEnv env;
    private long requestId;

    /** Builds the policy, the balancer and a snapshot per node with a random queue length. */
    @Setup
    public void setUp() {
        p2c = (PipelinePolicy) PolicyCatalog.instantiate("p2c", PolicyParameters.DEFAULTS, null);
        candidates = new Candidates(new int[n]);
        snapshots = new LoadSnapshot[n];
        for (int j = 0; j < n; j++) {
            snapshots[j] = new LoadSnapshot(j, rng.nextInt(4), 1, 1.0, 0.5, 0.4, 0.3, 0.2, 1.0, 0.0, true);
        }
        int[] allowed = new int[n];
        for (int j = 0; j < n; j++) {
            allowed[j] = j;
        }
        RoutingPolicy policy = PolicyCatalog.instantiate("p2c", PolicyParameters.DEFAULTS, null);
        balancer = new BalancerLogic(new BalancerId(0), allowed, n, policy, new ProbeModel(0.05));
        env = new CapturingEnv(rng);
    }

    /** The policy's choice between two probed nodes. */
    @Benchmark
    public int choose() {
        int a = rng.nextInt(n);
        int b = rng.nextInt(n);
        nodes[0] = a;
        nodes[1] = b;
        loads[0] = snapshots[a];
        loads[1] = snapshots[b];
        return p2c.choose(candidates.reset(nodes, loads, null, 2), rng);
    }

    /** Arrival, two replies, response: one request through the balancer core. */
    @Benchmark
    public int balancerRoundTrip() {
        long id = requestId++;
        env.sent = 0;
        balancer.on(new BalancerMessage.Arrival(id, 1.0, 0.0), env);
        int first = env.to[0];
        int second = env.to[1];
        balancer.on(new BalancerMessage.ProbeReply(id, snapshots[first]), env);
        balancer.on(new BalancerMessage.ProbeReply(id, snapshots[second]), env);
        int chosen = env.to[2];
        balancer.on(new BalancerMessage.Response(id, chosen, 0.0, true), env);
        return chosen;
    }

    /** An Env that remembers where the last messages went and ignores timers. */
    private static final class CapturingEnv implements Env {
        private static final BalancerId SELF = new BalancerId(0);
        final int[] to = new int[4];
        int sent;
        private final RandomGenerator rng;

        CapturingEnv(RandomGenerator rng) {
            this.rng = rng;
        }

        @Override
        public double now() {
            return 0.0;
        }

        @Override
        public Address self() {
            return SELF;
        }

        @Override
        public RandomGenerator random() {
            return rng;
        }

        @Override
        public void send(Address to, Message message) {
            if (message instanceof NodeMessage) {
                this.to[sent++ & 3] = to.index();
            }
        }

        @Override
        public void startTimer(Object key, double delaySeconds, Message message) {
        }

        @Override
        public void cancelTimer(Object key) {
        }

        @Override
        public MetricsSink metrics() {
            return MetricsSink.NONE;
        }
    }
}

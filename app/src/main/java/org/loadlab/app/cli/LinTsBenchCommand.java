package org.loadlab.app.cli;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.information.CachedModel;
import org.loadlab.balancer.lints.ContextVector;
import org.loadlab.balancer.lints.LinTsModel;
import org.loadlab.balancer.lints.LinTsSettings;
import org.loadlab.balancer.lints.RewardWindow;
import org.loadlab.balancer.policy.LinTsPolicy;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.sim.LatencyModel;
import org.loadlab.kernel.sim.SimEngine;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab bench-lints}: measures seed 003's costs as ratios in one process (the
 * machine is shared and noisy): the data-plane decision of {@code lin-ts} (a draw by the
 * published weights) against {@code p2c} (two cached reads), each on the real balancer core
 * and simulation engine with silent nodes; and one control-plane step (contexts, model
 * update, posterior draws, softmax) at 10 and 1,000 nodes.
 */
@Command(name = "bench-lints", mixinStandardHelpOptions = true,
        description = "Benchmark seed 003: lin-ts vs p2c decision cost, LinTS control step at 10 and 1000 nodes.")
final class LinTsBenchCommand implements Callable<Integer> {
    @Option(names = "--decisions", defaultValue = "2000000", paramLabel = "N", description = "Decisions per measured round.")
    private int decisions;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N", description = "Measured rounds (after one warm-up).")
    private int rounds;

    /** A node that takes requests and says nothing (the decision is what is measured). */
    private static final class Silent implements Logic<Message> {
        @Override
        public void on(Message message, Env env) {
        }
    }

    private double nsPerDecision(String policy, int nodes) {
        SimEngine engine = new SimEngine(1, nodes, 1, 0, new LatencyModel(0, 0), MetricsSink.NONE);
        int[] allowed = new int[nodes];
        double[] mu = new double[nodes];
        for (int j = 0; j < nodes; j++) {
            allowed[j] = j;
            mu[j] = 100;
            engine.register(NodeId.of(j), new Silent());
        }
        BalancerLogic b = new BalancerLogic(new BalancerId(0), allowed, nodes,
                policy.equals("lin-ts") ? new LinTsPolicy(1e12) : PolicyCatalog.instantiate(policy, PolicyParameters.DEFAULTS, mu),
                new CachedModel(nodes));
        engine.register(new BalancerId(0), b);
        double[] w = new double[nodes];
        for (int j = 0; j < nodes; j++) {
            w[j] = 1.0 / nodes;
            engine.schedule(0, new BalancerId(0), new BalancerMessage.LoadReport(
                    new LoadSnapshot(j, j % 7, 1, 100, 0.3, 0, 0, 0, 1, 0, true)));
        }
        engine.schedule(0, new BalancerId(0), new BalancerMessage.Weights(1, 0, w));
        for (int i = 0; i < decisions; i++) {
            engine.schedule(1e-6 * (i + 1), new BalancerId(0), new BalancerMessage.Arrival(i, 1, 1e-6 * (i + 1)));
        }
        long t0 = System.nanoTime();
        engine.run(() -> false, Double.POSITIVE_INFINITY);
        return (System.nanoTime() - t0) / (double) decisions;
    }

    private static double usPerControlStep(int nodes, int steps) {
        LinTsModel model = new LinTsModel(LinTsSettings.DEFAULTS, nodes);
        SplittableRandom rng = new SplittableRandom(1);
        double[][] contexts = new double[nodes][];
        RewardWindow.NodeFeedback[] fb = new RewardWindow.NodeFeedback[nodes];
        for (int j = 0; j < nodes; j++) {
            contexts[j] = ContextVector.of(30 + j % 50, j % 9, 40 + j % 30, 500, 3);
            fb[j] = new RewardWindow.NodeFeedback(j, 10, 40 + j % 30, 0.01, 0.02);
        }
        long t0 = System.nanoTime();
        double sink = 0;
        for (int s = 0; s < steps; s++) {
            model.update(fb);
            sink += model.weights(contexts, rng)[0];
        }
        if (sink < -1) {
            System.out.print("");
        }
        return (System.nanoTime() - t0) / 1e3 / steps;
    }

    @Override
    public Integer call() {
        if (decisions < 1000 || rounds < 1) {
            throw new BadInputException("--decisions >= 1000 and --rounds >= 1, were " + decisions + ", " + rounds);
        }
        nsPerDecision("lin-ts", 10);
        nsPerDecision("p2c", 10);
        for (int nodes : List.of(10, 100)) {
            double[] l = new double[rounds];
            double[] p = new double[rounds];
            for (int r = 0; r < rounds; r++) { // interleaved, so drift on a shared machine hits both alike
                l[r] = nsPerDecision("lin-ts", nodes);
                p[r] = nsPerDecision("p2c", nodes);
            }
            java.util.Arrays.sort(l);
            java.util.Arrays.sort(p);
            double lm = l[rounds / 2];
            double pm = p[rounds / 2];
            System.out.printf(Locale.ROOT, "decision, %d nodes: lin-ts %.0f ns, p2c (cached) %.0f ns per decision (median of %d"
                    + " rounds of %d, engine included); ratio lin-ts/p2c %.2f%n", nodes, lm, pm, rounds, decisions, lm / pm);
        }
        usPerControlStep(10, 2000);
        usPerControlStep(1000, 20);
        double small = usPerControlStep(10, 20_000);
        double large = usPerControlStep(1000, 200);
        System.out.printf(Locale.ROOT, "control step (update + draw + softmax): 10 nodes %.1f us, 1000 nodes %.0f us"
                + " (%.2f ms; the loop's budget is 150 ms); per node %.2f vs %.2f us%n", small, large, large / 1000, small / 10,
                large / 1000);
        return 0;
    }
}

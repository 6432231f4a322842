package org.loadlab.experiment.run;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The fixed part of a run drawn from the scenario's topology seed: each node's nominal
 * service rate μ_j and each balancer's allowed set. The same for every run seed, so that
 * seeds vary only the stochastic workload and the policies' own randomness; with
 * {@code nodes.speeds-per-seed} the μ_j are drawn from the run seed instead (as if it were
 * the topology seed), so each seed is a new cluster (seed 001's seeded trials), while the
 * allowed sets stay those of the topology seed.
 *
 * @param serviceRates μ_j per node, work units/s
 * @param allowed allowed node indices per balancer (sorted)
 */
public record Topology(double[] serviceRates, int[][] allowed) {

    /**
     * Draws the topology of {@code scenario} from its topology seed (for every run seed
     * unless {@code nodes.speeds-per-seed}; then see {@link #of(Scenario, long)}).
     */
    public static Topology of(Scenario scenario) {
        return draw(scenario, scenario.topologySeed());
    }

    /**
     * Draws the topology of one run: μ_j from {@code runSeed} when the scenario sets
     * {@code nodes.speeds-per-seed}, else from the topology seed; allowed sets from the
     * topology seed.
     *
     * @param scenario the scenario
     * @param runSeed the run's master seed
     */
    public static Topology of(Scenario scenario, long runSeed) {
        return draw(scenario, scenario.nodes().speedsPerSeed() ? runSeed : scenario.topologySeed());
    }

    private static Topology draw(Scenario scenario, long speedSeed) {
        Scenario.Nodes nodes = scenario.nodes();
        int n = nodes.count();
        double[] mu = new double[n];
        RandomGenerator rates = StreamSeeds.stream(speedSeed, StreamSeeds.TOPOLOGY, 0);
        for (int j = 0; j < n; j++) {
            mu[j] = nodes.rateDistribution().equals("uniform")
                    ? nodes.rateMin() + (nodes.rateMax() - nodes.rateMin()) * rates.nextDouble()
                    : nodes.rateValue();
        }
        int b = scenario.balancers().count();
        int size = scenario.balancers().allowedSize(n);
        int[][] allowed = new int[b][];
        for (int i = 0; i < b; i++) {
            allowed[i] = size == n ? identity(n) : subset(n, size, StreamSeeds.stream(scenario.topologySeed(), StreamSeeds.TOPOLOGY, 1 + i));
        }
        return new Topology(mu, allowed);
    }

    /** Σ c·μ_j over all nodes: the cluster's service capacity in work units/s. */
    public double capacity(int servers) {
        double sum = 0;
        for (double m : serviceRates) {
            sum += m;
        }
        return sum * servers;
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static int[] subset(int n, int size, RandomGenerator rng) {
        int[] a = identity(n);
        for (int i = 0; i < size; i++) {
            int j = i + rng.nextInt(n - i);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        int[] out = Arrays.copyOf(a, size);
        Arrays.sort(out);
        return out;
    }
}

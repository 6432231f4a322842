package org.loadlab.experiment.run;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The fixed part of a run drawn from the scenario's topology seed: each node's nominal
 * service rate μ_j and each balancer's allowed set. The same for every run seed, so that
 * seeds vary only the stochastic workload and the policies' own randomness.
 *
 * @param serviceRates μ_j per node, work units/s
 * @param allowed allowed node indices per balancer (sorted)
 */
public record Topology(double[] serviceRates, int[][] allowed) {

    /** Draws the topology of {@code scenario}. */
    public static Topology of(Scenario scenario) {
        Scenario.Nodes nodes = scenario.nodes();
        int n = nodes.count();
        double[] mu = new double[n];
        RandomGenerator rates = StreamSeeds.stream(scenario.topologySeed(), StreamSeeds.TOPOLOGY, 0);
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

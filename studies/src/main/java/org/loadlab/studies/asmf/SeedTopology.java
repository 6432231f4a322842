package org.loadlab.studies.asmf;

import org.loadlab.experiment.scenario.Scenario;

/**
 * The ASMF seed's topology ({@code build_default_topology} in its {@code simulator.py};
 * SPEC.md §4), drawn from a {@link PythonRandom} seeded with the scenario's
 * {@code topology-seed} (the seed: 7) in the seed's order: for each backend b1..bB its
 * initial queue (integer 1..{@code reference.initial-queue-max}), μ U(min, max), then its
 * initial cpu U(.25, .55), mem U(.20, .50), io U(.15, .45) and net U(.15, .50); then for
 * each frontend f1..fF its allowed list of max(4, ⌊0.66·B⌋) backends sampled without
 * replacement, kept in draw order. With a constant service rate μ is not drawn.
 *
 * @param initialQueue initial queue of each backend, work units
 * @param mu nominal service rate of each backend, work units/s
 * @param cpu initial CPU utilisation of each backend
 * @param mem initial memory utilisation
 * @param io initial IO utilisation
 * @param net initial network utilisation
 * @param allowed each frontend's allowed backends (indices), in the order they were drawn
 */
record SeedTopology(long[] initialQueue, double[] mu, double[] cpu, double[] mem, double[] io, double[] net,
                    int[][] allowed) {

    /** Draws the topology of scenario {@code s}. */
    static SeedTopology draw(Scenario s) {
        PythonRandom rng = new PythonRandom(s.topologySeed());
        int b = s.nodes().count();
        long[] q = new long[b];
        double[] mu = new double[b];
        double[] cpu = new double[b];
        double[] mem = new double[b];
        double[] io = new double[b];
        double[] net = new double[b];
        boolean uniform = s.nodes().rateDistribution().equals("uniform");
        for (int j = 0; j < b; j++) {
            q[j] = rng.randint(1, s.reference().initialQueueMax());
            mu[j] = uniform ? rng.uniform(s.nodes().rateMin(), s.nodes().rateMax()) : s.nodes().rateValue();
            cpu[j] = rng.uniform(0.25, 0.55);
            mem[j] = rng.uniform(0.20, 0.50);
            io[j] = rng.uniform(0.15, 0.45);
            net[j] = rng.uniform(0.15, 0.50);
        }
        int[] backends = new int[b];
        for (int j = 0; j < b; j++) {
            backends[j] = j;
        }
        int size = s.balancers().allowedSize(b);
        int[] pool = new int[b];
        int[][] allowed = new int[s.balancers().count()][size];
        for (int[] list : allowed) {
            rng.sample(backends, b, size, list, pool);
        }
        return new SeedTopology(q, mu, cpu, mem, io, net, allowed);
    }
}

package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab bench}: measures the simulation kernel, single-threaded: simulated
 * events per second and requests per second for a policy (default p2c with the probe
 * model) at utilisation ρ over clusters of each size n, after a JIT warm-up run.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Measure simulation speed (events/s, requests/s) for one policy at several cluster sizes.")
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--nodes", split = ",", paramLabel = "n,n,...", defaultValue = "100,10000,100000",
            description = "Cluster sizes (default 100,10000,100000).")
    private List<Integer> nodes;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "1000000", description = "Requests per run (default 1000000).")
    private long requests;

    @Option(names = "--utilisation", paramLabel = "RHO", defaultValue = "0.9", description = "Utilisation rho (default 0.9).")
    private double utilisation;

    @Option(names = "--policy", paramLabel = "NAME", defaultValue = "p2c", description = "Policy (default p2c).")
    private String policy;

    @Option(names = "--model", paramLabel = "probe|cached|oracle", defaultValue = "probe", description = "Information model (default probe).")
    private String model;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Further scenario overrides (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        if (requests < 1) {
            throw new BadInputException("--requests = " + requests + ": must be >= 1");
        }
        for (int n : nodes) {
            if (n < 2) {
                throw new BadInputException("--nodes contains " + n + ": each size must be >= 2");
            }
        }
        System.out.printf(Locale.ROOT, "Benchmark: %s, %s model, utilisation %.2f, exp(1) demand, Poisson arrivals, one thread%n",
                policy, model, utilisation);
        run(scenario(100, Math.min(requests, 1_000_000))); // JIT warm-up, not reported
        System.out.printf("%10s %12s %12s %9s %14s %14s %12s %10s%n",
                "nodes", "requests", "events", "wall_s", "events/s", "requests/s", "ns/request", "heap_MB");
        for (int n : nodes) {
            Runtime rt = Runtime.getRuntime();
            System.gc();
            SimulationRunner.Outcome o = run(scenario(n, requests));
            long heap = (rt.totalMemory() - rt.freeMemory()) >> 20;
            long done = o.result().metrics().requestsArrived();
            System.out.printf(Locale.ROOT, "%10d %12d %12d %9.2f %14.0f %14.0f %12.0f %10d%n", n, done, o.events(),
                    o.wallSeconds(), o.events() / o.wallSeconds(), done / o.wallSeconds(), o.wallSeconds() * 1e9 / done, heap);
        }
        System.out.printf("max heap: %d MB (set with LOADLAB_JAVA_OPTS=\"-Xmx512m -XX:+UseParallelGC\")%n", Runtime.getRuntime().maxMemory() >> 20);
        return 0;
    }

    private Scenario scenario(int n, long count) {
        List<String> overrides = new ArrayList<>(sets);
        overrides.addAll(List.of("name = bench", "nodes.count = " + n, "requests = " + count, "duration = 0", "warmup = 0",
                "arrivals.process = poisson", "arrivals.rate = 0", "arrivals.utilisation = " + utilisation,
                "demand.distribution = exponential", "demand.mean = 1", "information.model = " + model,
                "nodes.service-rate.distribution = constant", "nodes.service-rate.value = 1"));
        return Scenarios.load("quickstart", overrides, policy, "1");
    }

    private static SimulationRunner.Outcome run(Scenario s) {
        return SimulationRunner.runCounted(new RunSpec(s, s.policies().get(0), s.seeds().get(0)));
    }
}

package org.loadlab.app.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab bench}: measures the simulation kernel, single-threaded: simulated
 * events per second and requests per second for a policy (default p2c with the probe
 * model) at utilisation ρ over clusters of each size n, after a JIT warm-up run.
 *
 * <p>With {@code --baseline} each LoadLab run is followed, in the same process, by the
 * same workload in {@link BareLoop} (a plain {@code PriorityQueue} event loop), and the
 * ratio of their requests/s is printed per n. With {@code --repeat R} every size is run R
 * times, LoadLab and the bare loop alternating, and the medians are reported: on a shared,
 * noisy machine a ratio measured this way is what can be compared between sessions.
 * Documented in docs/performance.md.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure simulation speed (events/s, requests/s) for one policy at several cluster sizes.",
                "",
                "--baseline runs, after each LoadLab run and in the same process, a bare single-threaded Java loop "
                        + "doing the same workload: a java.util.PriorityQueue of event records; Poisson arrivals at "
                        + "rho*n; two distinct random nodes probed (one-way latency as the scenario's network.latency); "
                        + "the request sent to the shorter queue (coin flip on ties); FCFS exp(1) service; the response "
                        + "time recorded in an HdrHistogram. No probe timeout, no client hop, no other metric: 8 events "
                        + "per request where LoadLab handles 9. It prints both speeds and the ratio LoadLab / bare per n "
                        + "(docs/performance.md)."})
final class BenchCommand implements Callable<Integer> {
    private static final long BARE_SEED = 1;

    /**
     * Most requests per run, 10^8. Time, not memory, sets it: a run keeps no per-request state
     * (response times go into a fixed-size histogram, and the time series is capped by
     * {@link #MAX_SERIES_POINTS}), but the fastest speed measured is 1.85 M requests/s (n = 100,
     * idle machine) and 207 k requests/s at 10^6 nodes (docs/performance.md), so 10^8 requests
     * already take about a minute per run at best and eight minutes at 10^6 nodes, for every size
     * and every repeat. Past that a benchmark measures nothing a shorter one does not.
     */
    static final long MAX_REQUESTS = 100_000_000L;

    /**
     * Most runs per size, 20: the median of 3 is what the documented figures use; 20 default
     * runs of the three default sizes already take several minutes.
     */
    static final int MAX_REPEAT = 20;

    /**
     * Most time-series points bench lets one run record, 10^6 (about 50 MB at
     * {@link org.loadlab.experiment.run.RunEstimate#KEPT_BYTES_PER_POINT} bytes a point). Bench
     * reports no time series; when its requests at ρ·n requests/s would give more points at the
     * scenario's 1 s interval, it lengthens {@code series-interval} (unless {@code --set} names
     * it) rather than be refused for a key the user never set. The default sizes and request
     * counts stay far below it, so their runs are unchanged.
     */
    static final double MAX_SERIES_POINTS = 1e6;

    @Option(names = "--nodes", split = ",", paramLabel = "n,n,...", defaultValue = "100,10000,100000",
            description = "Cluster sizes, each in [2, 1000000] and given once (default 100,10000,100000).")
    private List<Integer> nodes;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "1000000", description = "Requests per run, in [1, 100000000] (default 1000000).")
    private long requests;

    @Option(names = "--utilisation", paramLabel = "RHO", defaultValue = "0.9", description = "Utilisation rho (default 0.9).")
    private double utilisation;

    @Option(names = "--policy", paramLabel = "NAME", defaultValue = "p2c", description = "Policy (default p2c).")
    private String policy;

    @Option(names = "--model", paramLabel = "probe|cached|oracle", defaultValue = "probe", description = "Information model (default probe).")
    private String model;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Further scenario overrides (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Option(names = "--baseline", description = "Also run the bare PriorityQueue loop after each LoadLab run and print the ratio "
            + "(p2c, probe model and no --set only: the bare loop does exactly that workload).")
    private boolean baseline;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "1",
            description = "Runs per cluster size, LoadLab and bare loop alternating; medians are reported; in [1, 20] (default 1; 3 for the documented figures).")
    private int repeat;

    @Override
    public Integer call() {
        if (requests < 1 || requests > MAX_REQUESTS) {
            throw new BadInputException("--requests = " + requests + ": must be in [1, " + MAX_REQUESTS + "] (10^8 requests"
                    + " already take about a minute per run at the fastest measured 1.85 M requests/s; docs/performance.md)");
        }
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw new BadInputException("--repeat = " + repeat + ": must be in [1, " + MAX_REPEAT + "] (runs per size; the"
                    + " documented figures are medians of 3)");
        }
        if (!(utilisation > 0 && utilisation < 1)) {
            throw new BadInputException("--utilisation = " + utilisation + ": must be in (0, 1) for a stable run");
        }
        if (nodes.isEmpty()) {
            throw new BadInputException("--nodes names no size; give one or more sizes in [2, " + ScenarioLoader.MAX_NODES
                    + "], e.g. --nodes 100,10000");
        }
        for (int i = 0; i < nodes.size(); i++) {
            int n = nodes.get(i);
            if (n < 2 || n > ScenarioLoader.MAX_NODES) {
                throw new BadInputException("--nodes contains " + n + ": each size must be in [2, " + ScenarioLoader.MAX_NODES + "]");
            }
            if (nodes.indexOf(n) < i) {
                throw new BadInputException("--nodes = '" + String.join(",", nodes.stream().map(String::valueOf).toList()) + "': "
                        + n + " is listed twice; give each size once (--repeat R runs a size R times)");
            }
        }
        if (!ScenarioLoader.INFORMATION_MODELS.contains(model)) {
            throw new BadInputException("--model = '" + model + "': not an information model; allowed: "
                    + String.join(", ", ScenarioLoader.INFORMATION_MODELS));
        }
        if (baseline && (!policy.equals("p2c") || !model.equals("probe") || !sets.isEmpty())) {
            throw new BadInputException("--baseline compares the bare loop's workload, p2c with the probe model and no --set; "
                    + "was --policy " + policy + " --model " + model + (sets.isEmpty() ? "" : " --set " + sets));
        }
        if (org.loadlab.balancer.policy.PolicyCatalog.find(policy).isEmpty()) {
            throw new BadInputException("--policy = '" + policy + "': not a known policy; allowed: "
                    + org.loadlab.balancer.policy.PolicyCatalog.names() + (policy.equalsIgnoreCase("jsq") ? " (JSQ is least-queue)" : ""));
        }
        scenario(nodes.get(0), requests); // every other key (--model, --set) is checked before the header too
        System.out.printf(Locale.ROOT, "Benchmark: %s, %s model, utilisation %.2f, exp(1) demand, Poisson arrivals, one thread%s%n",
                policy, model, utilisation, repeat > 1 ? ", median of " + repeat + " runs per size" : "");
        double latency = scenario(100, 1).network().latency();
        run(scenario(100, Math.min(requests, 1_000_000))); // JIT warm-up, not reported
        if (baseline) {
            BareLoop.run(100, Math.min(requests, 1_000_000), utilisation, latency, BARE_SEED);
        }
        System.out.printf("%10s %12s %12s %9s %14s %14s %12s %10s%n",
                "nodes", "requests", "events", "wall_s", "events/s", "requests/s", "ns/request", "heap_MB");
        List<double[]> ratios = new ArrayList<>();
        for (int n : nodes) {
            Runtime rt = Runtime.getRuntime();
            double[] loadlabWall = new double[repeat];
            double[] bareWall = new double[repeat];
            double[] loadlabCpu = new double[repeat];
            double[] bareCpu = new double[repeat];
            SimulationRunner.Outcome o = null;
            BareLoop.Outcome bare = null;
            long heap = 0;
            for (int r = 0; r < repeat; r++) {
                System.gc();
                Scenario s = scenario(n, requests);
                long c0 = cpuNanos();
                o = run(s);
                loadlabCpu[r] = (cpuNanos() - c0) / 1e9;
                heap = Math.max(heap, (rt.totalMemory() - rt.freeMemory()) >> 20);
                loadlabWall[r] = o.wallSeconds();
                if (baseline) {
                    System.gc();
                    c0 = cpuNanos();
                    bare = BareLoop.run(n, requests, utilisation, latency, BARE_SEED);
                    bareCpu[r] = (cpuNanos() - c0) / 1e9;
                    bareWall[r] = bare.wallSeconds();
                }
            }
            long done = o.result().metrics().requestsArrived();
            double wall = median(loadlabWall);
            System.out.printf(Locale.ROOT, "%10d %12d %12d %9.2f %14.0f %14.0f %12.0f %10d%n", n, done, o.events(),
                    wall, o.events() / wall, done / wall, wall * 1e9 / done, heap);
            if (baseline) {
                double bw = median(bareWall);
                ratios.add(new double[] {n, done / wall, bare.requests() / bw, wall * 1e9 / done, bw * 1e9 / bare.requests(),
                        o.result().metrics().responseMean(), bare.meanResponse(), median(bareCpu) / median(loadlabCpu)});
            }
        }
        if (baseline) {
            printBaseline(ratios);
        }
        System.out.printf("max heap of this JVM: %d MB (to measure in another heap size, e.g. 512 MB: LOADLAB_JAVA_OPTS=\"-Xmx512m -XX:+UseParallelGC\" ./loadlab bench ...)%n",
                Runtime.getRuntime().maxMemory() >> 20);
        return 0;
    }

    /** The comparison table: requests/s of both, their ratio, and how ns/request grows with n for each. */
    private static void printBaseline(List<double[]> rows) {
        System.out.println();
        System.out.println("Against the bare PriorityQueue loop (same workload, same process; docs/performance.md):");
        System.out.printf("%10s %14s %14s %8s %10s %12s %12s %12s %12s %10s %10s%n", "nodes", "loadlab_req/s", "bare_req/s", "ratio",
                "cpu_ratio", "loadlab_ns", "bare_ns", "loadlab_grow", "bare_grow", "loadlab_R", "bare_R");
        double[] first = rows.get(0);
        for (double[] r : rows) {
            System.out.printf(Locale.ROOT, "%10.0f %14.0f %14.0f %8.2f %10.2f %12.0f %12.0f %12.2f %12.2f %10.3f %10.3f%n", r[0], r[1],
                    r[2], r[1] / r[2], r[7], r[3], r[4], r[3] / first[3], r[4] / first[4], r[5], r[6]);
        }
        System.out.println("ratio = loadlab_req/s / bare_req/s (wall clock); cpu_ratio = the same from the CPU time of the "
                + "benchmark thread (steadier when other processes share the cores; GC threads not included); *_grow = "
                + "ns/request relative to the first size; *_R = mean response time, s (the two simulate the same system)");
    }

    private static long cpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private Scenario scenario(int n, long count) {
        List<String> overrides = new ArrayList<>(sets);
        overrides.addAll(List.of("name = bench", "nodes.count = " + n, "requests = " + count, "duration = 0", "warmup = 0",
                "arrivals.process = poisson", "arrivals.rate = 0", "arrivals.utilisation = " + utilisation,
                "demand.distribution = exponential", "demand.mean = 1", "information.model = " + model,
                "nodes.service-rate.distribution = constant", "nodes.service-rate.value = 1"));
        // λ = ρ·n requests/s (service rate 1, mean demand 1); the run lasts count/λ seconds.
        double points = count / (utilisation * n);
        boolean intervalSet = sets.stream().anyMatch(kv -> kv.split("=", 2)[0].trim().equals("series-interval"));
        if (points > MAX_SERIES_POINTS && !intervalSet) {
            overrides.add("series-interval = " + points / MAX_SERIES_POINTS);
        }
        return Scenarios.load("quickstart", overrides, policy, "1");
    }

    private static SimulationRunner.Outcome run(Scenario s) {
        return SimulationRunner.runCounted(new RunSpec(s, s.policies().get(0), s.seeds().get(0)));
    }
}

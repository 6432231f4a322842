package org.loadlab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.loadlab.shell.cluster.MessagingBaseline;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab cluster-bench}: the cluster benchmark, on loopback, in one session. For
 * each cluster size (JVMs: one balancer+gateway member and the rest node members) it
 * measures, in this order:
 * Throughput is the recorder's: completions per second while requests were arriving, after
 * the experiment's warm-up window ({@code throughputRps}).
 * <ol>
 *   <li>the messaging baseline: bare Pekko remoting with the same CBOR message records,
 *       one pinger JVM and as many echo JVMs as the cluster has node members, p2c's three
 *       round trips per request ({@link MessagingBaseline}); its requests/s is the ideal;</li>
 *   <li>a rate sweep of p2c experiments through a {@code local-cluster} of that size, with
 *       the admission bound, up the offered rate until the completions fall behind: the
 *       saturation throughput S is the most requests/s completed (the first experiment
 *       includes the gateway's JIT warm-up; the first rate is run twice so the first and
 *       second experiment can be compared);</li>
 *   <li>twice the saturation rate, with the admission bound and without it;</li>
 *   <li>half the saturation rate, for the routing-decision p99: {@code --half-runs} experiments
 *       (default 3), and the summary gives the one with the median p99, so that one stall of
 *       the shared machine does not decide the figure.</li>
 * </ol>
 * Every figure is a ratio taken in the same session on the same machine. Documented in
 * docs/cluster.md ("Throughput and overload").
 */
@Command(name = "cluster-bench", mixinStandardHelpOptions = true,
        description = {"Benchmark the cluster on loopback: throughput, overload and decision latency.",
                "",
                "The bare-Pekko messaging baseline (same CBOR messages, p2c's three round trips per request), a p2c rate "
                        + "sweep to saturation through local-cluster, twice the saturation rate with and without admission "
                        + "control, and the decision p99 at half of it (docs/cluster.md)."})
public final class ClusterBenchCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--jvms", split = ",", defaultValue = "2,4", paramLabel = "N,N,...",
            description = "Cluster sizes in JVMs (gateway+balancer member plus N-1 node members; default 2,4).")
    private List<Integer> jvms;

    @Option(names = "--duration", defaultValue = "10", paramLabel = "S", description = "Seconds of arrivals per experiment (default 10).")
    private double duration;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "S", description = "Warm-up window of each experiment (default 3).")
    private double warmup;

    @Option(names = "--start-rate", defaultValue = "8000", paramLabel = "R", description = "First offered rate, requests/s (default 8000).")
    private double startRate;

    @Option(names = "--step", defaultValue = "1.4", paramLabel = "F", description = "Offered rate factor per sweep step (default 1.4).")
    private double step;

    @Option(names = "--max-steps", defaultValue = "9", paramLabel = "K",
            description = "Most sweep steps (default 9: from 8,000 to 118,000 requests/s offered at the default --step).")
    private int maxSteps;

    @Option(names = "--bound", defaultValue = "1000", paramLabel = "B",
            description = "balancers.max-decisions-in-flight of the sweep and the overload run (default 1000: 50 ms of"
                    + " arrivals at 20,000/s, far above the decisions in flight of a healthy run, far below the probe timeout's worth).")
    private int bound;

    @Option(names = "--half-runs", defaultValue = "3", paramLabel = "K",
            description = "Experiments at half the saturation rate; the summary gives the median decision p99 and every"
                    + " run's (default 3, allowed 1..9: in a single run one stall of a shared machine decides the p99).")
    private int halfRuns;

    @Option(names = "--nodes", defaultValue = "100", paramLabel = "N", description = "nodes.count of the experiments (default 100).")
    private int nodes;

    @Option(names = "--window", defaultValue = "1000", paramLabel = "W", description = "Baseline: requests kept going at once"
            + " (default 1000, the cluster's admission bound: the same concurrency; at 128 the pinger waited for replies"
            + " and the cluster outran its \"ideal\").")
    private int window;

    @Option(names = "--member-jvm-opt", paramLabel = "OPT",
            description = "JVM option of every member and baseline JVM (repeatable; default -Xmx512m -XX:+UseParallelGC;"
                    + " -XX:MetaspaceSize=256m is added unless an option sets it).")
    private List<String> memberJvmOpts = new ArrayList<>();

    @Option(names = "--base-port", defaultValue = "26510", paramLabel = "P", description = "First remoting port (default 26510).")
    private int basePort;

    @Option(names = "--http-port", defaultValue = "18090", paramLabel = "P",
            description = "Control API port, plus the cluster's size in JVMs (default 18090: 18092 for 2 JVMs).")
    private int httpPort;

    @Option(names = "--skip-baseline", description = "Do not run the messaging baseline.")
    private boolean skipBaseline;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write every run as CSV here.")
    private Path out;

    /** One measured experiment. */
    record Run(int jvms, String what, double offered, int bound, String status, double completedPerSecond, long completed,
               long rejected, long shed, long lost, long unresolved, double decisionP50Micros, double decisionP99Micros,
               boolean booksBalance) {
    }

    private final List<Run> runs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        for (int n : jvms) {
            if (n < 2 || n > 16) {
                throw new BadInputException("--jvms = " + n + ": allowed 2..16 (a gateway member and at least one node member)");
            }
        }
        checkFlags();
        if (out != null) {
            OutputDir.prepareFile(out, "--out");
        }
        // The members' and the baseline's JVMs alike (LocalCluster would add the defaults to the members' alone).
        List<String> opts = MemberJvmOptions.withDefaults(
                memberJvmOpts.isEmpty() ? List.of("-Xmx512m", "-XX:+UseParallelGC") : memberJvmOpts);
        System.out.println("cluster-bench: JVM options " + opts + "; p2c, probe model, " + nodes + " nodes, deterministic demand"
                + " 0.2 ms, " + duration + " s per experiment (" + warmup + " s warm-up window)");
        List<String> summary = new ArrayList<>();
        for (int n : jvms) {
            double ideal = Double.NaN;
            if (!skipBaseline) {
                MessagingBaseline.Result b = baseline(n - 1, opts);
                ideal = b.requestsPerSecond();
                System.out.printf(Locale.ROOT, "[%d JVMs] baseline: %.0f round trips/s = %.0f requests/s ideal (1 pinger, %d echo"
                        + " JVM(s), window %d)%n", n, b.roundTripsPerSecond(), ideal, n - 1, window);
            }
            summary.add(cluster(n, opts, ideal));
        }
        System.out.println();
        summary.forEach(System.out::println);
        if (out != null) {
            writeCsv();
            System.out.println("runs: " + out);
        }
        return 0;
    }

    /**
     * Refuses a flag out of range, naming it, the value and what is allowed, before any JVM
     * starts: one line used to list every condition ("need --step > 1, --max-steps >= 1, ...")
     * without saying which flag was wrong; --start-rate 0 ran, and --window 0 or a --base-port
     * whose ports pass 65535 ended in "an unexpected failure" from a child JVM.
     *
     * @throws BadInputException on the first flag that is wrong
     */
    void checkFlags() {
        if (!(step > 1) || Double.isInfinite(step)) {
            throw new BadInputException("--step = " + step + ": allowed a factor above 1, e.g. 1.4");
        }
        if (maxSteps < 1) {
            throw new BadInputException("--max-steps = " + maxSteps + ": allowed 1 or more");
        }
        if (bound < 0) {
            throw new BadInputException("--bound = " + bound + ": allowed 0 (no admission bound) or more");
        }
        if (!(warmup >= 0) || Double.isInfinite(warmup)) {
            throw new BadInputException("--warmup = " + warmup + ": allowed 0 or more seconds");
        }
        if (!(duration > warmup) || Double.isInfinite(duration)) {
            throw new BadInputException("--duration = " + duration + ": allowed more seconds than --warmup (" + warmup + ")");
        }
        if (!(startRate > 0) || Double.isInfinite(startRate)) {
            throw new BadInputException("--start-rate = " + startRate + ": allowed a rate above 0 requests/s, e.g. 8000");
        }
        if (halfRuns < 1 || halfRuns > 9) {
            throw new BadInputException("--half-runs = " + halfRuns + ": allowed 1..9 experiments at half the saturation rate");
        }
        if (nodes < 2) {
            throw new BadInputException("--nodes = " + nodes + ": allowed 2 or more (p2c samples two nodes)");
        }
        if (window < 1) {
            throw new BadInputException("--window = " + window + ": allowed 1 or more requests kept going at once");
        }
        int largest = jvms.stream().mapToInt(Integer::intValue).max().orElse(2);
        int span = portSpan(largest);
        if (basePort < 1 || basePort + span > 65535) {
            throw new BadInputException("--base-port = " + basePort + ": allowed 1.." + (65535 - span)
                    + " (the benchmark uses ports up to --base-port + " + span + " for --jvms " + largest + ")");
        }
        if (httpPort < 1 || httpPort + largest > 65535) {
            throw new BadInputException("--http-port = " + httpPort + ": allowed 1.." + (65535 - largest)
                    + " (a cluster of N JVMs serves its API on --http-port + N)");
        }
    }

    /** Each cluster size n gets remoting ports from --base-port + PORTS_PER_SIZE·n: the last size's may be in TIME_WAIT. */
    private static final int PORTS_PER_SIZE = 100;
    /** A size's Prometheus ports start this far after its remoting ports. */
    private static final int PROMETHEUS_OFFSET = 40;

    /** How far past --base-port the ports of a cluster of {@code n} JVMs reach (its last Prometheus port, and one spare). */
    private static int portSpan(int n) {
        return PORTS_PER_SIZE * n + PROMETHEUS_OFFSET + n;
    }

    // ------------------------------------------------------------------ the baseline

    private MessagingBaseline.Result baseline(int echoes, List<String> opts) throws Exception {
        List<Process> echoProcs = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            for (int i = 0; i < echoes; i++) {
                int port = basePort + 20 + i;
                ports.add(port);
                echoProcs.add(java(opts, List.of("messaging-baseline", "--echo", "--port", String.valueOf(port))).start());
            }
            Thread.sleep(3000); // the echoes bind their ports (the pinger retries resolving them for 20 s anyway)
            int pingPort = basePort + 19;
            List<String> args = new ArrayList<>(List.of("messaging-baseline", "--port", String.valueOf(pingPort), "--echo-ports",
                    String.join(",", ports.stream().map(String::valueOf).toList()), "--window", String.valueOf(window),
                    "--warmup", "5", "--seconds", "10"));
            Process ping = java(opts, args).redirectOutput(ProcessBuilder.Redirect.PIPE).redirectErrorStream(true).start();
            String result = null;
            StringBuilder all = new StringBuilder();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(ping.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    all.append(line).append('\n');
                    if (line.startsWith(MessagingBaselineCommand.RESULT)) {
                        result = line;
                    }
                }
            }
            ping.waitFor(30, TimeUnit.SECONDS);
            if (result == null) {
                throw new IllegalStateException("the baseline pinger gave no result:\n" + all);
            }
            String[] f = result.split(" ");
            return new MessagingBaseline.Result(Long.parseLong(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                    Double.parseDouble(f[4]));
        } finally {
            for (Process p : echoProcs) {
                p.getOutputStream().close(); // the echo stops when its standard input closes
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    private static ProcessBuilder java(List<String> opts, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(opts);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LoadLabCli.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
    }

    // ------------------------------------------------------------------ the cluster

    private String cluster(int n, List<String> opts, double ideal) throws Exception {
        int ports = basePort + PORTS_PER_SIZE * n;
        Path logs = Files.createTempDirectory("loadlab-cluster-bench");
        // The bench's 0.2 ms services are far below what the 1 ms scheduler tick times within 10%, so its response
        // times are not the scenario's: it measures throughput and decision latency, and the lag check is off.
        List<String> memberArgs = List.of("--set", "loadlab.metrics.kamon = off", "--set", "loadlab.cluster.timer-lag-check = off",
                "--set", "loadlab.cluster.results-dir = \"" + logs.resolve("results").toString().replace("\\", "/") + "\"");
        try (LocalCluster c = LocalCluster.start(n - 1, ports, httpPort + n, ports + PROMETHEUS_OFFSET, System.getProperty("java.class.path"),
                opts, memberArgs, logs)) {
            if (!c.awaitUp(Duration.ofSeconds(120))) {
                throw new IllegalStateException("the members did not come Up within 120 s; logs in " + logs);
            }
            System.out.printf(Locale.ROOT, "[%d JVMs] local-cluster up (logs in %s)%n", n, logs);
            Run first = run(c, n, "first experiment (after the JIT warm-up)", startRate, bound);
            Run second = run(c, n, "second experiment", startRate, bound);
            double saturation = Math.max(first.completedPerSecond(), second.completedPerSecond());
            double rate = startRate;
            Run last = second;
            int flat = 0;
            boolean lastClearlyGrew = false;
            for (int k = 1; k < maxSteps && flat < 2; k++) {
                rate *= step;
                Run r = run(c, n, "sweep", rate, bound);
                last = r;
                // Past the knee the completions stop growing with the offered rate; two such steps end the sweep
                // (one could be a noisy moment of the shared machine).
                flat = r.completedPerSecond() > 1.03 * saturation ? 0 : flat + 1;
                lastClearlyGrew = clearlyGrew(r.completedPerSecond(), saturation);
                saturation = Math.max(saturation, r.completedPerSecond());
            }
            Run bounded = run(c, n, "2x saturation, admission bound " + bound, 2 * saturation, bound);
            Run open = run(c, n, "2x saturation, no admission bound", 2 * saturation, 0);
            List<Run> halves = new ArrayList<>();
            for (int k = 1; k <= halfRuns; k++) {
                halves.add(run(c, n, "half the saturation rate, run " + k + " of " + halfRuns, saturation / 2, bound));
            }
            Run half = medianByDecisionP99(halves);
            // Without the messaging baseline (--skip-baseline) there is no ideal to compare with: say so, not "NaN".
            String s = saturationLabel(saturation, keptUp(last.completedPerSecond(), rate) || lastClearlyGrew, rate);
            String vsIdeal = Double.isNaN(ideal)
                    ? String.format(Locale.ROOT, "%s (no baseline run, so no ideal)", s)
                    : String.format(Locale.ROOT, "ideal %.0f req/s; %s = %.2f of ideal", ideal, s, saturation / ideal);
            return String.format(Locale.ROOT, "%d JVMs: %s; at 2S: %.0f"
                            + " req/s = %.2f S with the admission bound %d (%d shed), %.0f req/s = %.2f S without (%d rejected,"
                            + " %d unresolved); decision p99 at S/2 %.2f ms (p50 %.2f ms; %s); first/second experiment %.0f/%.0f"
                            + " req/s at %.0f offered", n, vsIdeal, bounded.completedPerSecond(),
                    bounded.completedPerSecond() / saturation, bound, bounded.shed(), open.completedPerSecond(),
                    open.completedPerSecond() / saturation, open.rejected(), open.unresolved(), half.decisionP99Micros() / 1000,
                    half.decisionP50Micros() / 1000, halfRunsLabel(halves), first.completedPerSecond(), second.completedPerSecond(), startRate);
        }
    }

    /**
     * The run whose decision p99 is the median of {@code runs} (for an even count the higher of
     * the two middle ones: the figure errs on the slow side).
     *
     * @param runs at least one run
     * @return one of {@code runs}
     */
    static Run medianByDecisionP99(List<Run> runs) {
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(Run::decisionP99Micros));
        return sorted.get(sorted.size() / 2);
    }

    /** "one run", or "median of 3 runs: p99 4.21, 5.03, 13.50 ms" (each run's p99 in the order they ran). */
    static String halfRunsLabel(List<Run> runs) {
        if (runs.size() == 1) {
            return "one run";
        }
        StringBuilder b = new StringBuilder("median of " + runs.size() + " runs: p99");
        for (int i = 0; i < runs.size(); i++) {
            b.append(i == 0 ? " " : ", ").append(String.format(Locale.ROOT, "%.2f", runs.get(i).decisionP99Micros() / 1000));
        }
        return b.append(" ms").toString();
    }

    /**
     * A last sweep step that completed this much more than every step before it was still on
     * the way up, whatever it shed: S is then only a lower bound. (Beyond the knee a step may
     * complete a few percent more than the one before by the machine's noise alone.)
     */
    static final double STILL_GROWING = 1.10;

    /** True if a sweep step's completions (req/s) were still on the way up from the best before it ({@link #STILL_GROWING}). */
    static boolean clearlyGrew(double completedPerSecond, double bestBefore) {
        return completedPerSecond > STILL_GROWING * bestBefore;
    }

    /** True if a run completed about all it was offered (at least 97%): the cluster kept up, so it was not saturated. */
    static boolean keptUp(double completedPerSecond, double offered) {
        return completedPerSecond >= 0.97 * offered;
    }

    /**
     * "saturation S = X req/s", or, when the sweep's last step still kept up or still completed
     * clearly more than the steps before it ({@link #clearlyGrew}; --max-steps or --start-rate
     * too small), a label that says S is only a lower bound: the summary called the last offered
     * rate "saturation" and compared 2S with it as if the knee had been found (with 7 steps,
     * S = 57,733 req/s at 60,236 offered, and 2S then completed 1.23 S).
     */
    static String saturationLabel(double saturation, boolean lastStillGrew, double lastOffered) {
        return lastStillGrew
                ? String.format(Locale.ROOT, "S = %.0f req/s, NOT saturation: the sweep's last step still kept up or"
                        + " still completed clearly more than those before it (%.0f offered; raise --max-steps or --start-rate)",
                        saturation, lastOffered)
                : String.format(Locale.ROOT, "saturation S = %.0f req/s", saturation);
    }

    private Run run(LocalCluster c, int n, String what, double rate, int admission) throws Exception {
        ObjectNode body = JSON.createObjectNode();
        body.put("scenario", "quickstart");
        body.put("policy", "p2c");
        body.put("seed", 1);
        ObjectNode set = body.putObject("set");
        set.put("nodes.count", nodes);
        set.put("duration", duration);
        set.put("warmup", warmup);
        set.put("demand.distribution", "deterministic");
        set.put("demand.mean", 0.0002);
        set.put("arrivals.utilisation", 0);
        set.put("arrivals.rate", Math.round(rate));
        set.put("information.probe-timeout", 0.5);
        set.put("drain-timeout", 5);
        set.put("balancers.max-decisions-in-flight", admission);
        LocalCluster.Response created = c.send("POST", "/experiments", body.toString());
        for (int i = 0; i < 40 && created.status() == 503; i++) {
            Thread.sleep(500);
            created = c.send("POST", "/experiments", body.toString());
        }
        if (created.status() != 201) {
            throw new IllegalStateException("POST /experiments answered " + created.status() + ": " + created.body());
        }
        String id = created.body().get("id").asText();
        JsonNode s;
        while (true) {
            Thread.sleep(1000);
            s = c.get("/experiments/" + id);
            String st = s == null ? "" : s.get("status").asText();
            if (st.equals("finished") || st.equals("failed") || st.equals("stopped")) {
                break;
            }
        }
        JsonNode m = s.path("results").path("metrics");
        JsonNode a = s.path("accounting");
        JsonNode d = s.path("routing").path("decisionLatencyMicros");
        Run r = new Run(n, what, rate, admission, s.get("status").asText(), m.path("throughputRps").asDouble(),
                m.path("requestsCompleted").asLong(), m.path("requestsRejected").asLong(),
                m.path("counters").path("admission_shed").asLong(), m.path("requestsLost").asLong(), a.path("unresolved").asLong(),
                d.path("p50").asDouble(Double.NaN), d.path("p99").asDouble(Double.NaN), a.path("ok").asBoolean(false));
        runs.add(r);
        System.out.printf(Locale.ROOT, "[%d JVMs] %-44s offered %6.0f  completed %6.0f req/s  (%d completed, %d rejected of"
                        + " which %d shed, %d lost, %d unresolved; books %s)  decision p50 %.2f ms p99 %.2f ms%n", n, what, rate,
                r.completedPerSecond(), r.completed(), r.rejected(), r.shed(), r.lost(), r.unresolved(),
                r.booksBalance() ? "balance" : "DO NOT BALANCE", r.decisionP50Micros() / 1000, r.decisionP99Micros() / 1000);
        return r;
    }

    private void writeCsv() throws IOException {
        StringBuilder b = new StringBuilder("jvms,what,offered,bound,status,completed_per_s,completed,rejected,shed,lost,unresolved,"
                + "decision_p50_us,decision_p99_us,books_balance\n");
        for (Run r : runs) {
            b.append(String.format(Locale.ROOT, "%d,\"%s\",%.0f,%d,%s,%.1f,%d,%d,%d,%d,%d,%.1f,%.1f,%s%n", r.jvms(), r.what(),
                    r.offered(), r.bound(), r.status(), r.completedPerSecond(), r.completed(), r.rejected(), r.shed(), r.lost(),
                    r.unresolved(), r.decisionP50Micros(), r.decisionP99Micros(), r.booksBalance()));
        }
        Files.writeString(out, b);
    }
}

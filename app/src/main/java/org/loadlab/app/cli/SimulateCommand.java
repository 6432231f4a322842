package org.loadlab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.loadlab.analysis.io.ResultsCsv;
import org.loadlab.analysis.io.ResultsJson;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.io.SummaryTable;
import org.loadlab.analysis.io.TimeseriesCsv;
import org.loadlab.shell.live.LiveRunner;
import org.loadlab.experiment.run.RunEstimate;
import org.loadlab.experiment.run.RunExecutor;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.Topology;
import org.loadlab.experiment.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab simulate}: runs every (policy, seed) pair of a scenario, prints a table
 * of policies × headline metrics (mean ± 95% CI over seeds) and writes
 * {@code results.csv}, {@code results.json}, {@code timeseries.csv} and
 * {@code run-info.json} (wall-clock figures, kept apart so results stay byte-identical).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = "Run a scenario for each policy and seed; print and save the results.")
final class SimulateCommand implements Callable<Integer> {
    @Option(names = "--scenario", required = true, paramLabel = "NAME|FILE",
            description = "Built-in scenario name (see `loadlab scenarios`) or a HOCON file.")
    private String scenario;

    @Option(names = "--policies", paramLabel = "a,b,...", description = "Policies to compare (default: the scenario's list).")
    private String policies;

    @Option(names = "--seeds", paramLabel = "SPEC", description = "Seeds: 101, 101:120 or 101,105 (default: the scenario's).")
    private String seeds;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<scenario>).")
    private Path out;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key, e.g. --set arrivals.utilisation=0.9 (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "sim|live", defaultValue = "sim",
            description = "sim: deterministic discrete-event simulation (default); live: the same logic as Pekko actors in real time.")
    private String mode;

    @Option(names = "--time-scale", paramLabel = "X", defaultValue = "1",
            description = "Live mode: scenario seconds per real second (default 1).")
    private double timeScale;

    @Option(names = "--workers", paramLabel = "N", description = "Parallel runs in sim mode (default: number of cores).")
    private Integer workers;

    @Override
    public Integer call() throws IOException {
        if (!mode.equals("sim") && !mode.equals("live")) {
            throw new BadInputException("--mode = '" + mode + "': allowed: sim, live");
        }
        if (!(timeScale > 0) || Double.isInfinite(timeScale) || timeScale > LiveRunner.MAX_TIME_SCALE) {
            throw new BadInputException("--time-scale = " + timeScale + ": must be a number in (0, " + LiveRunner.MAX_TIME_SCALE
                    + "] (scenario seconds per real second; docs/results.md gives the range that keeps up on a 2-core machine)");
        }
        CampaignCommand.checkWorkers(workers);
        Scenario s = Scenarios.load(scenario, sets, policies, seeds);
        if (mode.equals("live")) {
            Optional<String> refusal = LiveRunner.refusal(s);
            if (refusal.isPresent()) {
                throw new BadInputException("--mode = 'live': " + refusal.get());
            }
        }
        List<RunSpec> specs = new ArrayList<>();
        for (String p : s.policies()) {
            for (long seed : s.seeds()) {
                specs.add(new RunSpec(s, p, seed));
            }
        }
        int threads = mode.equals("live") ? 1 : workers != null ? workers : RunExecutor.defaultWorkers();
        RunEstimate estimate = RunEstimate.of(s, specs.size(), threads);
        long heap = Runtime.getRuntime().maxMemory();
        if (!estimate.fits(heap)) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: %d runs of %d nodes need about %s of heap"
                            + " (%s per running run, %s per finished run kept until the files are written); this JVM has %s."
                            + " Give it more with LOADLAB_JAVA_OPTS=\"-Xmx%dg -XX:+UseParallelGC\", or run fewer at once"
                            + " (--policies, --seeds, --workers 1, a smaller nodes.count)",
                    s.name(), specs.size(), s.nodes().count(), RunEstimate.bytes(estimate.heapBytes()),
                    RunEstimate.bytes(RunEstimate.WORKING_BYTES_PER_NODE * (double) s.nodes().count()),
                    RunEstimate.bytes((estimate.heapBytes() - Math.min(threads, specs.size())
                            * (double) RunEstimate.WORKING_BYTES_PER_NODE * s.nodes().count()) / 2 / specs.size()),
                    RunEstimate.bytes(heap), (long) Math.ceil(estimate.heapBytes() / 0.9 / (1L << 30))));
        }
        Path dir = OutputDir.prepare(out != null ? out : Path.of("results", s.name()), out != null);

        System.out.println(header(s, specs.size(), threads));
        if (!sets.isEmpty()) {
            System.out.println("  overrides: " + String.join(", ", sets));
        }
        if (mode.equals("live")) {
            double seconds = s.duration() > 0 ? s.duration() : estimate.requestsPerRun() / Math.max(1e-9, s.arrivals().rate() > 0
                    ? s.arrivals().rate() : s.arrivals().utilisation() * s.nodes().expectedCapacity() / s.demand().mean());
            System.out.printf(Locale.ROOT, "  live mode at time scale %s: each run takes about %s of real time (%s in all)%n",
                    trim(timeScale), RunProgress.duration(seconds / timeScale), RunProgress.duration(specs.size() * seconds / timeScale));
        } else if (estimate.isLong()) {
            System.out.printf(Locale.ROOT, "  a long job: about %.3g requests per run, %.3g in all; progress every %d s%n",
                    estimate.requestsPerRun(), estimate.totalRequests(), (int) PROGRESS_SECONDS);
        }
        if (specs.size() > RunEstimate.MANY_RUNS) {
            System.err.printf(Locale.ROOT, "warning: %d runs (%d policies x %d seeds); fewer seeds (--seeds 101:120) usually give"
                    + " confidence intervals as tight as needed%n", specs.size(), s.policies().size(), s.seeds().size());
        }

        long t0 = System.nanoTime();
        Map<Integer, SimulationRunner.Outcome> finished = new ConcurrentHashMap<>();
        Map<RunSpec, Integer> index = new java.util.IdentityHashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            index.put(specs.get(i), i);
        }
        Writer writer = new Writer(s, dir, threads, specs.size(), t0);
        Thread hook = new Thread(() -> writer.onInterrupt(finished), "loadlab-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        List<SimulationRunner.Outcome> outcomes;
        try (RunProgress progress = new RunProgress(specs.size(), estimate.requestsPerRun(), PROGRESS_SECONDS, System.err)) {
            outcomes = RunExecutor.runAll(specs, threads,
                    spec -> {
                        SimulationRunner.Outcome o = mode.equals("live")
                                ? LiveRunner.run(spec, timeScale, LiveRunner.LAG_TOLERANCE, generated -> progress.started(spec, generated))
                                : SimulationRunner.runCounted(spec, generated -> progress.started(spec, generated));
                        finished.put(index.get(spec), o);
                        progress.finished(spec);
                        return o;
                    },
                    o -> {
                        if (!writer.interrupted()) {
                            System.err.printf(Locale.ROOT, "  [%d/%d] %s seed %d%n", finished.size(), specs.size(),
                                    o.result().policy(), o.result().seed());
                        }
                    });
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof LiveRunner.FellBehindException behind) {
                throw new CommandFailedException(behind.getMessage());
            }
            throw e;
        } finally {
            if (!writer.interrupted()) {
                removeHook(hook);
            }
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        List<RunResult> results = outcomes.stream().map(SimulationRunner.Outcome::result).toList();
        writer.write(outcomes, wall, true);

        System.out.println();
        System.out.print(SummaryTable.render(results, SummaryTable.Columns.forModel(s.model())));
        System.out.println();
        System.out.printf(Locale.ROOT, "%s in %.1f s (%s mode). Results: %s/{results.csv, results.json, timeseries.csv, nodes.csv, run-info.json}%n",
                count(results.size(), "run", "runs"), wall, mode, dir);
        System.out.println("Plots: ./loadlab plot " + dir);
        return 0;
    }

    /** Seconds between progress lines of a long job. */
    static final double PROGRESS_SECONDS = 10;

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs and finds nothing to do
        }
    }

    private static String trim(double x) {
        return x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x);
    }

    /**
     * Writes a job's files once: at the end, or from the shutdown hook after Ctrl-C with the
     * runs finished so far (plan order, marked incomplete). Whichever comes first wins; the
     * other waits for it and then does nothing, so files are never half written by both.
     */
    private static final class Writer {
        private final Scenario scenario;
        private final Path dir;
        private final int threads;
        private final int planned;
        private final long startNanos;
        private boolean written;
        private volatile boolean interrupted;

        Writer(Scenario scenario, Path dir, int threads, int planned, long startNanos) {
            this.scenario = scenario;
            this.dir = dir;
            this.threads = threads;
            this.planned = planned;
            this.startNanos = startNanos;
        }

        boolean interrupted() {
            return interrupted;
        }

        synchronized void write(List<SimulationRunner.Outcome> outcomes, double wall, boolean complete) throws IOException {
            if (written) {
                return;
            }
            written = true;
            List<RunResult> results = outcomes.stream().map(SimulationRunner.Outcome::result).toList();
            Files.createDirectories(dir);
            ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            JsonNode scenarioJson = json.readTree(scenario.resolvedJson());
            ResultsCsv.write(dir.resolve("results.csv"), results);
            ResultsJson.write(dir.resolve("results.json"), scenarioJson, results);
            TimeseriesCsv.write(dir.resolve("timeseries.csv"), results);
            Files.writeString(dir.resolve("nodes.csv"), NodesCsv.render(outcomes));
            ObjectNode info = runInfo(json, outcomes, wall, threads);
            info.put("complete", complete);
            info.put("runs_planned", planned);
            json.writeValue(dir.resolve("run-info.json").toFile(), info);
            Path marker = dir.resolve(INCOMPLETE);
            if (complete) {
                Files.deleteIfExists(marker);
            } else {
                Files.writeString(marker, String.format(Locale.ROOT, "This directory holds %d of the %d runs of scenario %s:"
                        + " the job was interrupted (Ctrl-C) after %.0f s.%nRun the same command again for all of them.%n",
                        outcomes.size(), planned, scenario.name(), wall));
            }
        }

        /** The shutdown hook: keeps the finished runs of an interrupted job. */
        void onInterrupt(Map<Integer, SimulationRunner.Outcome> finished) {
            synchronized (this) {
                if (written) {
                    return;
                }
                interrupted = true;
                CliErrors.interrupted();
            }
            List<SimulationRunner.Outcome> kept = new java.util.TreeMap<>(finished).values().stream().toList();
            if (kept.isEmpty()) {
                System.err.println("\ninterrupted before any run finished; nothing written");
                return;
            }
            System.err.printf(Locale.ROOT, "%ninterrupted: writing the %d of %d runs that have finished ...%n", kept.size(), planned);
            try {
                write(kept, (System.nanoTime() - startNanos) / 1e9, false);
                System.err.printf(Locale.ROOT, "interrupted: wrote the %d of %d runs that had finished to %s (marked"
                        + " incomplete: %s, run-info.json \"complete\": false)%n", kept.size(), planned, dir, INCOMPLETE);
            } catch (IOException | RuntimeException e) {
                System.err.println("\ninterrupted, and the finished runs could not be written: "
                        + (e instanceof IOException io ? CliErrors.describe(io) : CliErrors.message(e)));
            }
        }
    }

    /** Marker file of a directory written by an interrupted job. */
    static final String INCOMPLETE = "INCOMPLETE.txt";

    private String header(Scenario s, int runs, int threads) {
        Topology topology = Topology.of(s);
        double capacity = topology.capacity(s.nodes().servers());
        double rho = s.arrivals().rate() > 0 ? s.arrivals().rate() * s.demand().mean() / capacity : s.arrivals().utilisation();
        boolean peers = s.policies().stream().allMatch(Scenario::isLoadSharing);
        String routing = peers ? "peer load sharing (no balancer)"
                : count(s.balancers().count(), "balancer", "balancers") + ", " + s.information().model() + " information model";
        return String.format(Locale.ROOT,
                "Scenario %s: %s%n  %d nodes (capacity %.3g work units/s), %s arrivals at utilisation %.2f, %s demand, %s%n"
                        + "  %s x %s = %s on %s",
                s.name(), s.description(), s.nodes().count(), capacity, s.arrivals().process(), rho,
                s.demand().distribution(), routing, count(s.policies().size(), "policy", "policies"),
                count(s.seeds().size(), "seed", "seeds"), count(runs, "run", "runs"), count(threads, "worker", "workers"));
    }

    private static ObjectNode runInfo(ObjectMapper json, List<SimulationRunner.Outcome> outcomes, double wall, int threads) {
        ObjectNode info = json.createObjectNode();
        info.put("wall_seconds", wall);
        info.put("workers", threads);
        info.put("java", System.getProperty("java.version"));
        ArrayNode runs = info.putArray("runs");
        for (SimulationRunner.Outcome o : outcomes) {
            ObjectNode r = runs.addObject();
            r.put("policy", o.result().policy());
            r.put("seed", o.result().seed());
            r.put("events", o.events());
            r.put("wall_seconds", o.wallSeconds());
            r.put("events_per_second", o.wallSeconds() > 0 ? o.events() / o.wallSeconds() : 0);
        }
        return info;
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** "101:120" style description of a seed list. */
    static String describeSeeds(List<Long> seeds) {
        if (seeds.size() > 1 && seeds.get(seeds.size() - 1) - seeds.get(0) == seeds.size() - 1) {
            return seeds.get(0) + ":" + seeds.get(seeds.size() - 1);
        }
        return String.join(",", seeds.stream().map(String::valueOf).toList());
    }
}

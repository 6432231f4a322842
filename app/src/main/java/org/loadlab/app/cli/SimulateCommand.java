package org.loadlab.app.cli;

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
import java.util.concurrent.atomic.AtomicInteger;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.io.SummaryTable;
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

    @Option(names = "--decision-log", paramLabel = "DIR",
            description = "Sim mode: log every decision (pool, chosen node, propensity, outcome) to DIR/decisions-<policy>-<seed>.csv"
                    + " for `loadlab ope`.")
    private Path decisionLog;

    @Option(names = "--workers", paramLabel = "N", description = "Parallel runs in sim mode (default: number of cores).")
    private Integer workers;

    @Override
    public Integer call() throws IOException {
        if (!mode.equals("sim") && !mode.equals("live")) {
            throw new BadInputException("--mode = '" + mode + "': allowed: sim, live");
        }
        if (decisionLog != null && mode.equals("live")) {
            throw new BadInputException("--decision-log = " + decisionLog + ": decision logs are written in sim mode; drop --mode live");
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
        RunEstimate estimate = RunEstimate.streamed(s, specs.size(), threads);
        long heap = Runtime.getRuntime().maxMemory();
        if (!estimate.fits(heap)) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: %d runs of %d nodes need about %s of heap"
                            + " (%s per running run, %s per finished run until it is written, %s per written run's summary);"
                            + " this JVM has %s. Give it more with LOADLAB_JAVA_OPTS=\"-Xmx%dg -XX:+UseParallelGC\", or run"
                            + " fewer at once (--workers 1, a smaller nodes.count)",
                    s.name(), specs.size(), s.nodes().count(), RunEstimate.bytes(estimate.heapBytes()),
                    RunEstimate.bytes(RunEstimate.workingBytes(s)), RunEstimate.bytes(RunEstimate.keptBytes(s)),
                    RunEstimate.bytes(RunEstimate.SUMMARY_BYTES_PER_RUN), RunEstimate.bytes(heap),
                    (long) Math.ceil(estimate.heapBytes() / 0.9 / (1L << 30))));
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
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        AtomicInteger written = new AtomicInteger();
        List<RunResult> results;
        double wall;
        // Each run goes to disk when its turn comes and is then dropped: memory does not grow
        // with runs x nodes (10,000 nodes x 100 runs fit the default heap).
        try (ResultFiles files = new ResultFiles(dir, json.readTree(s.resolvedJson()))) {
            Writer writer = new Writer(files, json, s.name(), dir, threads, specs.size(), t0);
            Thread hook = new Thread(writer::onInterrupt, "loadlab-interrupted");
            Runtime.getRuntime().addShutdownHook(hook);
            try (RunProgress progress = new RunProgress(specs.size(), estimate.requestsPerRun(), PROGRESS_SECONDS, System.err)) {
                RunExecutor.runInOrder(specs, threads,
                        spec -> {
                            SimulationRunner.Outcome o = mode.equals("live")
                                    ? LiveRunner.run(spec, timeScale, LiveRunner.LAG_TOLERANCE, generated -> progress.started(spec, generated))
                                    : simulate(spec, generated -> progress.started(spec, generated));
                            progress.finished(spec);
                            return o;
                        },
                        o -> { },
                        o -> {
                            if (writer.add(o)) {
                                System.err.printf(Locale.ROOT, "  [%d/%d] %s seed %d%n", written.incrementAndGet(), specs.size(),
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
            wall = (System.nanoTime() - t0) / 1e9;
            writer.finish(wall, true);
            results = files.summaries();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }

        System.out.println();
        System.out.print(SummaryTable.render(results, SummaryTable.Columns.forModel(s.model())));
        System.out.println();
        System.out.printf(Locale.ROOT, "%s in %.1f s (%s mode). Results: %s/{results.csv, results.json, timeseries.csv, nodes.csv, run-info.json}%n",
                count(results.size(), "run", "runs"), wall, mode, dir);
        System.out.println("Plots: ./loadlab plot " + dir);
        return 0;
    }

    /** One simulated run, logging its decisions when asked. */
    private SimulationRunner.Outcome simulate(RunSpec spec, java.util.function.Consumer<java.util.function.LongSupplier> onStart) {
        if (decisionLog == null) {
            return SimulationRunner.runCounted(spec, onStart);
        }
        Path file = decisionLog.resolve("decisions-" + spec.policy() + "-" + spec.seed() + ".csv");
        try (org.loadlab.experiment.ope.DecisionLogFile log = new org.loadlab.experiment.ope.DecisionLogFile(file)) {
            return SimulationRunner.runLogged(spec, onStart, log);
        }
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
     * Streams a job's runs into its files and finishes them once: at the end, or from the
     * shutdown hook after Ctrl-C with the runs written so far (the runs in plan order up to
     * the first unfinished one), marked incomplete. Whichever comes first wins; the other
     * waits for it and then does nothing, so the files are never finished by both.
     */
    private static final class Writer {
        private final ResultFiles files;
        private final ObjectMapper json;
        private final String scenario;
        private final Path dir;
        private final int threads;
        private final int planned;
        private final long startNanos;
        private final ArrayNode runInfo;
        private int runs;
        private boolean finished;
        private volatile boolean interrupted;

        Writer(ResultFiles files, ObjectMapper json, String scenario, Path dir, int threads, int planned, long startNanos) {
            this.files = files;
            this.json = json;
            this.scenario = scenario;
            this.dir = dir;
            this.threads = threads;
            this.planned = planned;
            this.startNanos = startNanos;
            this.runInfo = json.createArrayNode();
        }

        boolean interrupted() {
            return interrupted;
        }

        /** Writes the next run in plan order; false once the files are finished (after Ctrl-C). */
        synchronized boolean add(SimulationRunner.Outcome o) throws IOException {
            if (finished) {
                return false;
            }
            files.add(o);
            runInfo.add(runInfo(json, o));
            runs++;
            return true;
        }

        synchronized void finish(double wall, boolean complete) throws IOException {
            if (finished) {
                return;
            }
            finished = true;
            files.commit();
            ObjectNode info = runInfo(json, runInfo, wall, threads);
            info.put("complete", complete);
            info.put("runs_planned", planned);
            json.writeValue(dir.resolve("run-info.json").toFile(), info);
            Path marker = dir.resolve(INCOMPLETE);
            if (complete) {
                Files.deleteIfExists(marker);
            } else {
                Files.writeString(marker, String.format(Locale.ROOT, "This directory holds %d of the %d runs of scenario %s:"
                        + " the job was interrupted (Ctrl-C) after %.0f s.%nRun the same command again for all of them.%n",
                        runs, planned, scenario, wall));
            }
        }

        /** The shutdown hook: keeps the runs written so far of an interrupted job. */
        void onInterrupt() {
            int kept;
            synchronized (this) {
                if (finished) {
                    return;
                }
                interrupted = true;
                CliErrors.interrupted();
                kept = runs;
                if (kept == 0) {
                    finished = true;
                    files.close(); // deletes the partial files; an earlier job's results stay
                    System.err.println("\ninterrupted before any run finished; nothing written");
                    return;
                }
            }
            System.err.printf(Locale.ROOT, "%ninterrupted: writing the %d of %d runs that have finished in plan order ...%n",
                    kept, planned);
            try {
                finish((System.nanoTime() - startNanos) / 1e9, false);
                System.err.printf(Locale.ROOT, "interrupted: wrote the %d of %d runs that had finished to %s (marked"
                        + " incomplete: %s, run-info.json \"complete\": false)%n", kept, planned, dir, INCOMPLETE);
            } catch (IOException | RuntimeException e) {
                System.err.println("\ninterrupted, and the finished runs could not be written: "
                        + (e instanceof IOException io ? CliErrors.describe(io) : CliErrors.message(e)));
            }
        }
    }

    /** Marker file of a directory written by an interrupted job. */
    static final String INCOMPLETE = "INCOMPLETE.txt";

    private String header(Scenario s, int runs, int threads) {
        long first = s.seeds().get(0);
        Topology topology = Topology.of(s, first);
        double capacity = topology.capacity(s.nodes().servers());
        double rho = s.arrivals().rate() > 0 ? s.arrivals().rate() * s.demand().mean() / capacity : s.arrivals().utilisation();
        boolean peers = s.policies().stream().allMatch(Scenario::isLoadSharing);
        String routing = peers ? "peer load sharing (no balancer)"
                : count(s.balancers().count(), "balancer", "balancers") + ", " + s.information().model() + " information model";
        String speeds = s.nodes().speedsPerSeed() ? ", mu_j redrawn per seed; seed " + first : "";
        String bins = s.isBallsIntoBins() ? String.format(Locale.ROOT, "%n  balls into bins: %d balls into %d bins"
                + " (no departures; max queue = max load)", s.requests(), s.nodes().count()) : "";
        return String.format(Locale.ROOT,
                "Scenario %s: %s%n  %d nodes (capacity %.3g work units/s%s), %s arrivals at utilisation %.2f, %s demand, %s%s%n"
                        + "  %s x %s = %s on %s",
                s.name(), s.description(), s.nodes().count(), capacity, speeds, s.arrivals().process(), rho,
                s.demand().distribution(), routing, bins, count(s.policies().size(), "policy", "policies"),
                count(s.seeds().size(), "seed", "seeds"), count(runs, "run", "runs"), count(threads, "worker", "workers"));
    }

    private static ObjectNode runInfo(ObjectMapper json, ArrayNode runs, double wall, int threads) {
        ObjectNode info = json.createObjectNode();
        info.put("wall_seconds", wall);
        info.put("workers", threads);
        info.put("java", System.getProperty("java.version"));
        info.set("runs", runs);
        return info;
    }

    private static ObjectNode runInfo(ObjectMapper json, SimulationRunner.Outcome o) {
        ObjectNode r = json.createObjectNode();
        r.put("policy", o.result().policy());
        r.put("seed", o.result().seed());
        r.put("events", o.events());
        r.put("wall_seconds", o.wallSeconds());
        r.put("events_per_second", o.wallSeconds() > 0 ? o.events() / o.wallSeconds() : 0);
        return r;
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

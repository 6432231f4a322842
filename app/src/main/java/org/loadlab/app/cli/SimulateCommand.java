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

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (!mode.equals("sim") && !mode.equals("live")) {
            throw new BadInputException("--mode = '" + mode + "': allowed: sim, live");
        }
        if (decisionLog != null && mode.equals("live")) {
            throw new BadInputException("--decision-log = " + decisionLog + ": decision logs are written in sim mode; drop --mode live");
        }
        if (!mode.equals("live") && spec.commandLine().getParseResult().hasMatchedOption("--time-scale")) {
            throw new BadInputException("--time-scale = " + typedTimeScale() + ": --time-scale applies to --mode live only"
                    + " (a simulation runs as fast as it can); add --mode live or drop --time-scale");
        }
        if (!(timeScale > 0) || Double.isInfinite(timeScale) || timeScale > LiveRunner.MAX_TIME_SCALE) {
            throw new BadInputException("--time-scale = " + typedTimeScale() + ": must be a number in (0, " + LiveRunner.MAX_TIME_SCALE
                    + "] (scenario seconds per real second; docs/results.md gives the range that keeps up on a 2-core machine)");
        }
        CampaignCommand.checkWorkers(workers);
        if (policies != null) {
            Scenarios.checkPolicies("--policies", policies);
        }
        if (seeds != null) {
            Scenarios.checkSeeds("--seeds", seeds);
        }
        Scenario s = Scenarios.load(scenario, sets, "--policies", policies, seeds);
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
            throw new BadInputException(String.format(Locale.ROOT, "%s: %s of %d nodes %s about %s of heap"
                            + " (%s per running run, %s per finished run until it is written, %s per written run's summary);"
                            + " this JVM has %s. Give it more with LOADLAB_JAVA_OPTS=\"-Xmx%dg -XX:+UseParallelGC\", or %s",
                    s.name(), Plural.count(specs.size(), "run", "runs"), s.nodes().count(), Plural.word(specs.size(), "needs", "need"),
                    RunEstimate.bytes(estimate.heapBytes()),
                    RunEstimate.bytes(RunEstimate.workingBytes(s)), RunEstimate.bytes(RunEstimate.keptBytes(s)),
                    RunEstimate.bytes(RunEstimate.SUMMARY_BYTES_PER_RUN), RunEstimate.bytes(heap),
                    (long) Math.ceil(estimate.heapBytes() / 0.9 / (1L << 30)), smaller(s)));
        }
        if (decisionLog != null) {
            checkDecisionLog(s);
            OutputDir.prepare(decisionLog, "--decision-log", true);
        }
        Path dir = OutputDir.prepare(out != null ? out : Path.of("results", s.name()), out != null);
        // Before anything is read or written there: a second job into the same directory would
        // truncate this one's .part files and commit a mixture. Refused at once (exit 2).
        DirLock lock = DirLock.acquire(dir, OutputDir.describe(dir, "--out", out != null), DirLock.RESULTS);
        DirLock logLock = null;
        try {
            // Two jobs logging into one directory would write the same decisions-<policy>-<seed>.csv
            // at once. The directory may be --out itself, which is locked already.
            if (decisionLog != null && !Files.isSameFile(decisionLog, dir)) {
                logLock = DirLock.acquire(decisionLog, OutputDir.describe(decisionLog, "--decision-log", true),
                        DirLock.job("--decision-log", "give this one another --decision-log"));
            }
            return run(s, specs, threads, estimate, dir);
        } finally {
            if (!CliErrors.interrupted) {
                if (logLock != null) {
                    logLock.close();
                }
                lock.close();
            } // else the shutdown hook is still writing the finished runs: the locks go with the process
        }
    }

    /** The job proper, in {@code dir} whose {@link DirLock} this process holds. */
    private int run(Scenario s, List<RunSpec> specs, int threads, RunEstimate estimate, Path dir) throws IOException {
        Optional<EarlierResults> earlier = EarlierResults.in(dir);

        System.out.println(header(s, sets, specs.size(), threads));
        if (!sets.isEmpty()) {
            System.out.println("  overrides: " + String.join(", ", sets));
        }
        earlier.ifPresent(e -> System.out.println("  " + e.notice(dir)));
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
        java.util.concurrent.atomic.AtomicLong lastRunLine = new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - RUN_LINE_NANOS);
        List<RunResult> results;
        double wall;
        // Each run goes to disk when its turn comes and is then dropped: memory does not grow
        // with runs x nodes (10,000 nodes x 100 runs fit the default heap).
        try (ResultFiles files = new ResultFiles(dir, json.readTree(s.resolvedJson()))) {
            Writer writer = new Writer(files, json, s.name(), dir, threads, specs.size(), t0, mode,
                    mode.equals("live") ? timeScale : null);
            Thread hook = new Thread(writer::onInterrupt, "loadlab-interrupted");
            Runtime.getRuntime().addShutdownHook(hook);
            try (RunProgress progress = new RunProgress(specs.size(), estimate.requestsPerRun(), PROGRESS_SECONDS, System.err)) {
                RunExecutor.runInOrder(specs, threads,
                        spec -> {
                            SimulationRunner.Outcome o = mode.equals("live")
                                    ? LiveRunner.run(spec, timeScale, LiveRunner.LAG_TOLERANCE, generated -> progress.started(spec, generated),
                                            lag -> writer.timerLag(spec.policy(), spec.seed(), lag))
                                    : simulate(spec, generated -> progress.started(spec, generated));
                            progress.finished(spec);
                            return o;
                        },
                        o -> { },
                        o -> {
                            if (writer.add(o)) {
                                // One line per second at most (and the last run's): sixty sub-second runs
                                // should not scroll the table's header away; slow runs still show each.
                                int k = written.incrementAndGet();
                                long now = System.nanoTime();
                                long last = lastRunLine.get();
                                if (k == specs.size() || now - last >= RUN_LINE_NANOS && lastRunLine.compareAndSet(last, now)) {
                                    System.err.printf(Locale.ROOT, "  [%d/%d] %s seed %d%n", k, specs.size(),
                                            o.result().policy(), o.result().seed());
                                }
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
                Plural.count(results.size(), "run", "runs"), wall, mode, dir);
        System.out.println("Plots: ./loadlab plot " + dir);
        return 0;
    }

    /**
     * What makes a job that does not fit the heap smaller: its time series when they take most
     * of a run's heap (a long run at a short {@code series-interval}, e.g. {@code duration = 0}
     * with many requests), else its nodes; fewer runs at once either way.
     */
    private static String smaller(Scenario s) {
        if (RunEstimate.seriesDominates(s)) {
            return String.format(Locale.ROOT, "record fewer time-series points (a longer series-interval: %s s gives %.0f points per"
                    + " run%s), or run fewer at once (--workers 1)", trim(s.seriesInterval()), RunEstimate.seriesPoints(s),
                    s.duration() > 0 ? "" : "; with duration = 0 a run lasts until its requests end");
        }
        return "run fewer at once (--workers 1, a smaller nodes.count)";
    }

    /**
     * Refuses {@code --decision-log} where nothing would be logged: decision logs record the
     * balancers' routing decisions, which the reference model and the load-sharing protocols
     * do not make (their logs would hold a header only, which {@code ope} cannot use).
     *
     * @throws BadInputException naming {@code --decision-log} and why
     */
    private void checkDecisionLog(Scenario s) {
        String what = "--decision-log = '" + decisionLog + "': decision logs record balancer decisions";
        if (s.isReferenceModel()) {
            throw new BadInputException(what + ", and model = reference (the ASMF seed's step simulation) makes none;"
                    + " drop --decision-log, or log a message-model scenario (e.g. --scenario quickstart)");
        }
        List<String> sharing = s.policies().stream().filter(Scenario::isLoadSharing).toList();
        if (!sharing.isEmpty()) {
            throw new BadInputException(what + ", and load-sharing protocols have none (the nodes pass requests among"
                    + " themselves): " + String.join(", ", sharing) + "; drop them from --policies or drop --decision-log");
        }
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

    /** Least time between two "[k/N] policy seed" lines, ns (the last run's line always shows). */
    static final long RUN_LINE_NANOS = 1_000_000_000L;

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

    /** --time-scale as the user typed it (the last one given), or the default's value. */
    private String typedTimeScale() {
        picocli.CommandLine.Model.OptionSpec o = spec.commandLine().getParseResult().matchedOption("--time-scale");
        if (o == null || o.stringValues().isEmpty()) {
            return trim(timeScale);
        }
        return o.stringValues().get(o.stringValues().size() - 1);
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
        private final String mode;
        private final Double timeScale;
        private final java.util.Map<String, org.loadlab.shell.actor.TimerLag.Window> lags = new java.util.concurrent.ConcurrentHashMap<>();
        private int runs;
        private boolean finished;
        private volatile boolean interrupted;

        Writer(ResultFiles files, ObjectMapper json, String scenario, Path dir, int threads, int planned, long startNanos,
               String mode, Double timeScale) {
            this.mode = mode;
            this.timeScale = timeScale;
            this.files = files;
            this.json = json;
            this.scenario = scenario;
            this.dir = dir;
            this.threads = threads;
            this.planned = planned;
            this.startNanos = startNanos;
            this.runInfo = json.createArrayNode();
        }

        /** Keeps a live run's timer lag for its line in run-info.json, written when the run is. */
        void timerLag(String policy, long seed, org.loadlab.shell.actor.TimerLag.Window lag) {
            lags.put(policy + "/" + seed, lag);
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
            ObjectNode r = runInfo(json, o);
            org.loadlab.shell.actor.TimerLag.Window lag = lags.remove(o.result().policy() + "/" + o.result().seed());
            if (lag != null) { // a live run: how late its timers fired (LiveRunner stops a run that falls behind)
                r.put("timers", lag.count());
                r.put("timer_lag_mean_ms", lag.meanNanos() / 1e6);
                r.put("timer_lag_max_ms", lag.maxNanos() / 1e6);
            }
            runInfo.add(r);
            runs++;
            return true;
        }

        /**
         * Finishes the files with the runs added so far.
         *
         * @return the number of runs the files hold, or -1 if they were already finished
         */
        synchronized int finish(double wall, boolean complete) throws IOException {
            if (finished) {
                return -1;
            }
            finished = true;
            files.commit();
            EarlierResults.deleteStalePlots(dir); // they show the runs just replaced
            ObjectNode info = runInfo(json, runInfo, wall, threads, mode, timeScale);
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
            return runs;
        }

        /** The shutdown hook: keeps the runs written so far of an interrupted job. */
        void onInterrupt() {
            synchronized (this) {
                if (finished) {
                    return;
                }
                interrupted = true;
                CliErrors.interrupted();
                if (runs == 0) {
                    finished = true;
                    files.close(); // deletes the partial files; an earlier job's results stay
                    System.err.println("\ninterrupted before any run finished; nothing written");
                    return;
                }
            }
            // Runs handed to add() meanwhile are written too: the count comes from finish(), which
            // writes the files, so the message, results.* and INCOMPLETE.txt agree.
            System.err.printf(Locale.ROOT, "%ninterrupted: writing the runs of the %d planned that have finished in plan order ...%n",
                    planned);
            try {
                int kept = finish((System.nanoTime() - startNanos) / 1e9, false);
                if (kept < 0) {
                    return; // the job finished its files first
                }
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

    /** The seed's five node profiles, which docs/autonomous.md finds top out near 490 requests/s together. */
    private static final List<String> SEED_PROFILES = List.of("high-compute", "standard-med", "standard-slow",
            "unstable-jittery", "slow-legacy");

    /**
     * The header's line on nodes and load. A queue model has a capacity Σ c·μ_j in work units/s
     * and a utilisation ρ = λ·E[S] / capacity. The reference model (the ASMF seed's step
     * simulation) counts whole work units of its own ({@link org.loadlab.studies.asmf.ReferenceLoad}):
     * the line gives λ in requests/s and, for Poisson arrivals, ρ in those units. Seed 003's
     * profile nodes (latency grows with active requests, no fixed μ) have no ρ: the line gives
     * λ in requests/s and the capacity docs/autonomous.md measured.
     */
    static String loadLine(Scenario s) {
        long first = s.seeds().get(0);
        String speeds = s.nodes().speedsPerSeed() ? ", mu_j redrawn per seed; seed " + first : "";
        if (s.isReferenceModel()) {
            // The model's own units (docs/asmf.md): a job adds max(1, ceil(S)) units, a backend serves floor(mu_j dt) a step.
            org.loadlab.studies.asmf.ReferenceLoad load = org.loadlab.studies.asmf.ReferenceLoad.of(s);
            String rho = s.arrivals().process().equals("poisson") ? String.format(Locale.ROOT, "; utilisation %s in the"
                    + " model's units: %s units per request (docs/asmf.md)", utilisation(load.utilisation()), num(load.unitsPerJob()))
                    : " (docs/asmf.md)";
            return String.format(Locale.ROOT, "%d nodes, model = reference (the ASMF seed's step simulation: capacity %s"
                            + " work units/s of its own)%s, %s arrivals at %s, %s demand%s",
                    s.nodes().count(), num(load.capacityUnitsPerSecond()), speeds, s.arrivals().process(), rate(s),
                    s.demand().distribution(), rho);
        }
        if (s.autonomy().profileNodes()) {
            List<String> all = s.autonomy().profiles().stream().map(org.loadlab.node.profile.NodeProfile::name).toList();
            List<String> names = all.stream().filter(n -> !n.equals("autoscaled")).toList();
            long slots = all.size() - names.size();
            String capacity = names.equals(SEED_PROFILES)
                    ? "; the seed's five profiles top out near 490 requests/s together: docs/autonomous.md"
                    : "; no fixed capacity: docs/autonomous.md";
            return String.format(Locale.ROOT, "%d profile nodes%s, nodes.model = profiles (%s%s), %s arrivals at %s",
                    names.size(), slots > 0 ? " + " + slots + " autoscaler slots" : "", String.join(", ", names), capacity,
                    s.arrivals().process(), rate(s));
        }
        double capacity = Topology.of(s, first).capacity(s.nodes().servers());
        double rho = s.arrivals().rate() > 0 ? s.arrivals().rate() * s.demand().mean() / capacity : s.arrivals().utilisation();
        return String.format(Locale.ROOT, "%d nodes (capacity %.3g work units/s%s), %s arrivals at utilisation %s, %s demand",
                s.nodes().count(), capacity, speeds, s.arrivals().process(), utilisation(rho), s.demand().distribution());
    }

    /** The arrival rate in requests/s, or the utilisation it is set by. */
    private static String rate(Scenario s) {
        return s.arrivals().rate() > 0 ? num(s.arrivals().rate()) + " requests/s"
                : "utilisation " + utilisation(s.arrivals().utilisation()) + " of the nominal capacity";
    }

    /**
     * A utilisation ρ for the header: two decimals (0.70, 1.23), but a ρ below 0.1 to 4
     * significant digits, which two decimals would misstate (0.0001, not 0.00).
     */
    static String utilisation(double rho) {
        return rho >= 0.1 || rho <= 0 ? String.format(Locale.ROOT, "%.2f", rho) : num(rho);
    }

    /** {@code x} to 4 significant digits without trailing zeros: 60, 2.055, 100. */
    private static String num(double x) {
        return new java.math.BigDecimal(x).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /**
     * What routes the requests: the peers themselves when every policy is a load-sharing
     * protocol (there is no balancer), else the balancers and their information model.
     *
     * @return e.g. {@code peer load sharing (no balancer)} or {@code 1 balancer, probe information model}
     */
    static String routing(Scenario s) {
        boolean peers = s.policies().stream().allMatch(Scenario::isLoadSharing);
        return peers ? "peer load sharing (no balancer)"
                : Plural.count(s.balancers().count(), "balancer", "balancers") + ", " + s.information().model() + " information model";
    }

    /**
     * The header printed before the runs: the scenario's name and description, its load line
     * ({@link #loadLine}), routing, and the runs. With {@code --set} overrides the description,
     * written with the scenario, may no longer hold (it may name a ρ the overrides changed), so
     * it is marked as the scenario's own; the lines below it show what is run.
     *
     * @param sets the {@code --set} overrides, printed after the header
     */
    static String header(Scenario s, List<String> sets, int runs, int threads) {
        String routing = routing(s);
        String bins = s.isBallsIntoBins() ? String.format(Locale.ROOT, "%n  balls into bins: %d balls into %d bins"
                + " (no departures; max queue = max load)", s.requests(), s.nodes().count()) : "";
        return String.format(Locale.ROOT,
                "Scenario %s%s%s%n  %s, %s%s%n  %s x %s = %s on %s",
                // No "name: " with nothing after it when the scenario has no description.
                s.name(), s.description().isBlank() ? "" : ": " + s.description(), sets.isEmpty() || s.description().isBlank() ? ""
                        : " (the scenario's description, before the --set overrides below)", loadLine(s), routing, bins, Plural.count(s.policies().size(), "policy", "policies"),
                Plural.count(s.seeds().size(), "seed", "seeds"), Plural.count(runs, "run", "runs"), Plural.count(threads, "worker", "workers"));
    }

    /**
     * The job's run-info.json: the mode ({@code sim} or {@code live}, as a cluster experiment's
     * says {@code cluster}) and, live, the time scale (the keys the cluster writes), then wall-clock
     * figures and one line per run.
     */
    private static ObjectNode runInfo(ObjectMapper json, ArrayNode runs, double wall, int threads, String mode, Double timeScale) {
        ObjectNode info = json.createObjectNode();
        info.put("mode", mode);
        if (timeScale != null) {
            info.put("time_scale", timeScale);
        }
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

    /** "101:120" style description of a seed list. */
    static String describeSeeds(List<Long> seeds) {
        if (seeds.size() > 1 && seeds.get(seeds.size() - 1) - seeds.get(0) == seeds.size() - 1) {
            return seeds.get(0) + ":" + seeds.get(seeds.size() - 1);
        }
        return String.join(",", seeds.stream().map(String::valueOf).toList());
    }
}

package org.loadlab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.loadlab.shell.campaign.CampaignEntity;
import org.loadlab.experiment.campaign.CampaignLoader;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.campaign.CampaignResults;
import org.loadlab.shell.campaign.CampaignRunner;
import org.loadlab.shell.campaign.ClusterCampaign;
import org.loadlab.shell.campaign.CampaignStore;
import org.loadlab.experiment.run.RunEstimate;
import org.loadlab.experiment.run.RunExecutor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab campaign run|resume|status|list}: persistent, resumable campaigns of
 * many runs with statistics, plots and a report.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true, description = "Run, resume and inspect campaigns (many runs, persisted, with a report).",
        subcommands = {CampaignCommand.Run.class, CampaignCommand.Resume.class, CampaignCommand.Status.class,
                CampaignCommand.ListCampaigns.class})
final class CampaignCommand implements Callable<Integer> {
    /**
     * Where campaigns go without --out: {@code results/campaigns} under the working directory
     * (the system property {@code loadlab.campaigns.root} moves it, for tests).
     */
    static Path root() {
        return Path.of(System.getProperty("loadlab.campaigns.root", "results/campaigns"));
    }
    private static final String MANIFEST = "campaign.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the usage on stderr, exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().println();
        spec.commandLine().getErr().println("error: name a campaign command: run, resume, status or list");
        return LoadLabCli.BAD_INPUT;
    }

    static CampaignLoader loader() {
        return new CampaignLoader(Scenarios.loader());
    }

    /** Most parallel runs a command accepts: more threads than this only contend for the cores. */
    static final int MAX_WORKERS = 256;

    static void checkWorkers(Integer workers) {
        if (workers != null && (workers < 1 || workers > MAX_WORKERS)) {
            throw new BadInputException("--workers = " + workers + ": must be in [1, " + MAX_WORKERS + "] (this machine has "
                    + Runtime.getRuntime().availableProcessors() + " cores)");
        }
    }

    /** The flags of {@code run} and {@code resume} that send a campaign's runs to a cluster. */
    static final class ClusterOptions {
        @Option(names = "--cluster", description = "Spread the runs over a running LoadLab cluster (./loadlab local-cluster, or"
                + " `cluster` members): the members with the node role simulate them; results and journal stay here.")
        boolean cluster;

        @Option(names = "--seed-nodes", split = ",", paramLabel = "HOST:PORT",
                description = "With --cluster: the cluster's seed nodes (default: 127.0.0.1:2551, local-cluster's gateway).")
        List<String> seedNodes;

        @Option(names = "--cluster-timeout", paramLabel = "SECONDS",
                description = "With --cluster: how long to wait for the cluster and a member with the node role (default: 20).")
        Integer clusterTimeout;

        /** The target these flags describe, or null without --cluster ({@link ClusterTarget#of}). */
        ClusterTarget target(Integer workers) {
            return ClusterTarget.of(cluster, seedNodes, clusterTimeout, workers);
        }
    }

    /**
     * Where a campaign's runs go with {@code --cluster}: the cluster's seed nodes and how
     * long to wait for it.
     *
     * @param seeds seed nodes (host:port or pekko:// addresses)
     * @param timeout how long to wait for the cluster before refusing
     * @param settings further Pekko settings of this process as a cluster member (key = value; tests shorten the
     *     split brain resolver's stable-after with it, to match their members)
     * @param env the environment the journal settings are read from ({@code LOADLAB_JDBC_URL} ...; the process's)
     */
    record ClusterTarget(List<String> seeds, java.time.Duration timeout, List<String> settings, Map<String, String> env) {
        /** The default seed: the gateway member of {@code local-cluster} (and of {@code cluster} without --port). */
        static final String DEFAULT_SEED = "127.0.0.1:2551";
        /** Default of --cluster-timeout, seconds. */
        static final int DEFAULT_TIMEOUT = 20;

        /**
         * The target the flags describe, or null without {@code --cluster}.
         *
         * @throws BadInputException naming the flag, if a cluster flag is given without --cluster, a seed is malformed,
         *     the timeout is out of range, or --workers is given with --cluster
         */
        static ClusterTarget of(boolean cluster, List<String> seedNodes, Integer timeoutSeconds, Integer workers) {
            if (!cluster) {
                if (seedNodes != null) {
                    throw new BadInputException("--seed-nodes = " + String.join(",", seedNodes) + ": only with --cluster");
                }
                if (timeoutSeconds != null) {
                    throw new BadInputException("--cluster-timeout = " + timeoutSeconds + ": only with --cluster");
                }
                return null;
            }
            if (workers != null) {
                throw new BadInputException("--workers = " + workers + ": does not apply with --cluster (each member runs as"
                        + " many runs at once as it has cores; set loadlab.campaign.run-dispatcher on the members to change it)");
            }
            List<String> seeds = seedNodes != null ? seedNodes : List.of(DEFAULT_SEED);
            List<String> problems = new org.loadlab.shell.cluster.MemberOptions(null, null, null, seeds, null, null, null,
                    List.of()).problems();
            if (!problems.isEmpty()) {
                throw new BadInputException(String.join("; ", problems));
            }
            int t = timeoutSeconds != null ? timeoutSeconds : DEFAULT_TIMEOUT;
            if (t < 1 || t > 600) {
                throw new BadInputException("--cluster-timeout = " + t + ": must be in [1, 600] seconds");
            }
            return new ClusterTarget(seeds, java.time.Duration.ofSeconds(t), List.of(), System.getenv());
        }
    }

    /** Runs a plan in {@code dir} and writes its results and report. */
    static int execute(CampaignPlan plan, Path dir, boolean outGiven, Integer workers, boolean svg) throws IOException {
        return execute(plan, dir, outGiven, workers, svg, null);
    }

    /**
     * Runs a plan in {@code dir}, on this machine or spread over a cluster, and writes its
     * results and report (the same files either way).
     *
     * @param target the cluster to run on, or null for this machine
     */
    static int execute(CampaignPlan plan, Path dir, boolean outGiven, Integer workers, boolean svg, ClusterTarget target)
            throws IOException {
        int threads = target != null ? 1 : workers != null ? workers : RunExecutor.defaultWorkers();
        Path manifest = dir.resolve(MANIFEST);
        if (Files.exists(manifest)) {
            String existing = JSON.readTree(manifest.toFile()).path("id").asText();
            if (!existing.equals(plan.id())) {
                throw new BadInputException("--out = '" + dir + "' holds campaign " + existing + ", not " + plan.id()
                        + "; choose another directory");
            }
        }
        RunEstimate estimate = RunEstimate.of(plan.runs().stream().map(r -> r.spec().scenario()).toList(), threads);
        long heap = Runtime.getRuntime().maxMemory();
        if (!estimate.fits(heap)) {
            throw new BadInputException(String.format(Locale.ROOT, "campaign %s: %s %s about %s of heap (running runs"
                            + " and the results kept for the report); this JVM has %s. Give it more with LOADLAB_JAVA_OPTS=\"-Xmx%dg"
                            + " -XX:+UseParallelGC\", or run fewer (--seeds, fewer policies or sweep points, --workers 1)",
                    plan.id(), Plural.count(plan.runs().size(), "run", "runs"), Plural.word(plan.runs().size(), "needs", "need"),
                    RunEstimate.bytes(estimate.heapBytes()), RunEstimate.bytes(heap),
                    (long) Math.ceil(estimate.heapBytes() / 0.9 / (1L << 30))));
        }
        // One job at a time in a campaign's directory: two would open one journal (H2's AUTO_SERVER
        // lets the second in) and write the same report files. A directory that exists is locked
        // before a cluster is joined (a second coordinator must not join the first one's cluster);
        // a new one after, so that a cluster that does not answer leaves nothing behind.
        DirLock.Guard guard = DirLock.job("--out", "follow it with `loadlab campaign status " + plan.id()
                + (outGiven ? " --out " + dir : "") + "`");
        String what = OutputDir.describe(dir, "--out", outGiven);
        DirLock lock = Files.isDirectory(dir) ? DirLock.acquire(OutputDir.prepare(dir, outGiven), what, guard) : null;
        ClusterCampaign cluster = null;
        try {
            if (target != null) {
                try {
                    cluster = ClusterCampaign.connect(target.seeds(), dir, target.env(), target.timeout(), target.settings());
                } catch (IllegalArgumentException e) {
                    throw new BadInputException("--cluster: " + e.getMessage());
                }
            }
            if (lock == null) {
                lock = DirLock.acquire(OutputDir.prepare(dir, outGiven), what, guard);
            }
            return execute(plan, dir, outGiven, svg, threads, estimate, cluster, target != null ? target.env() : System.getenv());
        } finally {
            try {
                if (cluster != null) {
                    cluster.close();
                }
            } finally {
                if (lock != null) {
                    lock.close();
                }
            }
        }
    }

    private static int execute(CampaignPlan plan, Path dir, boolean outGiven, boolean svg, int threads, RunEstimate estimate,
                               ClusterCampaign cluster, Map<String, String> env) throws IOException {
        // dir is prepared and its DirLock held by this process
        if (estimate.isLong()) {
            System.out.printf(Locale.ROOT, "  a long campaign: about %.3g requests in all; progress below%n", estimate.totalRequests());
        }
        if (plan.runs().size() > RunEstimate.MANY_RUNS) {
            System.err.printf(Locale.ROOT, "warning: %d runs; this takes long and the journal, runs.csv and report grow with"
                    + " them (about 0.3 MB per run); fewer seeds (--seeds 101:110) usually give tight enough intervals%n",
                    plan.runs().size());
        }
        if (outGiven) {
            Seen.remember(dir);
        }
        ObjectNode m = JSON.createObjectNode();
        m.put("id", plan.id());
        m.put("name", plan.name());
        m.put("description", plan.description());
        m.put("runs", plan.runs().size());
        m.set("definition", JSON.readTree(plan.definitionJson()));
        JSON.writeValue(dir.resolve(MANIFEST).toFile(), m);

        String where = cluster == null ? threads + " worker(s)" : "the cluster (run members " + String.join(", ", cluster.runMembers())
                + ", each one run per core)";
        System.out.printf(Locale.ROOT, "Campaign %s%s%n  %s on %s; journal: %s; output: %s%n", plan.id(),
                plan.description().isBlank() ? "" : ": " + plan.description(), Plural.count(plan.runs().size(), "run", "runs"), where, CampaignStore.describe(dir, env), dir);
        String resume = "./loadlab campaign resume " + plan.id() + (outGiven ? " --out " + dir : "")
                + (cluster != null ? " --cluster --seed-nodes " + String.join(",", cluster.seeds()) : "");
        // The hook stays until the report is written: Ctrl-C while it is written says so too.
        java.util.concurrent.atomic.AtomicBoolean reporting = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread hook = new Thread(() -> {
            if (done.get()) {
                return;
            }
            CliErrors.interrupted();
            System.err.println();
            if (reporting.get()) {
                System.err.println("interrupted while the report was written: every run is stored in the campaign's journal in "
                        + dir + ", but the report (report.html, report.md, runs.csv, ...) is incomplete.");
                System.err.println("Rebuild it (no run is repeated) with:  " + resume);
            } else {
                System.err.println("interrupted: every run finished so far is stored in the campaign's journal in " + dir + ".");
                System.err.println("Finish the campaign (without repeating those runs) with:  " + resume);
            }
        }, "loadlab-campaign-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            CampaignRunner.Outcome o;
            if (cluster != null) {
                try {
                    o = cluster.run(plan, dir, System.out, System.console() != null);
                } catch (ClusterCampaign.Failed f) {
                    throw new CommandFailedException("campaign " + plan.id() + " on the cluster: " + f.getMessage() + ". Every run"
                            + " finished so far is stored in the journal in " + dir + "; finish the campaign with:  " + resume
                            + "  (or without --cluster on this machine)");
                }
            } else {
                o = CampaignRunner.run(plan, dir, threads, CampaignResults::execute, System.out, System.console() != null);
            }
            int ran = o.total() - o.resumedFrom();
            System.out.printf(Locale.ROOT, "%s done (%d now, %d from the journal) in %.1f s%s%n", Plural.count(o.total(), "run", "runs"), ran,
                    o.resumedFrom(), o.wallSeconds(), ran > 0 ? String.format(Locale.ROOT, ", %.1f runs/s", ran / o.wallSeconds()) : "");
            reporting.set(true);
            // report.html is written last: removed first, its presence means this report is whole
            // (a re-report cut short must not leave the previous one looking finished).
            Files.deleteIfExists(dir.resolve(REPORT));
            if (Boolean.getBoolean(PAUSE_BEFORE_REPORT)) {
                pauseForTests();
            }
            CampaignResults.report(plan, dir, o.runJsons(), svg);
            done.set(true);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook prints how to finish or rebuild
            }
        }
        System.out.println("Report: " + dir.resolve(REPORT) + " (and report.md, runs.csv, summary.csv, pairwise.csv, plots/)");
        return 0;
    }

    /** The last file a report writes: its presence means the campaign is finished, runs and report. */
    private static final String REPORT = org.loadlab.analysis.campaign.CampaignReport.REPORT_HTML;

    /**
     * System property (tests only): sleep before the report is written, so that a test can
     * interrupt a campaign at that moment.
     */
    static final String PAUSE_BEFORE_REPORT = "loadlab.test.pause-before-report";

    private static void pauseForTests() {
        System.out.println("writing the report ...");
        System.out.flush();
        try {
            Thread.sleep(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The state of the campaign in {@code dir} as {@code status} and {@code list} both print
     * it: finished only once its report is written (the report's last file exists).
     *
     * @param dir the campaign's directory
     * @param runsFinished whether the journal holds every run, or null if not read
     * @return {@code finished}, {@code incomplete, report not written} or {@code incomplete}
     */
    static String state(Path dir, Boolean runsFinished) {
        if (Files.exists(dir.resolve(REPORT))) {
            return FINISHED;
        }
        return Boolean.TRUE.equals(runsFinished) ? "incomplete, report not written" : "incomplete";
    }

    private static final String FINISHED = "finished";

    /**
     * The plan of the campaign stored in {@code dir}.
     *
     * @param dir the campaign's directory
     * @param id the campaign id the user gave
     * @param outGiven whether {@code dir} was given with {@code --out} (for the wording of errors)
     * @throws BadInputException if {@code dir} holds no campaign, or a campaign with another id
     *     than {@code id}, or its definition no longer gives its id
     */
    static CampaignPlan planFrom(Path dir, String id, boolean outGiven) throws IOException {
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest)) {
            throw new BadInputException("campaign '" + id + "': no " + MANIFEST + " in " + dir
                    + "; see `loadlab campaign list`, or pass --out DIR of the campaign");
        }
        JsonNode m = JSON.readTree(manifest.toFile());
        String stored = m.path("id").asText();
        if (!stored.equals(id)) {
            throw new BadInputException((outGiven ? "--out = '" + dir + "'" : dir.toString()) + " holds campaign " + stored
                    + ", not " + id + "; give the id of the campaign in that directory, or the --out DIR of campaign " + id);
        }
        CampaignPlan plan = loader().parse(ConfigFactory.parseString(m.path("definition").toString()), manifest.toString());
        if (!plan.id().equals(stored)) {
            throw new BadInputException("the definition in " + manifest + " no longer gives id " + stored
                    + " (got " + plan.id() + "): a scenario file it uses has changed");
        }
        return plan;
    }

    static Path dirOf(String id, Path out) {
        return out != null ? out : root().resolve(id);
    }

    /**
     * The directory of the known campaign {@code id}, for {@code status} and {@code resume}:
     * {@code out} if given; else {@code results/campaigns/<id>} if it holds the campaign, else
     * the directory run with {@code --out} from here ({@link Seen}) that holds it: the places
     * {@code campaign list} shows.
     *
     * @param id the campaign id
     * @param out the --out directory, or null
     * @throws BadInputException if, without {@code out}, no such place holds campaign {@code id},
     *     or more than one {@code --out} directory does
     */
    static Path locate(String id, Path out) {
        if (out != null) {
            return out;
        }
        Path home = root().resolve(id);
        if (Files.isRegularFile(home.resolve(MANIFEST))) {
            return home;
        }
        List<Path> found = Seen.dirs().stream().filter(d -> id.equals(idIn(d))).toList();
        if (found.size() > 1) {
            throw new BadInputException("campaign '" + id + "' is in " + found.size() + " directories run with --out: "
                    + String.join(", ", found.stream().map(Path::toString).toList()) + "; pass --out DIR to choose one");
        }
        if (found.isEmpty()) {
            throw new BadInputException("campaign '" + id + "': no " + MANIFEST + " in " + home + ", nor in a directory run"
                    + " with --out from here (" + Seen.file() + "); see `loadlab campaign list`, or pass --out DIR of the campaign");
        }
        return found.get(0);
    }

    /** Whether {@code dir} is where campaign {@code id} goes without --out (no --out needed to name it). */
    private static boolean isDefaultDir(Path dir, String id) {
        return sameFile(dir, root().resolve(id));
    }

    private static boolean sameFile(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    /** The id in {@code dir}'s campaign.json, or null if it has none or it cannot be read. */
    private static String idIn(Path dir) {
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest)) {
            return null;
        }
        try {
            return JSON.readTree(manifest.toFile()).path("id").asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** The campaign names of {@link CampaignLoader#BUILT_INS}, for the help of {@code campaign run}. */
    static final class BuiltInNames implements Iterable<String> {
        /** The built-in campaigns' names, in the catalogue's order. */
        @Override
        public java.util.Iterator<String> iterator() {
            return CampaignLoader.BUILT_INS.keySet().iterator();
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true, description = "Run a campaign (built-in name or HOCON file); rerunning the same command resumes it.")
    static final class Run implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME|FILE", completionCandidates = BuiltInNames.class,
                description = "A built-in campaign (${COMPLETION-CANDIDATES}; `loadlab campaign list` lists them too) or a"
                        + " campaign file.")
        String campaign;

        @Option(names = "--seeds", paramLabel = "A:B", description = "Replace the campaign's seed blocks, e.g. 101:103.")
        String seeds;

        @Option(names = "--workers", paramLabel = "N", description = "Parallel runs (default: number of cores).")
        Integer workers;

        @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/campaigns/<id>).")
        Path out;

        @Option(names = "--set", paramLabel = "KEY=VALUE",
                description = "Override a key of every scenario of the campaign, e.g. --set duration=600 (repeatable; part of the campaign's id).")
        java.util.List<String> sets = new java.util.ArrayList<>();

        @Option(names = "--svg", description = "Also write every plot as SVG (vector, for papers; several MB per plot).")
        boolean svg;

        @Mixin
        ClusterOptions clusterOptions;

        @Override
        public Integer call() throws IOException {
            checkWorkers(workers);
            if (seeds != null) {
                Scenarios.checkSeeds("--seeds", seeds); // named by the flag, not as the campaign's seeds key
            }
            ClusterTarget target = clusterOptions.target(workers);
            CampaignPlan plan = loader().load(campaign, seeds, sets);
            warnOverridden(plan, sets, System.err);
            return execute(plan, dirOf(plan.id(), out), out != null, workers, svg, target);
        }

        /**
         * Warns about every {@code --set} key the campaign itself sets at each run: a swept key
         * (docs/campaigns.md: the sweep wins), {@code policies} (the campaign's list) and
         * {@code seeds} (the campaign's seeds, or {@code --seeds}). The values were validated.
         */
        static void warnOverridden(CampaignPlan plan, List<String> sets, java.io.PrintStream err) {
            if (sets.isEmpty()) {
                return;
            }
            for (String key : org.loadlab.experiment.scenario.ScenarioLoader.applyOverrides(ConfigFactory.empty(), sets, "--set")
                    .entrySet().stream().map(java.util.Map.Entry::getKey).sorted().toList()) {
                String why = plan.sweepKeys().contains(key) ? "the campaign sweeps " + key + ", and the sweep's values win"
                        + " (docs/campaigns.md); change the sweep in a campaign file to run other values"
                        : key.equals("policies") ? "the campaign runs its own policies list; name them in a campaign file"
                        : key.equals("seeds") ? "the campaign runs its own seeds; use --seeds A:B" : null;
                if (why != null) {
                    err.println("warning: --set " + key + " has no effect: " + why);
                }
            }
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Finish a campaign that was interrupted, without repeating finished runs.")
    static final class Resume implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "Campaign id (see `loadlab campaign list`).")
        String id;

        @Option(names = "--workers", paramLabel = "N", description = "Parallel runs (default: number of cores).")
        Integer workers;

        @Option(names = "--out", paramLabel = "DIR", description = "The campaign's directory (default: results/campaigns/<id>).")
        Path out;

        @Option(names = "--svg", description = "Also write every plot as SVG.")
        boolean svg;

        @Mixin
        ClusterOptions clusterOptions;

        @Override
        public Integer call() throws IOException {
            checkWorkers(workers);
            ClusterTarget target = clusterOptions.target(workers);
            Path dir = locate(id, out);
            boolean outNeeded = out != null || !isDefaultDir(dir, id);
            return execute(planFrom(dir, id, out != null), dir, outNeeded, workers, svg, target);
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "How many runs of a campaign are done.")
    static final class Status implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "Campaign id.")
        String id;

        @Option(names = "--out", paramLabel = "DIR", description = "The campaign's directory (default: results/campaigns/<id>).")
        Path out;

        @Override
        public Integer call() throws IOException {
            Path dir = locate(id, out);
            CampaignPlan plan = planFrom(dir, id, out != null);
            CampaignEntity.State s = CampaignRunner.status(plan.id(), dir);
            boolean outNeeded = out != null || !isDefaultDir(dir, id);
            String resume = "`loadlab campaign resume " + plan.id() + (outNeeded ? " --out " + dir : "") + "`";
            String state = state(dir, s.finished());
            System.out.printf(Locale.ROOT, "%s: %d of %s done (%.0f%%), %s%n", plan.id(), s.completed().size(),
                    Plural.count(plan.runs().size(), "run", "runs"), 100.0 * s.completed().size() / plan.runs().size(),
                    !s.started() && !s.finished() ? "not started" : state.equals(FINISHED) ? state : state + ": " + resume);
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List the built-in campaigns and the campaigns run here (results/campaigns/ and every --out DIR seen).")
    static final class ListCampaigns implements Callable<Integer> {
        @Override
        public Integer call() throws IOException {
            System.out.println("Built-in campaigns (./loadlab campaign run NAME):");
            CampaignLoader.BUILT_INS.keySet().forEach(n -> System.out.println("  " + n));
            List<Path> dirs = new java.util.ArrayList<>();
            if (Files.isDirectory(root())) {
                try (Stream<Path> s = Files.list(root())) {
                    s.filter(d -> Files.isRegularFile(d.resolve(MANIFEST))).sorted().forEach(dirs::add);
                }
            }
            for (Path d : Seen.dirs()) {
                if (Files.isRegularFile(d.resolve(MANIFEST)) && dirs.stream().noneMatch(x -> sameFile(x, d))) {
                    dirs.add(d);
                }
            }
            System.out.println();
            if (dirs.isEmpty()) {
                System.out.println("No campaigns run yet under " + root() + " (nor with --out from here).");
                return 0;
            }
            List<JsonNode> manifests = new java.util.ArrayList<>();
            for (Path d : dirs) {
                manifests.add(JSON.readTree(d.resolve(MANIFEST).toFile()));
            }
            int idWidth = Math.max("id".length(), manifests.stream().mapToInt(m -> m.path("id").asText().length()).max().orElse(0));
            String row = "%-" + idWidth + "s %8s  %-10s  %s%n";
            System.out.printf(row, "id", "runs", "state", "directory");
            List<String> resumes = new java.util.ArrayList<>();
            for (int i = 0; i < dirs.size(); i++) {
                Path d = dirs.get(i);
                String id = manifests.get(i).path("id").asText();
                String state = state(d, null);
                System.out.printf(row, id, manifests.get(i).path("runs").asInt(), state, d);
                if (!state.equals(FINISHED)) {
                    resumes.add("./loadlab campaign resume " + id + (isDefaultDir(d, id) ? "" : " --out " + d));
                }
            }
            if (!resumes.isEmpty()) {
                System.out.println();
                System.out.println("Finish an incomplete campaign (its stored runs are not repeated) with:");
                resumes.forEach(r -> System.out.println("  " + r));
            }
            return 0;
        }
    }

    /**
     * The campaign directories given with {@code --out} from this working directory, kept in
     * {@code results/campaigns/elsewhere.txt} (one absolute path a line) so that
     * {@code campaign list} finds them.
     */
    static final class Seen {
        static Path file() {
            return root().resolve("elsewhere.txt");
        }

        private Seen() {
        }

        static void remember(Path dir) {
            String line = dir.toAbsolutePath().normalize().toString();
            try {
                if (dirs().stream().anyMatch(d -> d.toString().equals(line))) {
                    return;
                }
                Files.createDirectories(root());
                Files.writeString(file(), line + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.err.println("note: cannot record " + dir + " in " + file() + " (" + CliErrors.describe(e)
                        + "); `campaign list` will not show it");
            }
        }

        static List<Path> dirs() {
            if (!Files.isRegularFile(file())) {
                return List.of();
            }
            try {
                return Files.readAllLines(file()).stream().filter(l -> !l.isBlank()).map(Path::of).toList();
            } catch (IOException e) {
                return List.of();
            }
        }
    }
}

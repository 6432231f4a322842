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
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.io.SummaryTable;
import org.loadlab.shell.live.LiveRunner;
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
        if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
            throw new BadInputException("--time-scale = " + timeScale + ": must be a number > 0");
        }
        CampaignCommand.checkWorkers(workers);
        Scenario s = Scenarios.load(scenario, sets, policies, seeds);
        Path dir = out != null ? out : Path.of("results", s.name());
        if (out != null && (out.toString().isBlank() || Files.exists(out) && !Files.isDirectory(out))) {
            throw new BadInputException("--out = '" + out + "': " + (out.toString().isBlank() ? "empty" : "is a file")
                    + "; give a directory (it is created if missing)");
        }
        List<RunSpec> specs = new ArrayList<>();
        for (String p : s.policies()) {
            for (long seed : s.seeds()) {
                specs.add(new RunSpec(s, p, seed));
            }
        }
        int threads = mode.equals("live") ? 1 : workers != null ? workers : RunExecutor.defaultWorkers();
        System.out.println(header(s, specs.size(), threads));
        if (!sets.isEmpty()) {
            System.out.println("  overrides: " + String.join(", ", sets));
        }

        long t0 = System.nanoTime();
        AtomicInteger done = new AtomicInteger();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        JsonNode scenarioJson = json.readTree(s.resolvedJson());
        ArrayNode runInfo = json.createArrayNode();
        List<RunResult> results;
        // Each run goes to disk when its turn comes and is then dropped: memory does not grow
        // with runs x nodes (10,000 nodes x 100 runs fit the default heap).
        try (ResultFiles files = new ResultFiles(dir, scenarioJson)) {
            RunExecutor.runInOrder(specs, threads,
                    spec -> mode.equals("live") ? LiveRunner.run(spec, timeScale) : SimulationRunner.runCounted(spec),
                    o -> System.err.printf(Locale.ROOT, "  [%d/%d] %s seed %d%n", done.incrementAndGet(), specs.size(),
                            o.result().policy(), o.result().seed()),
                    o -> {
                        files.add(o);
                        runInfo.add(runInfo(json, o));
                    });
            files.commit();
            results = files.summaries();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        json.writeValue(dir.resolve("run-info.json").toFile(), runInfo(json, runInfo, wall, threads));

        System.out.println();
        System.out.print(SummaryTable.render(results));
        System.out.println();
        System.out.printf(Locale.ROOT, "%s in %.1f s (%s mode). Results: %s/{results.csv, results.json, timeseries.csv, nodes.csv, run-info.json}%n",
                count(results.size(), "run", "runs"), wall, mode, dir);
        return 0;
    }

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

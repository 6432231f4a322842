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
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.loadlab.shell.campaign.CampaignEntity;
import org.loadlab.experiment.campaign.CampaignLoader;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.campaign.CampaignResults;
import org.loadlab.shell.campaign.CampaignRunner;
import org.loadlab.shell.campaign.CampaignStore;
import org.loadlab.experiment.run.RunExecutor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab campaign run|resume|status|list}: persistent, resumable campaigns of
 * many runs with statistics, plots and a report.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true, description = "Run, resume and inspect campaigns (many runs, persisted, with a report).",
        subcommands = {CampaignCommand.Run.class, CampaignCommand.Resume.class, CampaignCommand.Status.class,
                CampaignCommand.ListCampaigns.class})
final class CampaignCommand implements Runnable {
    /** Where campaigns go without --out. */
    static final Path ROOT = Path.of("results", "campaigns");
    private static final String MANIFEST = "campaign.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
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

    /** Runs a plan in {@code dir} and writes its results and report. */
    static int execute(CampaignPlan plan, Path dir, Integer workers) throws IOException {
        int threads = workers != null ? workers : RunExecutor.defaultWorkers();
        Path manifest = dir.resolve(MANIFEST);
        if (Files.exists(manifest)) {
            String existing = JSON.readTree(manifest.toFile()).path("id").asText();
            if (!existing.equals(plan.id())) {
                throw new BadInputException("--out " + dir + " holds campaign " + existing + ", not " + plan.id()
                        + "; choose another directory");
            }
        } else if (Files.isRegularFile(dir)) {
            throw new BadInputException("--out " + dir + " is a file; give a directory");
        }
        Files.createDirectories(dir);
        ObjectNode m = JSON.createObjectNode();
        m.put("id", plan.id());
        m.put("name", plan.name());
        m.put("description", plan.description());
        m.put("runs", plan.runs().size());
        m.set("definition", JSON.readTree(plan.definitionJson()));
        JSON.writeValue(manifest.toFile(), m);

        System.out.printf(Locale.ROOT, "Campaign %s: %s%n  %d runs on %d worker(s); journal: %s; output: %s%n", plan.id(),
                plan.description(), plan.runs().size(), threads, CampaignStore.describe(dir, System.getenv()), dir);
        CampaignRunner.Outcome o = CampaignRunner.run(plan, dir, threads, CampaignResults::execute, System.out,
                System.console() != null);
        int ran = o.total() - o.resumedFrom();
        System.out.printf(Locale.ROOT, "%d runs done (%d now, %d from the journal) in %.1f s%s%n", o.total(), ran,
                o.resumedFrom(), o.wallSeconds(), ran > 0 ? String.format(Locale.ROOT, ", %.1f runs/s", ran / o.wallSeconds()) : "");
        CampaignResults.report(plan, dir, o.runJsons());
        System.out.println("Report: " + dir.resolve("report.html") + " (and report.md, runs.csv, summary.csv, pairwise.csv, plots/)");
        return 0;
    }

    /** The plan of the campaign stored in {@code dir}. */
    static CampaignPlan planFrom(Path dir, String id) throws IOException {
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest)) {
            throw new BadInputException("campaign '" + id + "': no " + MANIFEST + " in " + dir
                    + "; see `loadlab campaign list`, or pass --out DIR of the campaign");
        }
        JsonNode m = JSON.readTree(manifest.toFile());
        CampaignPlan plan = loader().parse(ConfigFactory.parseString(m.path("definition").toString()), manifest.toString());
        if (!plan.id().equals(m.path("id").asText())) {
            throw new BadInputException("the definition in " + manifest + " no longer gives id " + m.path("id").asText()
                    + " (got " + plan.id() + "): a scenario file it uses has changed");
        }
        return plan;
    }

    static Path dirOf(String id, Path out) {
        return out != null ? out : ROOT.resolve(id);
    }

    @Command(name = "run", mixinStandardHelpOptions = true, description = "Run a campaign (built-in name or HOCON file); rerunning the same command resumes it.")
    static final class Run implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME|FILE", description = "Built-in campaign (policy-sweep) or a campaign file.")
        String campaign;

        @Option(names = "--seeds", paramLabel = "A:B", description = "Replace the campaign's seed blocks, e.g. 101:103.")
        String seeds;

        @Option(names = "--workers", paramLabel = "N", description = "Parallel runs (default: number of cores).")
        Integer workers;

        @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/campaigns/<id>).")
        Path out;

        @Override
        public Integer call() throws IOException {
            checkWorkers(workers);
            CampaignPlan plan = loader().load(campaign, seeds);
            return execute(plan, dirOf(plan.id(), out), workers);
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

        @Override
        public Integer call() throws IOException {
            checkWorkers(workers);
            Path dir = dirOf(id, out);
            return execute(planFrom(dir, id), dir, workers);
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
            Path dir = dirOf(id, out);
            CampaignPlan plan = planFrom(dir, id);
            CampaignEntity.State s = CampaignRunner.status(plan.id(), dir);
            System.out.printf(Locale.ROOT, "%s: %d of %d runs done (%.0f%%), %s%n", plan.id(), s.completed().size(),
                    plan.runs().size(), 100.0 * s.completed().size() / plan.runs().size(),
                    s.finished() ? "finished" : s.started() ? "not finished: `loadlab campaign resume " + plan.id()
                            + (out != null ? " --out " + out : "") + "`" : "not started");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the campaigns under results/campaigns/.")
    static final class ListCampaigns implements Callable<Integer> {
        @Override
        public Integer call() throws IOException {
            if (!Files.isDirectory(ROOT)) {
                System.out.println("no campaigns yet under " + ROOT);
                return 0;
            }
            List<Path> dirs;
            try (Stream<Path> s = Files.list(ROOT)) {
                dirs = s.filter(d -> Files.isRegularFile(d.resolve(MANIFEST))).sorted().toList();
            }
            System.out.printf("%-40s %8s  %s%n", "id", "runs", "state");
            for (Path d : dirs) {
                JsonNode m = JSON.readTree(d.resolve(MANIFEST).toFile());
                String state = Files.exists(d.resolve("report.html")) ? "finished" : "incomplete (campaign status / resume)";
                System.out.printf("%-40s %8d  %s%n", m.path("id").asText(), m.path("runs").asInt(), state);
            }
            return 0;
        }
    }
}

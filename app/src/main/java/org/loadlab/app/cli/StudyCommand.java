package org.loadlab.app.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.loadlab.experiment.scenario.Seeds;
import org.loadlab.studies.production.ProductionStudies;
import org.loadlab.studies.production.StudyTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab study NAME [--seeds A:B] [--out DIR]}: runs one of the production studies
 * of docs/production.md (herding, cold-start, slow-host, retry-storm, scale-event) in the
 * simulation, prints its table and writes NAME.md, NAME.csv and NAME.png into DIR
 * (default {@code results/studies}). Exit code 2 for an unknown study, bad seeds or an
 * unusable {@code --out} (checked before the study runs).
 */
@Command(name = "study", mixinStandardHelpOptions = true,
        description = "Run a production study (herding, cold-start, slow-host, retry-storm, scale-event, hash-remapping): table and plot.")
final class StudyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "herding, cold-start, slow-host, retry-storm, scale-event or hash-remapping.")
    private String name;

    @Option(names = "--seeds", paramLabel = "A:B", description = "Seeds of every variant (default: the scenario's own).")
    private String seeds;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/studies", description = "Output directory.")
    private Path out;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!ProductionStudies.NAMES.contains(name)) {
            String nearest = CliErrors.nearest(name, ProductionStudies.NAMES);
            throw new BadInputException("study '" + name + "' does not exist; " + (nearest != null ? "did you mean " + nearest + "? " : "")
                    + "allowed: " + String.join(", ", ProductionStudies.NAMES));
        }
        if (seeds != null && name.equals("hash-remapping")) {
            throw new BadInputException("--seeds = '" + seeds + "': study hash-remapping takes no seeds (it hashes a fixed set"
                    + " of keys; no run is random); leave --seeds out");
        }
        if (seeds != null) {
            Scenarios.checkSeeds("--seeds", seeds); // "--seeds = '5:1': block 5:1 ends ...", the value named once
        }
        List<Long> s = seeds != null ? Seeds.parse(seeds)
                : name.equals("hash-remapping") ? List.of() : Scenarios.loader().load(name, List.of()).seeds();
        // The output is checked before the study runs (seconds to minutes), not after.
        boolean given = spec.commandLine().getParseResult().hasMatchedOption("--out");
        OutputDir.prepare(out, given);
        // A lock per study: two runs of one study would write the same NAME.* files at once, while
        // two different studies share the default directory without touching each other's files.
        StudyTable table;
        long t0 = System.nanoTime();
        try (DirLock lock = DirLock.acquire(out, OutputDir.describe(out, "--out", given),
                DirLock.job(".loadlab-study-" + name + ".lock", "--out", "give this one another --out"))) {
            table = ProductionStudies.run(name, s, out);
        }
        System.out.println(table.title());
        System.out.println();
        System.out.print(table.markdown());
        System.out.printf(java.util.Locale.ROOT, "%n%s%.1f s. Wrote %s/{%s.md, %s.csv%s}%n", s.isEmpty() ? "" : "seeds " + s + "; ",
                (System.nanoTime() - t0) / 1e9, out, name, name, name.equals("hash-remapping") ? "" : ", " + name + ".png");
        return 0;
    }
}

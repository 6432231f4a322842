package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.loadlab.experiment.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loadlab validate FILE}: checks a scenario (or a campaign file: one with a {@code scenarios} key) without running it. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "Check a scenario file (or built-in name), or a campaign file, without running it.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Scenario file (HOCON) or built-in name.")
    private String file;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        // Named as validate's argument: the loader would name simulate's --scenario, which validate has not.
        String missing = org.loadlab.experiment.scenario.ScenarioLoader.missing("FILE", file, "scenario or campaign file");
        if (missing != null) {
            throw new BadInputException(missing);
        }
        if (isCampaignFile(file)) {
            // A campaign file read as a scenario gives "scenarios: unknown key" and its own keys as
            // problems; check it as `campaign run` would, before anything runs.
            org.loadlab.experiment.campaign.CampaignPlan plan = CampaignCommand.loader().load(file, null, sets);
            System.out.printf("%s: valid campaign %s (%d runs; run it with ./loadlab campaign run %s)%n",
                    file, plan.id(), plan.runs().size(), file);
            return 0;
        }
        Scenario s = Scenarios.load(file, sets, null, null);
        // What runs, as simulate's header says it: load sharing has peers and no balancer.
        System.out.printf("%s: valid (%d nodes, %s, %s arrivals, policies %s, seeds %s)%n",
                file, s.nodes().count(), SimulateCommand.routing(s), s.arrivals().process(),
                String.join(",", s.policies()), SimulateCommand.describeSeeds(s.seeds()));
        return 0;
    }

    /**
     * Whether {@code file} is a readable HOCON file with a top-level {@code scenarios} key, the
     * key a campaign has and a scenario does not (results.json files, scenarios too, have none).
     */
    static boolean isCampaignFile(String file) {
        java.nio.file.Path path = java.nio.file.Path.of(file);
        if (file.isBlank() || !java.nio.file.Files.isRegularFile(path)) {
            return false;
        }
        try {
            return org.loadlab.experiment.scenario.StrictIncludes.parseFile(path).hasPathOrNull("scenarios");
        } catch (com.typesafe.config.ConfigException e) {
            return false; // the scenario loader reports the parse error
        }
    }
}

package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.loadlab.experiment.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loadlab validate FILE}: checks a scenario without running it. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "Check a scenario file (or built-in name) without running it.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "Scenario file (HOCON) or built-in name.")
    private String file;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        Scenario s = Scenarios.load(file, sets, null, null);
        // What runs, as simulate's header says it: load sharing has peers and no balancer.
        System.out.printf("%s: valid (%d nodes, %s, %s arrivals, policies %s, seeds %s)%n",
                file, s.nodes().count(), SimulateCommand.routing(s), s.arrivals().process(),
                String.join(",", s.policies()), SimulateCommand.describeSeeds(s.seeds()));
        return 0;
    }
}

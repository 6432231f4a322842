package org.loadlab.app.cli;

import java.util.Map;
import org.loadlab.experiment.scenario.BuiltIns;
import org.loadlab.experiment.scenario.Scenario;
import picocli.CommandLine.Command;

/** {@code loadlab scenarios}: lists the built-in scenarios with a one-line description. */
@Command(name = "scenarios", mixinStandardHelpOptions = true, description = "List the built-in scenarios.")
final class ScenariosCommand implements Runnable {
    @Override
    public void run() {
        int width = BuiltIns.SCENARIOS.keySet().stream().mapToInt(String::length).max().orElse(10);
        for (Map.Entry<String, String> e : BuiltIns.SCENARIOS.entrySet()) {
            Scenario s = Scenarios.loader().load(e.getKey(), java.util.List.of());
            System.out.printf("%-" + width + "s  %s%n", e.getKey(), s.description());
        }
        System.out.println();
        System.out.println("Run one:  ./loadlab simulate --scenario NAME     Keys: docs/scenarios.md");
    }
}

package org.loadlab.app.cli;

import org.loadlab.balancer.policy.PolicyCatalog;
import picocli.CommandLine.Command;

/** {@code loadlab policies}: lists the built-in selection policies. */
@Command(name = "policies", mixinStandardHelpOptions = true, description = "List the built-in selection policies.")
final class PoliciesCommand implements Runnable {
    @Override
    public void run() {
        int width = PolicyCatalog.entries().stream().mapToInt(e -> e.name().length()).max().orElse(10);
        for (PolicyCatalog.Entry e : PolicyCatalog.entries()) {
            System.out.printf("%-" + width + "s  %s%n", e.name(), e.description());
        }
    }
}

package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.experiment.scenario.BuiltIns;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Which scenarios {@code loadlab gateway} can serve: seed 003's system, whose nodes run the
 * profile latency model ({@code nodes.model = profiles}). Those nodes report the CPU and queue
 * that the CPU mask, QoS shedding and {@code GET /explain-routing} read, at the seed's time
 * scale (tens of ms per request); queue nodes report no CPU and serve a request in the
 * scenario's demand mean (1 s in {@code quickstart}), so the gateway would answer
 * {@code "cpu_load": "unknown"} and time out under any load. A load-sharing scenario has no
 * balancer at all (its policies are peer protocols). Both are refused before anything starts.
 *
 * <p>Source: seed 003, SPEC.md §6.
 */
final class GatewayScenarios {
    private GatewayScenarios() {
    }

    /**
     * Checks that the gateway can serve {@code s}.
     *
     * @param given the {@code --scenario} value as the user wrote it
     * @throws BadInputException naming {@code --scenario}, what the scenario lacks and the built-in scenarios the gateway serves
     */
    static void check(Scenario s, String given) {
        if (s.autonomy().profileNodes()) {
            return;
        }
        boolean sharing = !s.policies().isEmpty() && s.policies().stream().allMatch(Scenario::isLoadSharing);
        throw new BadInputException("--scenario = '" + given + "': the gateway serves seed 003's system, whose nodes report"
                + " CPU and queue (nodes.model = profiles); " + s.name() + " has nodes.model = " + s.autonomy().nodeModel()
                + (sharing ? " and no balancer (its policies are load-sharing protocols)" : "") + "; allowed "
                + String.join(", ", servable()) + ", or a scenario file with nodes.model = profiles");
    }

    /** The built-in scenarios with profile nodes, in listing order. */
    static List<String> servable() {
        List<String> out = new ArrayList<>();
        for (String name : BuiltIns.SCENARIOS.keySet()) {
            try {
                if (Scenarios.loader().load(name, List.of()).autonomy().profileNodes()) {
                    out.add(name);
                }
            } catch (RuntimeException unloadable) {
                // a built-in that needs more than its defaults is not one to suggest
            }
        }
        return out;
    }
}

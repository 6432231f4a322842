package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run header's load line: a queue model's capacity and utilisation ρ; the reference
 * model's in its own work units (docs/asmf.md); for profile nodes, which have no fixed
 * capacity, the arrival rate in requests/s and the capacity docs/autonomous.md measured.
 */
class SimulateHeaderTest {
    private static String line(String scenario) {
        return SimulateCommand.loadLine(Scenarios.load(scenario, List.of(), null, null));
    }

    @Test
    void aQueueModelShowsItsCapacityAndUtilisation() {
        String q = line("quickstart");
        assertTrue(q.contains("20 nodes (capacity 20.0 work units/s)") && q.contains("utilisation 0.80"), q);
    }

    @Test
    void profileNodesShowTheArrivalRateAndTheDocumentedCapacity() {
        String a = line("autonomous");
        assertTrue(a.contains("periodic arrivals at 500 requests/s"), a);
        assertTrue(a.contains("nodes.model = profiles") && a.contains("near 490 requests/s"), a);
        assertTrue(a.contains("5 profile nodes + 5 autoscaler slots"), a);
        assertFalse(a.contains("utilisation") || a.contains("work units/s"), "no queue-model figures: " + a);
    }

    @Test
    void theReferenceModelShowsTheArrivalRateAndNoQueueModelUtilisation() {
        String r = line("asmf-poisson-small");
        assertTrue(r.contains("model = reference") && r.contains("poisson arrivals at 60 requests/s"), r);
        assertTrue(r.contains("capacity 100 work units/s of its own") && r.contains("utilisation 1.23"), "docs/asmf.md: about 1.2: " + r);
        assertFalse(r.contains("utilisation 0.60"), "no queue-model rho: " + r);
    }

    @Test
    void aSmallUtilisationIsShownWithItsDigits() {
        String q = SimulateCommand.loadLine(Scenarios.load("quickstart", List.of("arrivals.utilisation=0.0001"), null, null));
        assertTrue(q.contains("poisson arrivals at utilisation 0.0001,"), q);
        assertEquals("0.70", SimulateCommand.utilisation(0.7));
        assertEquals("0.05", SimulateCommand.utilisation(0.05));
        assertEquals("0.001235", SimulateCommand.utilisation(0.0012346));
    }

    @Test
    void withOverridesTheDescriptionIsMarkedAsTheScenariosOwn() {
        List<String> sets = List.of("arrivals.utilisation=0.0001");
        String h = SimulateCommand.header(Scenarios.load("quickstart", sets, null, null), sets, 5, 2);
        String first = h.lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("Scenario quickstart: 20 identical nodes, Poisson arrivals at rho 0.8")
                && first.endsWith(" (the scenario's description, before the --set overrides below)"), first);
        String plain = SimulateCommand.header(Scenarios.load("quickstart", List.of(), null, null), List.of(), 5, 2);
        assertFalse(plain.contains("--set"), "no mark without overrides: " + plain);
    }

    @Test
    void aScenarioWithoutDescriptionHasNoDanglingColon() {
        // It printed "Scenario quickstart: " with nothing after the colon.
        List<String> sets = List.of("description=\"\"");
        String first = SimulateCommand.header(Scenarios.load("quickstart", sets, null, null), sets, 5, 2).lines().findFirst().orElseThrow();
        assertEquals("Scenario quickstart", first);
    }
}

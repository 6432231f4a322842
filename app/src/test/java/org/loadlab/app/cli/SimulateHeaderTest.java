package org.loadlab.app.cli;

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
}

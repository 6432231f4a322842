package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** validate describes what the scenario runs, as simulate's header does. */
class ValidateCommandTest {

    @Test
    void aLoadSharingScenarioHasPeersAndNoBalancer() {
        CliCapture.Printed p = CliCapture.runCapturingSystemOut("validate", "load-sharing");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("load-sharing: valid (40 nodes, peer load sharing (no balancer), poisson arrivals"), p.out());
        assertFalse(p.out().contains("balancer(s)") || p.out().contains("probe"), p.out());
    }

    @Test
    void aBalancerScenarioNamesItsBalancersAndInformationModel() {
        CliCapture.Printed p = CliCapture.runCapturingSystemOut("validate", "quickstart");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("quickstart: valid (20 nodes, 1 balancer, probe information model, poisson arrivals"), p.out());
    }
}

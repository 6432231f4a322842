package org.loadlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A single value where the scenario has a block of keys ({@code --set nodes.service-rate=-1},
 * where {@code service-rate { distribution, value, min, max }} belongs) is one problem naming
 * the key, the value and the block's keys, in every mode (the shared loader), instead of one
 * "must be a number / string" per key of the block.
 */
class BlockGivenValueTest {
    private static final ScenarioLoader LOADER = new ScenarioLoader(
            n -> org.loadlab.balancer.policy.PolicyCatalog.find(n).isPresent(), org.loadlab.balancer.policy.PolicyCatalog.names());

    private static List<String> problems(String... overrides) {
        return assertThrows(ScenarioException.class, () -> LOADER.load("quickstart", List.of(overrides))).problems();
    }

    @Test
    void aNumberForServiceRateIsOneProblemNamingTheKeyTheValueAndTheSubKeys() {
        assertEquals(List.of("nodes.service-rate = -1: must be a block of keys (distribution, max, min, value), not a single"
                + " value; set one of them, e.g. nodes.service-rate.value = 1 (docs/scenarios.md lists each)"),
                problems("nodes.service-rate=-1"));
    }

    @Test
    void listsNullsAndWholeBlocksAreNamedOnceEach() {
        assertEquals(1, problems("nodes.service-rate=[1, 2]").size());
        assertEquals(1, problems("nodes.service-rate=null").size());
        List<String> p = problems("nodes=5", "policy.asmf=3");
        assertEquals(2, p.size(), p.toString());
        assertEquals("nodes", ScenarioException.keyOf(p.get(0)));
        assertEquals("5", ScenarioException.valueOf(p.get(0)));
        assertEquals("policy.asmf", ScenarioException.keyOf(p.get(1)));
    }

    @Test
    void otherProblemsAreStillReportedAlongside() {
        List<String> p = problems("nodes.service-rate=-1", "nodes.count=0");
        assertEquals(2, p.size(), p.toString());
        assertEquals("nodes.service-rate", ScenarioException.keyOf(p.get(0)));
        assertEquals("nodes.count", ScenarioException.keyOf(p.get(1)));
    }

    @Test
    void aScenarioTreeIsCheckedAlike() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> LOADER.parse(
                ConfigFactory.parseString("nodes { service-rate = 3 }"), "request body", Path.of(".")));
        assertEquals(1, e.problems().size(), e.problems().toString());
        assertEquals("nodes.service-rate", ScenarioException.keyOf(e.problems().get(0)));
    }

    @Test
    void aSubKeyStillGetsItsOwnCheck() {
        assertEquals(List.of("nodes.service-rate.value = -1.0: must be >= 0 (work units/s)"),
                problems("nodes.service-rate.value=-1"));
    }
}

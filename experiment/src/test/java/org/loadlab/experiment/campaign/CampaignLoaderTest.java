package org.loadlab.experiment.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.ScenarioException;

class CampaignLoaderTest {
    private final CampaignLoader loader = new CampaignLoader(TestScenarios.loader());

    private CampaignPlan parse(String hocon) {
        return loader.parse(ConfigFactory.parseString(hocon), "test");
    }

    private String problems(String hocon) {
        return String.join("\n", assertThrows(ScenarioException.class, () -> parse(hocon)).problems());
    }

    @Test
    void expandsScenariosPointsVariantsAndSeedsInAFixedOrder() {
        CampaignPlan p = parse("""
                name = grid
                seeds = "1:3"
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [0.5, 0.9], "nodes.count" = [10, 20] }
                policies = [random, { name = p3c, policy = power-of-k, set { policy.k = 3 } }]
                reference = random
                """);
        assertEquals(1 * 4 * 2 * 3, p.runs().size());
        CampaignPlan.PlannedRun first = p.runs().get(0);
        assertEquals("random", first.variant());
        assertEquals(1, first.spec().seed());
        assertEquals("0.5", first.parameters().get("arrivals.utilisation"));
        CampaignPlan.PlannedRun p3c = p.runs().get(3);
        assertEquals("p3c", p3c.variant());
        assertEquals("power-of-k", p3c.spec().policy());
        assertEquals(3, p3c.spec().scenario().policy().k());
        assertEquals(List.of("arrivals.utilisation", "nodes.count"), p.sweepKeys());
        for (int i = 0; i < p.runs().size(); i++) {
            assertEquals(i, p.runs().get(i).index());
        }
        assertEquals(p.id(), parse("""
                name = grid
                seeds = "1:3"
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [0.5, 0.9], "nodes.count" = [10, 20] }
                policies = [random, { name = p3c, policy = power-of-k, set { policy.k = 3 } }]
                reference = random
                """).id(), "the same definition gives the same id");
    }

    @Test
    void theExecutionOrderTakesEveryCellsFirstSeedBeforeAnySecondOne() {
        CampaignPlan p = parse("""
                name = grid
                seeds = "1:3"
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [0.5, 0.9] }
                policies = [random, p2c, least-queue]
                reference = random
                """);
        List<CampaignPlan.PlannedRun> order = p.executionOrder();
        int cells = 2 * 3;
        assertEquals(p.runs().size(), order.size());
        assertEquals(p.runs().size(), order.stream().map(CampaignPlan.PlannedRun::index).distinct().count(),
                "every run exactly once");
        for (int i = 0; i < order.size(); i++) {
            CampaignPlan.PlannedRun r = order.get(i);
            assertEquals(1 + i / cells, r.spec().seed(), "round " + i / cells + " is every cell's seed " + (1 + i / cells));
            assertEquals(p.runs().get(r.index()), r, "a run keeps its plan index");
        }
        List<String> firstRound = order.subList(0, cells).stream()
                .map(r -> r.parameters() + " " + r.variant()).toList();
        assertEquals(cells, firstRound.stream().distinct().count(), "the first round has one run of every cell");
        assertEquals(p.runs().stream().filter(r -> r.spec().seed() == 1).toList(), order.subList(0, cells),
                "each round is in plan order");
    }

    @Test
    void setOverridesEveryScenarioIsStoredInTheDefinitionAndChangesTheId() {
        CampaignPlan plain = loader.load("policy-sweep", "101");
        CampaignPlan longer = loader.load("policy-sweep", "101", List.of("warmup=100", "nodes.count=8"));
        assertNotEquals(plain.id(), longer.id(), "overrides are part of the campaign");
        assertEquals(plain.runs().size(), longer.runs().size());
        for (CampaignPlan.PlannedRun r : longer.runs()) {
            assertEquals(100.0, r.spec().scenario().warmup());
            assertEquals(8, r.spec().scenario().nodes().count());
        }
        assertTrue(longer.definitionJson().contains("\"warmup\":100"), longer.definitionJson());
        CampaignPlan again = loader.parse(ConfigFactory.parseString(longer.definitionJson()), "stored");
        assertEquals(longer.id(), again.id(), "resume rebuilds the same plan from the stored definition");
        ScenarioException bad = assertThrows(ScenarioException.class,
                () -> loader.load("policy-sweep", "101", List.of("nodes.cont=3")));
        assertTrue(bad.getMessage().contains("nodes.cont: unknown key"), bad.getMessage());
        ScenarioException malformed = assertThrows(ScenarioException.class,
                () -> loader.load("policy-sweep", "101", List.of("warmup")));
        assertTrue(malformed.getMessage().contains("--set 'warmup': expected key=value"), malformed.getMessage());
    }

    @Test
    void anUnknownScenarioIsNamedByTheCampaignsKeyNotByTheSimulateFlag() {
        String p = problems("""
                name = unknown
                scenarios = [quickstart, nosuch-scenario, { scenario = nosuch-either, set { warmup = 5 } }]
                sweep { "arrivals.utilisation" = [0.5, 0.7] }
                policies = [random, p2c]
                """);
        List<String> lines = p.lines().toList();
        assertEquals(List.of("scenarios[1] = 'nosuch-scenario': no such built-in scenario or file; built-in: quickstart",
                "scenarios[2].scenario = 'nosuch-either': no such built-in scenario or file; built-in: quickstart"),
                lines.stream().map(l -> l.substring(0, l.indexOf(", azure"))).toList(),
                "one problem per entry (not per point and policy), named by the campaign's key: " + p);
        assertFalse(p.contains("--scenario"), "a campaign file has no --scenario flag: " + p);
    }

    @Test
    void aMalformedSetIsAProblemOfTheCampaignNamingTheFlag() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> loader.load("policy-sweep", "101", List.of("duration")));
        assertTrue(e.getMessage().startsWith("campaign policy-sweep is invalid:"), e.getMessage());
        assertEquals(List.of("--set 'duration': expected key=value, e.g. --set arrivals.utilisation=0.9"), e.problems());
    }

    @Test
    void seedsMayBeAListAsDocumented() {
        // docs/campaigns.md: seeds = "101:120", "101,105", or [101, 105]; the list used to fail as '[101'.
        CampaignPlan p = parse("""
                name = listed
                seeds = [101, 105]
                scenarios = [quickstart]
                policies = [random]
                reference = random
                """);
        assertEquals(List.of(101L, 105L), p.runs().stream().map(r -> r.spec().seed()).toList());
        String bad = problems("""
                name = listed
                seeds = "5:1"
                scenarios = [quickstart]
                policies = [random]
                reference = random
                """);
        assertTrue(bad.startsWith("seeds = '5:1': block 5:1 ends before it starts"), bad);
    }

    @Test
    void aSeedListedTwiceIsAProblemOfTheCampaign() {
        // [101, 101] used to run seed 101 once, silently; a variant named twice is already refused.
        String listed = problems("""
                name = twice
                seeds = [101, 101]
                scenarios = [quickstart]
                policies = [random]
                reference = random
                """);
        assertTrue(listed.startsWith("seeds = '101,101': seed 101 is given twice; give each seed once"), listed);
        String overlap = problems("""
                name = twice
                seeds = "101:110,105"
                scenarios = [quickstart]
                policies = [random]
                reference = random
                """);
        assertTrue(overlap.startsWith("seeds = '101:110,105': seed 105 is given twice (in 101:110 and as 105)"), overlap);
        ScenarioException e = assertThrows(ScenarioException.class, () -> loader.load("policy-sweep", "101:103,102"));
        assertTrue(e.problems().get(0).startsWith("seeds = '101:103,102': seed 102 is given twice"), e.problems().toString());
    }

    @Test
    void aDirectoryOrAnEmptyNameIsNamedAsSuch(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String d = String.join("\n", assertThrows(ScenarioException.class, () -> loader.load(dir.toString(), null)).problems());
        assertTrue(d.startsWith("campaign '" + dir + "': is a directory, not a campaign file; give a campaign file (HOCON)"), d);
        String e = String.join("\n", assertThrows(ScenarioException.class, () -> loader.load("", null)).problems());
        assertTrue(e.startsWith("campaign '': empty; give a campaign file (HOCON) or a built-in name; built-in: policy-sweep"), e);
        String m = String.join("\n", assertThrows(ScenarioException.class, () -> loader.load(dir.resolve("x.conf").toString(), null))
                .problems());
        assertTrue(m.contains("': no such built-in campaign or file; built-in: policy-sweep"), m);
    }

    @Test
    void aCampaignFileThatDoesNotParseIsNamedOnceWithItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("c.conf"), "name = c\nscenarios = [\n");
        String p = String.join("\n", assertThrows(ScenarioException.class, () -> loader.load(file.toString(), null)).problems());
        assertTrue(p.startsWith("cannot parse " + file + ": line 3: List should have ]"), p);
        assertFalse(p.substring(("cannot parse " + file).length()).contains(file.toString()), "the file once: " + p);
    }

    @Test
    void seedsChangeTheId() {
        CampaignPlan a = loader.load("policy-sweep", "101:102");
        CampaignPlan b = loader.load("policy-sweep", "101:103");
        assertNotEquals(a.id(), b.id());
        assertEquals(6 * 6 * 2, a.runs().size());
    }

    @Test
    void randomSearchIsDeterministicAndWithinItsRanges() {
        String hocon = """
                name = rs
                seeds = "1"
                scenarios = [quickstart]
                policies = [asmf]
                random-search { samples = 5, seed = 9, ranges { "policy.asmf.eta" = [0.003, 0.02], "policy.asmf.k" = [2, 4] } }
                """;
        CampaignPlan a = parse(hocon);
        CampaignPlan b = parse(hocon);
        assertEquals(5, a.runs().size());
        for (int i = 0; i < 5; i++) {
            assertEquals(a.runs().get(i).parameters(), b.runs().get(i).parameters());
            double eta = Double.parseDouble(a.runs().get(i).parameters().get("policy.asmf.eta"));
            int k = Integer.parseInt(a.runs().get(i).parameters().get("policy.asmf.k"));
            assertTrue(eta >= 0.003 && eta <= 0.02 && k >= 2 && k <= 4);
            assertEquals(k, a.runs().get(i).spec().scenario().policy().asmf().k());
        }
    }

    @Test
    void problemsNameTheEntryPointVariantAndKey() {
        String p = problems("""
                name = bad
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [0.5, 1.5] }
                policies = [random, random]
                reference = p2c
                """);
        assertTrue(p.contains("policies[1]: the name 'random' is used twice"), p);
        assertTrue(p.contains("reference = 'p2c'"), p);
        String q = problems("""
                name = bad2
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [0.5, 1.5] }
                policies = [random]
                """);
        assertTrue(q.contains("quickstart at {arrivals.utilisation=1.5}, policy random: arrivals.utilisation = 1.5"), q);
        String r = problems("name = x, scenarios = [quickstart], policies = [random], sweeep {}");
        assertTrue(r.contains("sweeep: unknown key"), r);
    }

    @Test
    void aMisspeltCampaignKeyAndTheScenariosProblemsAreReportedInOneRound() {
        String p = problems("""
                name = both
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [1.5] }
                policies = [random]
                refrence = random
                """);
        assertTrue(p.contains("refrence: unknown key"), p);
        assertTrue(p.contains("policy random: arrivals.utilisation = 1.5"), p);
        // A bad value of the campaign's own stops before the scenarios: they depend on it.
        String q = problems("""
                name = "bad name!"
                scenarios = [quickstart]
                sweep { "arrivals.utilisation" = [1.5] }
                policies = [random]
                """);
        assertTrue(q.contains("name = 'bad name!'") && !q.contains("arrivals.utilisation"), q);
    }
}

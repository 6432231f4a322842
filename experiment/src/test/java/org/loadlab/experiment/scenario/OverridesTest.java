package org.loadlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code key=value} overrides ({@code --set}, POST /experiments' {@code set}): applied in one
 * document, with the meaning of successive fallbacks — a later override wins, objects merge,
 * a later scalar replaces an object and a later object key replaces a scalar — and every bad
 * one named.
 */
class OverridesTest {
    private static final Config BASE = ConfigFactory.parseString("nodes { count = 20, servers = 1 }, duration = 600, x = 5");

    /** What applying the overrides one by one (each as the new front) gives. */
    private static Config oneByOne(List<String> overrides) {
        Config result = BASE;
        for (String o : overrides) {
            int eq = o.indexOf('=');
            result = ConfigFactory.parseString(o.substring(0, eq).trim() + " = " + o.substring(eq + 1).trim()).withFallback(result);
        }
        return result;
    }

    @Test
    void oneDocumentMeansWhatSuccessiveFallbacksMean() {
        List<List<String>> cases = List.of(
                List.of("duration=30", "duration = 60"),
                List.of("nodes.count=4", "nodes.servers=2"),
                List.of("nodes = {count = 3}", "nodes.servers = 4"),
                List.of("nodes.count = 9", "nodes = 7"),
                List.of("x.y = 1"),
                List.of("x = {a = 1}", "x = 2", "x.b = 3"),
                List.of("events = [{type = fail, at = 1}]", "events = []"),
                List.of("name = \"a=b\"", "description = \"rho = 0.9 # not a comment\""));
        for (List<String> c : cases) {
            assertEquals(oneByOne(c).root(), ScenarioLoader.applyOverrides(BASE, c, "test").root(), c.toString());
        }
    }

    @Test
    void manyOverridesAreOneParseAndEveryBadOneIsNamed() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            many.add("k" + i + " = " + i);
        }
        Config c = ScenarioLoader.applyOverrides(BASE, many, "test");
        assertEquals(19_999, c.getInt("k19999"));
        assertEquals(600, c.getInt("duration"));
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> ScenarioLoader.applyOverrides(BASE, List.of("duration", "a = {", "ok = 1"), "test"));
        assertEquals(2, e.problems().size(), e.problems().toString());
        assertTrue(e.problems().get(0).contains("'duration': expected key=value"), e.problems().toString());
        assertTrue(e.problems().get(1).contains("'a = {': not a valid HOCON key=value"), e.problems().toString());
    }

    @Test
    void aValueListedWithCommasGetsTheCampaignHintAndKeepsTheParserText() {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> ScenarioLoader.applyOverrides(BASE, List.of("arrivals.utilisation=0.8,0.9"), "test"));
        String p = e.problems().get(0);
        assertTrue(p.startsWith("--set 'arrivals.utilisation=0.8,0.9': not a valid HOCON key=value (String: 1: Key '0.9'"), p);
        assertTrue(p.contains("one --set takes one value: to run several values of arrivals.utilisation, sweep it in a campaign"
                + " (sweep { \"arrivals.utilisation\" = [0.8,0.9] }, docs/campaigns.md)"), p);
        ScenarioException lists = assertThrows(ScenarioException.class,
                () -> ScenarioLoader.applyOverrides(BASE, List.of("policies=random,p2c"), "test"));
        assertTrue(lists.problems().get(0).endsWith("; a list goes in brackets: --set 'policies=[random,p2c]'"),
                lists.problems().get(0));
    }

    @Test
    void onlyACommaOutsideBracketsAndQuotesGetsTheHint() {
        assertEquals("", ScenarioLoader.listHint("events", "[{type=fail,at=1},{type=recover,at=2}]"));
        assertEquals("", ScenarioLoader.listHint("description", "\"a, b\""));
        assertEquals("", ScenarioLoader.listHint("description", "\"a \\\", b\""));
        assertEquals("", ScenarioLoader.listHint("a", "{"));
        assertTrue(ScenarioLoader.listHint("x", "[1], 2").contains("sweep it in a campaign"));
        assertTrue(ScenarioLoader.listHint("x", "\"a\", \"b\"").contains("sweep it in a campaign"));
        ScenarioException unchanged = assertThrows(ScenarioException.class,
                () -> ScenarioLoader.applyOverrides(BASE, List.of("a = {"), "test"));
        assertTrue(unchanged.problems().get(0).endsWith(")"), "no hint without a comma: " + unchanged.problems());
    }
}

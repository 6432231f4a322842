package org.loadlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ScenarioException#keyOf} and {@link ScenarioException#valueOf} read the key and the
 * value back from a problem line as the loader writes it, so the HTTP edge can name the real
 * key of an invalid scenario's first problem (not just "scenario").
 */
class ProblemKeyTest {
    private static final ScenarioLoader LOADER = new ScenarioLoader(
            n -> org.loadlab.balancer.policy.PolicyCatalog.find(n).isPresent(), org.loadlab.balancer.policy.PolicyCatalog.names());

    /** The first problem the loader reports for quickstart with {@code overrides}. */
    private static String first(String... overrides) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> LOADER.load("quickstart", List.of(overrides)));
        return e.problems().get(0);
    }

    @Test
    void aBadValueNamesItsKeyAndValue() {
        String p = first("nodes.count=abc");
        assertEquals("nodes.count", ScenarioException.keyOf(p), p);
        assertEquals("abc", ScenarioException.valueOf(p), p);
        p = first("arrivals.utilisation=-2");
        assertEquals("arrivals.utilisation", ScenarioException.keyOf(p), p);
        assertEquals("-2.0", ScenarioException.valueOf(p), p);
    }

    @Test
    void badSeedsNameTheKeyOnceAndTheirValue() {
        // The line was "seeds: seeds = '5:1': ...", so its value could not be read back.
        String p = first("seeds=\"5:1\"");
        assertEquals("seeds = '5:1': block 5:1 ends before it starts", p);
        assertEquals("seeds", ScenarioException.keyOf(p), p);
        assertEquals("5:1", ScenarioException.valueOf(p), p);
    }

    @Test
    void aSeedGivenTwiceInAScenarioNamesTheSeedsKey() {
        String p = first("seeds=[101, 101]");
        assertEquals("seeds = '101,101': seed 101 is given twice; give each seed once (blocks A:B must not overlap)", p);
        assertEquals("seeds", ScenarioException.keyOf(p), p);
        assertEquals("101,101", ScenarioException.valueOf(p), p);
        String overlap = first("seeds=\"1:5,3\"");
        assertEquals("seeds", ScenarioException.keyOf(overlap), overlap);
        assertEquals("1:5,3", ScenarioException.valueOf(overlap), overlap);
    }

    @Test
    void aDurationPastADoubleIsTooManyRequestsNotInfinity() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> LOADER.load("quickstart", List.of("duration=1e308")));
        String p = e.problems().stream().filter(l -> l.startsWith("duration")).findFirst().orElseThrow();
        assertEquals("duration = 1.0E308: at 16.00 requests/s that is more than 1e+308 requests per run, more than 1e+11;"
                + " use a shorter duration or set requests", p);
        ScenarioException finite = assertThrows(ScenarioException.class, () -> LOADER.load("quickstart", List.of("duration=1e12",
                "series-interval=1e6")));
        String q = finite.problems().stream().filter(l -> l.startsWith("duration")).findFirst().orElseThrow();
        assertEquals("duration = 1.0E12: at 16.00 requests/s that is about 1.60e+13 requests per run, more than 1e+11;"
                + " use a shorter duration or set requests", q);
    }

    @Test
    void anUnknownKeyIsNamedWithoutAValue() {
        String p = first("nodes.cnt=3");
        assertEquals("nodes.cnt", ScenarioException.keyOf(p), p);
        assertNull(ScenarioException.valueOf(p), p);
    }

    @Test
    void indexedKeysAndQuotedValuesWithColons() {
        String p = first("policies=[p2c, nope]");
        assertEquals("policies[1]", ScenarioException.keyOf(p), p);
        p = "name = 'a: b': use letters, digits";
        assertEquals("name", ScenarioException.keyOf(p));
        assertEquals("a: b", ScenarioException.valueOf(p));
        assertEquals("events[0].at", ScenarioException.keyOf("events[0].at = -1.0: must be >= 0 (seconds)"));
    }

    @Test
    void anOverrideThatDoesNotParseNamesTheKeyTheUserWrote() {
        String p = first("nodes.count=[1,");
        assertEquals("nodes.count", ScenarioException.keyOf(p), p);
        assertEquals("[1,", ScenarioException.valueOf(p), p);
        p = first("duration");
        assertEquals("--set", ScenarioException.keyOf(p), p);
        assertEquals("duration", ScenarioException.valueOf(p), p);
    }

    @Test
    void linesThatNameNoKeyGiveNull() {
        String p = first("duration=${nowhere}");
        assertNull(ScenarioException.keyOf(p), p);
        assertNull(ScenarioException.keyOf("cannot parse /tmp/x.conf: line 1: expecting a value"));
        // The CLI flag a missing scenario was given with is the key of that line.
        assertEquals("--scenario", ScenarioException.keyOf("--scenario = 'x': no such built-in scenario or file"));
    }

    @Test
    void aFileThatDoesNotParseIsNamedOnceWithItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // Was "cannot parse F: F: 3: Expecting a value ...": Typesafe Config's message starts with the file too.
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("bad.conf"), "name = x\nnodes {\n  count = = 3\n}\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> LOADER.load(file.toString(), List.of()));
        String p = e.problems().get(0);
        assertEquals("cannot parse " + file + ": line 3: Expecting a value but got wrong token: '='",
                p.substring(0, p.indexOf("'='") + 3), p);
        assertEquals(1, p.split(java.util.regex.Pattern.quote(file.toString()), -1).length - 1, "the file once: " + p);
    }

    @Test
    void aDirectoryGivenAsTheScenarioIsNamedAsOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String p = ScenarioLoader.missing("--scenario", dir.toString());
        assertEquals("--scenario = '" + dir + "': is a directory, not a scenario file; give a scenario file (HOCON)"
                + " or a built-in name; built-in: quickstart", p.substring(0, p.indexOf("quickstart") + "quickstart".length()));
        assertEquals("--scenario", ScenarioException.keyOf(p), p);
        String absent = ScenarioLoader.missing("--scenario", dir.resolve("absent.conf").toString());
        assertEquals("--scenario = '" + dir.resolve("absent.conf") + "': no such built-in scenario or file; built-in: quickstart",
                absent.substring(0, absent.indexOf("quickstart") + "quickstart".length()));
        assertNull(ScenarioLoader.missing("--scenario", "quickstart"));
    }

    @Test
    void anEmptyScenarioNameIsNamedEmptyNotADirectory() {
        // Path.of("") is the current directory: the message said "is a directory" for --scenario ''.
        for (String empty : new String[] {"", "  "}) {
            String p = ScenarioLoader.missing("--scenario", empty);
            assertEquals("--scenario = '" + empty + "': empty; give a scenario file (HOCON) or a built-in name; built-in: quickstart",
                    p.substring(0, p.indexOf("quickstart") + "quickstart".length()));
            assertEquals("--scenario", ScenarioException.keyOf(p), p);
        }
    }
}

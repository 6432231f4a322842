package org.loadlab.analysis.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {

    @TempDir
    Path dir;

    private static Map<String, Object> description(boolean reversed) {
        Map<String, Object> map = new HashMap<>();
        String[] keys = {"name", "nodes", "lambda", "warmupSeconds", "zeta", "alpha", "durationSeconds"};
        Object[] values = {"poisson_small", 10, 6.0, 0.0, Map.of("b", 2, "a", 1), "x", 600.0};
        for (int i = 0; i < keys.length; i++) {
            int k = reversed ? keys.length - 1 - i : i;
            map.put(keys[k], values[k]);
        }
        return map;
    }

    @Test
    void sameRunsGiveByteIdenticalFilesWhateverTheMapOrder() throws Exception {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        ResultsJson.write(a, description(false), SampleRuns.runs());
        ResultsJson.write(b, description(true), SampleRuns.runs());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    @Test
    void documentLayoutIsSortedAndStable() throws Exception {
        Path file = dir.resolve("results.json");
        ResultsJson.write(file, description(false), SampleRuns.runs());
        String text = Files.readString(file);
        assertTrue(text.startsWith("{\n  \"format\" : \"loadlab-results/1\",\n  \"scenario\" : {\n"
                + "    \"alpha\" : \"x\",\n    \"durationSeconds\" : 600.0,\n"), text.substring(0, 200));
        assertTrue(text.endsWith("}\n"));
        assertTrue(!text.contains("\r"));
        assertTrue(text.indexOf("\"seed\" : 101") < text.indexOf("\"seed\" : 102"));
        assertTrue(text.contains("\"responseHistogram\" : \""));
    }

    @Test
    void runsReadBackEqual() throws Exception {
        Path file = dir.resolve("results.json");
        ResultsJson.write(file, description(false), SampleRuns.runs());
        assertEquals(SampleRuns.runs(), ResultsJson.readRuns(file));
    }

    @Test
    void readRejectsOtherDocuments() throws Exception {
        Path file = dir.resolve("other.json");
        Files.writeString(file, "{\"format\":\"something-else\",\"runs\":[]}");
        assertThrows(IOException.class, () -> ResultsJson.readRuns(file));
    }

    @Test
    void acceptsARecordAsScenarioDescription() throws Exception {
        record Scenario(String name, int nodes) {
        }
        Path file = dir.resolve("results.json");
        ResultsJson.write(file, new Scenario("tiny", 2), List.of());
        assertTrue(Files.readString(file).contains("\"scenario\" : {\n    \"name\" : \"tiny\",\n    \"nodes\" : 2\n  }"));
    }
}

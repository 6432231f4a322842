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

    /** The document as one value, the way the file was written before it was streamed. */
    @com.fasterxml.jackson.annotation.JsonPropertyOrder({"format", "scenario", "runs"})
    private record Document(String format, Object scenario, List<RunResult> runs) {
    }

    private static String wholeDocument(Object scenario, List<RunResult> runs) throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper mapper = com.fasterxml.jackson.databind.json.JsonMapper.builder()
                .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(com.fasterxml.jackson.databind.SerializationFeature.FAIL_ON_EMPTY_BEANS).build();
        return mapper.writer(new com.fasterxml.jackson.core.util.DefaultPrettyPrinter()
                        .withObjectIndenter(new com.fasterxml.jackson.core.util.DefaultIndenter("  ", "\n")))
                .writeValueAsString(new Document(ResultsJson.FORMAT, scenario, runs)) + "\n";
    }

    @Test
    void streamedRunByRunGivesTheBytesOfTheWholeDocument() throws Exception {
        Path file = dir.resolve("streamed.json");
        try (ResultsJson.Stream out = ResultsJson.open(file, description(false))) {
            for (RunResult r : SampleRuns.runs()) {
                out.add(r);
            }
        }
        assertEquals(wholeDocument(description(false), SampleRuns.runs()), Files.readString(file));
        Path empty = dir.resolve("empty.json");
        ResultsJson.write(empty, description(true), List.of());
        assertEquals(wholeDocument(description(true), List.of()), Files.readString(empty));
        assertTrue(Files.readString(empty).contains("\"runs\" : [ ]"));
    }

    @Test
    void csvFilesStreamedRunByRunEqualTheWholeWrite() throws Exception {
        Path whole = dir.resolve("whole.csv");
        Path streamed = dir.resolve("streamed.csv");
        ResultsCsv.write(whole, SampleRuns.runs());
        try (RunCsvFile out = ResultsCsv.open(streamed)) {
            for (RunResult r : SampleRuns.runs()) {
                out.add(r);
            }
        }
        assertArrayEquals(Files.readAllBytes(whole), Files.readAllBytes(streamed));
        Path series = dir.resolve("series.csv");
        try (RunCsvFile out = TimeseriesCsv.open(series)) {
            for (RunResult r : SampleRuns.runs()) {
                out.add(r);
            }
        }
        Path seriesWhole = dir.resolve("series-whole.csv");
        TimeseriesCsv.write(seriesWhole, SampleRuns.runs());
        assertArrayEquals(Files.readAllBytes(seriesWhole), Files.readAllBytes(series));
    }
}

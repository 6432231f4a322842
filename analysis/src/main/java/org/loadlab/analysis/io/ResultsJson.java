package org.loadlab.analysis.io;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes a scenario description and all its runs as one pretty-printed JSON document:
 * <pre>{@code
 * { "format" : "loadlab-results/1",
 *   "scenario" : { ...as passed... },
 *   "runs" : [ { "scenario" : ..., "policy" : ..., "seed" : ..., "metrics" : { ... } }, ... ] }
 * }</pre>
 *
 * <p>Deterministic: map entries sorted by key, record properties in declaration order, two-space
 * indentation, {@code \n} line endings, trailing newline, runs in list order. Non-finite
 * numbers are written as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}
 * (Jackson's default), which {@link #readRuns(Path)} reads back. The response-time histogram
 * travels compactly as Base64 text in {@code metrics.responseHistogram}.
 *
 * <p>Source: DESIGN.md (results of a run are a typed record written as JSON); Jackson databind 2.21.
 */
public final class ResultsJson {

    /** Value of the document's {@code format} property; changes when the layout changes. */
    public static final String FORMAT = "loadlab-results/1";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n")));

    @JsonPropertyOrder({"format", "scenario", "runs"})
    private record Document(String format, Object scenario, List<RunResult> runs) {
    }

    private ResultsJson() {
    }

    /**
     * Writes the document, replacing the file and creating parent directories.
     *
     * @param file target JSON file
     * @param scenarioDescription any Jackson-serialisable object or {@code Map} describing the
     *     scenario (may be null: written as {@code null})
     * @param runs the runs, in this order
     * @throws IOException if the file cannot be written or the description cannot be serialised
     * @throws NullPointerException if {@code file}, {@code runs} or a run is null
     */
    public static void write(Path file, Object scenarioDescription, List<RunResult> runs) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(runs, "runs");
        for (RunResult run : runs) {
            Objects.requireNonNull(run, "runs contains null");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        String text = WRITER.writeValueAsString(new Document(FORMAT, scenarioDescription, List.copyOf(runs)));
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(text);
            out.write('\n');
        }
    }

    /**
     * Reads back the runs of a file written by {@link #write}.
     *
     * @param file a results JSON file
     * @return its runs, in file order
     * @throws IOException if the file cannot be read or is not a LoadLab results document
     */
    public static List<RunResult> readRuns(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        JsonNode root = MAPPER.readTree(file.toFile());
        JsonNode format = root.path("format");
        if (!FORMAT.equals(format.asText(null))) {
            throw new IOException(file + ": format is " + format + ", expected \"" + FORMAT + "\"");
        }
        List<RunResult> runs = new ArrayList<>();
        for (JsonNode run : root.path("runs")) {
            runs.add(MAPPER.treeToValue(run, RunResult.class));
        }
        return runs;
    }
}

package org.loadlab.analysis.io;

import com.fasterxml.jackson.core.JsonGenerator;
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
 * <p>The document is streamed: {@link #open} writes the head, {@link Stream#add} one run at
 * a time as it finishes, so neither the runs (with their per-node arrays) nor the text of
 * the document need to be in memory at once (10,000 nodes × 100 runs is about 50 MB of
 * JSON); {@link #write} of a list gives the same bytes.
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
        try (Stream out = open(file, scenarioDescription)) {
            for (RunResult run : runs) {
                out.add(run);
            }
        }
    }

    /**
     * Opens the document and writes its head (format and scenario); add the runs one by one
     * with {@link Stream#add} in plan order and close it to finish the file. The bytes are
     * those {@link #write} gives for the same runs.
     *
     * @param file target JSON file, replaced; parent directories are created
     * @param scenarioDescription any Jackson-serialisable object or {@code Map} describing the
     *     scenario (may be null: written as {@code null})
     * @return the open document
     * @throws IOException if the file cannot be created or the description cannot be serialised
     * @throws NullPointerException if {@code file} is null
     */
    public static Stream open(Path file, Object scenarioDescription) throws IOException {
        Objects.requireNonNull(file, "file");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        try {
            JsonGenerator g = WRITER.createGenerator(out);
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            g.writeFieldName("scenario");
            MAPPER.writeValue(g, scenarioDescription);
            g.writeFieldName("runs");
            g.writeStartArray();
            return new Stream(out, g);
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** An open results document: {@link #add} one run at a time, then {@link #close}. */
    public static final class Stream implements AutoCloseable {
        private final Writer out;
        private final JsonGenerator generator;

        private Stream(Writer out, JsonGenerator generator) {
            this.out = out;
            this.generator = generator;
        }

        /**
         * Appends {@code run} to the document's runs.
         *
         * @throws IOException if the file cannot be written
         * @throws NullPointerException if {@code run} is null
         */
        public void add(RunResult run) throws IOException {
            MAPPER.writeValue(generator, Objects.requireNonNull(run, "run"));
        }

        /** Ends the runs and the document (with a trailing newline) and closes the file. */
        @Override
        public void close() throws IOException {
            try (Writer w = out) {
                generator.writeEndArray();
                generator.writeEndObject();
                generator.close();
                w.write('\n');
            }
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

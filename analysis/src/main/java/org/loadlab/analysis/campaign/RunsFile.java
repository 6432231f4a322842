package org.loadlab.analysis.campaign;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Campaign runs as JSON Lines ({@code runs.jsonl}): one {@link CampaignRun} per line, compact
 * JSON, UTF-8, {@code \n} after every line. Lossless: every metric including the per-node
 * lists, the time series, the message counts by kind and the Base64 response-time histogram.
 *
 * <p>Line layout:
 * <pre>{@code
 * {"scenario":"s","parameters":{"arrivals.utilisation":"0.7"},"policy":"p2c","seed":1,"metrics":{"requestsArrived":...}}
 * }</pre>
 * Deterministic: record properties in declaration order, map entries sorted by key. Non-finite
 * numbers are written as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}
 * (Jackson's default), which {@link #read(Path)} reads back. Unknown properties are ignored on
 * reading, so later versions may add some.
 *
 * <p>Source: JSON Lines (https://jsonlines.org); DESIGN.md (results are typed records written as
 * JSON); Jackson databind 2.21.
 */
public final class RunsFile {

    /** Conventional file name inside a campaign directory. */
    public static final String FILE_NAME = "runs.jsonl";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private RunsFile() {
    }

    /**
     * Writes the runs, one per line in list order, replacing the file and creating parent
     * directories. An empty list gives an empty file.
     *
     * @param file target file, usually {@code DIR/runs.jsonl}
     * @param runs the runs
     * @throws IOException if the file cannot be written
     * @throws NullPointerException if an argument or a run is null
     */
    public static void write(Path file, List<CampaignRun> runs) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(runs, "runs");
        StringBuilder text = new StringBuilder();
        for (CampaignRun run : runs) {
            text.append(toLine(Objects.requireNonNull(run, "runs contains null"))).append('\n');
        }
        createParent(file);
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /**
     * Appends one run as a new line, creating the file (and parent directories) if needed.
     * Meant for a runner that records runs as they finish; the report orders runs itself.
     *
     * @param file target file
     * @param run the run
     * @throws IOException if the file cannot be written
     * @throws NullPointerException if an argument is null
     */
    public static void append(Path file, CampaignRun run) throws IOException {
        Objects.requireNonNull(file, "file");
        String line = toLine(Objects.requireNonNull(run, "run")) + "\n";
        createParent(file);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            out.write(line);
        }
    }

    /**
     * Reads all runs, in file order. Blank lines are skipped.
     *
     * @param file a file written by {@link #write} or {@link #append}
     * @return the runs
     * @throws IOException if the file cannot be read, or a line (e.g. a truncated last line) is
     *     not a valid run; the message names the file and line number
     * @throws NullPointerException if {@code file} is null
     */
    public static List<CampaignRun> read(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        List<CampaignRun> runs = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    runs.add(MAPPER.readValue(line, CampaignRun.class));
                } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
                    throw new IOException(file + ":" + number + ": not a valid campaign run: "
                            + firstLine(e.getMessage()), e);
                }
            }
        }
        return runs;
    }

    /**
     * @param run a run
     * @return its compact JSON text, without line break
     * @throws IOException if it cannot be serialised
     */
    static String toLine(CampaignRun run) throws IOException {
        return MAPPER.writeValueAsString(run);
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no detail)";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}

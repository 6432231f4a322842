package org.loadlab.analysis.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes {@code campaign-meta.json}, the report metadata of a campaign directory:
 * <pre>{@code
 * {
 *   "format" : "loadlab-campaign-meta/1",
 *   "name" : "asmf-vs-p2c",
 *   "description" : "...",
 *   "referencePolicy" : "p2c",
 *   "sweptParameters" : [ "arrivals.utilisation" ],
 *   "metrics" : [ "throughput_rps", "response_mean_s", ... ],
 *   "bootstrapCi" : true,
 *   "analyticCurves" : [ { "name" : "M/M/1", "parameter" : "arrivals.utilisation",
 *                          "metric" : "response_mean_s", "x" : [ ... ], "y" : [ ... ] } ]
 * }
 * }</pre>
 * Analytic curves are stored tabulated (see {@link CurveTable}); non-finite values as
 * {@code "NaN"}. Pretty-printed, two-space indentation, {@code \n} line endings.
 *
 * <p>Source: Jackson databind 2.21.
 */
final class CampaignMetaFile {

    /** Conventional file name inside a campaign directory. */
    static final String FILE_NAME = "campaign-meta.json";

    /** Value of the {@code format} property; changes when the layout changes. */
    static final String FORMAT = "loadlab-campaign-meta/1";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n")));

    /** The file's content. */
    @JsonPropertyOrder({"format", "name", "description", "referencePolicy", "sweptParameters", "metrics",
            "bootstrapCi", "analyticCurves"})
    record Content(String format, String name, String description, String referencePolicy,
            List<String> sweptParameters, List<String> metrics, boolean bootstrapCi, List<CurveTable> analyticCurves) {
    }

    private CampaignMetaFile() {
    }

    /**
     * @param file target file
     * @param meta the metadata (its curves are ignored; the tables are written)
     * @param curves the tabulated curves
     * @throws IOException if the file cannot be written
     */
    static void write(Path file, ReportMeta meta, List<CurveTable> curves) throws IOException {
        List<String> metrics = meta.metrics().stream().map(Metric::columnName).toList();
        Content content = new Content(FORMAT, meta.name(), meta.description(), meta.referencePolicy(),
                meta.sweptParameters(), metrics, meta.bootstrapCi(), curves);
        Files.writeString(file, WRITER.writeValueAsString(content) + "\n", StandardCharsets.UTF_8);
    }

    /**
     * @param file a file written by {@link #write}
     * @return the content
     * @throws IOException if the file cannot be read, has another format, or holds invalid
     *     values (the message names the file and the problem)
     */
    static Content read(Path file) throws IOException {
        Content content;
        try {
            content = MAPPER.readValue(file.toFile(), Content.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException(file + ": not a campaign meta file: " + e.getMessage(), e);
        }
        if (!FORMAT.equals(content.format())) {
            throw new IOException(file + ": format is " + content.format() + ", expected \"" + FORMAT + "\"");
        }
        return content;
    }

    /**
     * @param file the file the content came from, for messages
     * @param content the content
     * @return the metadata, with curves that interpolate the tables
     * @throws IOException if a value is invalid (unknown metric, blank name, ...)
     */
    static ReportMeta toMeta(Path file, Content content) throws IOException {
        try {
            List<Metric> metrics = new ArrayList<>();
            for (String name : nullSafe(content.metrics())) {
                metrics.add(Metric.byColumnName(name));
            }
            List<AnalyticCurve> curves = new ArrayList<>();
            for (CurveTable table : nullSafe(content.analyticCurves())) {
                curves.add(table.toCurve());
            }
            return new ReportMeta(content.name(), content.description() == null ? "" : content.description(),
                    content.referencePolicy(), nullSafe(content.sweptParameters()), curves, metrics,
                    content.bootstrapCi());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static <T> List<T> nullSafe(List<T> list) {
        return list == null ? List.of() : list;
    }
}

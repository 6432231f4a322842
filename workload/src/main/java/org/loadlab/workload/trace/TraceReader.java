package org.loadlab.workload.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads a request trace from a CSV file with a header row (Jackson CSV). Column names are
 * matched case-insensitively; other columns are ignored. Two layouts:
 * <ul>
 *   <li><b>LLM token trace</b> (Azure LLM inference trace 2023): {@code TIMESTAMP},
 *       {@code ContextTokens}, {@code GeneratedTokens} (integers {@code >= 0}).</li>
 *   <li><b>Generic</b>: {@code timestamp} and {@code size} (no token columns). The size must be
 *       an integer {@code >= 0} (e.g. "12" or "12.0") and is stored as {@code contextTokens};
 *       {@code generatedTokens} is 0. With {@link TokenDemandModel} the demand is then
 *       proportional to the size.</li>
 * </ul>
 * The timestamp is either a date-time {@code YYYY-MM-DD HH:MM:SS[.f…]} with 0–7 fractional
 * digits, read as UTC (no time zone, no DST), or a plain number of seconds; the first record
 * decides which, and all records must agree. Timestamps must be non-decreasing; offsets are taken
 * from the first record. Blank lines are skipped. Every format error is a
 * {@link TraceFormatException} naming the file, the 1-based line and the column.
 *
 * <p>Source: Azure/AzurePublicDataset, AzureLLMInferenceDataset2023 (CC-BY 4.0; Patel et al.,
 * "Splitwise", ISCA 2024). Bundled copies: {@code traces/azure-llm-2023/AzureLLMInferenceTrace_code.csv}
 * and {@code ..._conv.csv} on the classpath.
 */
public final class TraceReader {

    /** Classpath name of the bundled Azure LLM "code" trace (8,819 records, ≈3,436 s). */
    public static final String AZURE_CODE = "traces/azure-llm-2023/AzureLLMInferenceTrace_code.csv";
    /** Classpath name of the bundled Azure LLM "conversation" trace (19,366 records, ≈3,502 s). */
    public static final String AZURE_CONV = "traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv";

    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 7, true)
            .optionalEnd()
            .toFormatter(Locale.ROOT)
            .withResolverStyle(ResolverStyle.STRICT);

    private static final CsvMapper MAPPER = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);

    private TraceReader() {
    }

    /**
     * Reads a trace file (UTF-8).
     *
     * @param file the CSV file
     * @return the trace, with {@code source()} = the file's path
     * @throws TraceFormatException if the content is not a valid trace (names file, line, column)
     * @throws UncheckedIOException if the file cannot be read
     * @throws NullPointerException if {@code file} is {@code null}
     */
    public static Trace read(Path file) {
        Objects.requireNonNull(file, "file");
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(reader, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a trace from the classpath using this class's class loader (UTF-8).
     *
     * @param resourceName e.g. {@link #AZURE_CODE}; no leading slash
     * @return the trace, with {@code source()} = {@code "classpath:" + resourceName}
     * @throws IllegalArgumentException if there is no such resource
     * @throws TraceFormatException if the content is not a valid trace
     * @throws UncheckedIOException if the resource cannot be read
     * @throws NullPointerException if {@code resourceName} is {@code null}
     */
    public static Trace readResource(String resourceName) {
        Objects.requireNonNull(resourceName, "resourceName");
        String source = "classpath:" + resourceName;
        InputStream in = TraceReader.class.getClassLoader().getResourceAsStream(resourceName);
        if (in == null) {
            throw new IllegalArgumentException("trace resource must exist on the classpath, was '" + resourceName
                    + "' (bundled: " + AZURE_CODE + ", " + AZURE_CONV + ")");
        }
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return read(reader, source);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a trace from a character stream; the caller closes {@code reader}.
     *
     * @param reader CSV text with a header row
     * @param sourceName name used in messages and as {@link Trace#source()}
     * @return the trace
     * @throws TraceFormatException if the content is not a valid trace
     * @throws UncheckedIOException if reading fails
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Trace read(Reader reader, String sourceName) {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(sourceName, "sourceName");
        try (MappingIterator<String[]> rows = MAPPER.readerFor(String[].class).readValues(reader)) {
            return new Parse(sourceName).run(rows);
        } catch (JsonProcessingException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new TraceFormatException(sourceName, line, null, "malformed CSV: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + sourceName + ": " + e.getMessage(), e);
        }
    }

    /** One parse run: header layout plus growing column buffers. */
    private static final class Parse {
        private final String source;
        private String timeName;
        private String contextName;
        private String generatedName;
        private String sizeName;
        private int timeCol = -1;
        private int contextCol = -1;
        private int generatedCol = -1;
        private int sizeCol = -1;
        private int width;
        private Boolean dateTime;
        private long firstEpochSecond;
        private int firstNano;
        private double firstSeconds;
        private double previous = Double.NEGATIVE_INFINITY;
        private String previousText;
        private double[] offsets = new double[1024];
        private int[] context = new int[1024];
        private int[] generated = new int[1024];
        private int n;

        Parse(String source) {
            this.source = source;
        }

        Trace run(MappingIterator<String[]> rows) throws IOException {
            long line = 1;
            boolean header = true;
            while (rows.hasNextValue()) {
                String[] row = rows.nextValue();
                long nextLine = rows.getParser().currentLocation().getLineNr();
                if (!isBlank(row)) {
                    if (header) {
                        header(row, line);
                        header = false;
                    } else {
                        record(row, line);
                    }
                }
                line = nextLine;
            }
            if (header) {
                throw new TraceFormatException(source, 0, null, "must have a header row and >= 1 record, was empty");
            }
            if (n == 0) {
                throw new TraceFormatException(source, 0, null, "must have >= 1 record after the header, had 0");
            }
            return new Trace(source, Arrays.copyOf(offsets, n), Arrays.copyOf(context, n), Arrays.copyOf(generated, n));
        }

        private static boolean isBlank(String[] row) {
            return row.length == 0 || (row.length == 1 && row[0].isBlank());
        }

        private void header(String[] row, long line) {
            width = row.length;
            for (int c = 0; c < row.length; c++) {
                String name = row[c].strip();
                if (c == 0 && name.startsWith("\uFEFF")) {
                    name = name.substring(1).strip();
                }
                switch (name.toLowerCase(Locale.ROOT)) {
                    case "timestamp" -> timeCol = column(timeCol, c, name, line);
                    case "contexttokens" -> contextCol = column(contextCol, c, name, line);
                    case "generatedtokens" -> generatedCol = column(generatedCol, c, name, line);
                    case "size" -> sizeCol = column(sizeCol, c, name, line);
                    default -> { }
                }
                if (c == timeCol) {
                    timeName = name;
                } else if (c == contextCol) {
                    contextName = name;
                } else if (c == generatedCol) {
                    generatedName = name;
                } else if (c == sizeCol) {
                    sizeName = name;
                }
            }
            String have = " (header has " + String.join(",", row) + ")";
            if (timeCol < 0) {
                throw new TraceFormatException(source, line, "TIMESTAMP", "header must have a TIMESTAMP (or timestamp) column" + have);
            }
            boolean tokens = contextCol >= 0 || generatedCol >= 0;
            if (tokens && (contextCol < 0 || generatedCol < 0)) {
                throw new TraceFormatException(source, line, contextCol < 0 ? "ContextTokens" : "GeneratedTokens",
                        "header must have both ContextTokens and GeneratedTokens columns" + have);
            }
            if (!tokens && sizeCol < 0) {
                throw new TraceFormatException(source, line, "size",
                        "header must have ContextTokens and GeneratedTokens columns, or a size column" + have);
            }
            if (tokens) {
                sizeCol = -1; // token columns win over a size column
            }
        }

        private int column(int existing, int c, String name, long line) {
            if (existing >= 0) {
                throw new TraceFormatException(source, line, name, "header must name each column once, found it at positions "
                        + (existing + 1) + " and " + (c + 1));
            }
            return c;
        }

        private void record(String[] row, long line) {
            if (row.length != width) {
                throw new TraceFormatException(source, line, null, "record must have " + width
                        + " fields like the header, had " + row.length);
            }
            if (n == offsets.length) {
                int cap = n * 2;
                offsets = Arrays.copyOf(offsets, cap);
                context = Arrays.copyOf(context, cap);
                generated = Arrays.copyOf(generated, cap);
            }
            String ts = row[timeCol].strip();
            double offset = offset(ts, line);
            if (offset < previous) {
                throw new TraceFormatException(source, line, timeName, "timestamps must be non-decreasing (sorted), was '"
                        + ts + "' after '" + previousText + "'");
            }
            previous = offset;
            previousText = ts;
            offsets[n] = offset;
            if (sizeCol >= 0) {
                context[n] = size(row[sizeCol].strip(), line);
                generated[n] = 0;
            } else {
                context[n] = count(row[contextCol].strip(), line, contextName);
                generated[n] = count(row[generatedCol].strip(), line, generatedName);
            }
            n++;
        }

        private double offset(String ts, long line) {
            if (dateTime == null) {
                dateTime = ts.indexOf(':') >= 0;
            }
            if (dateTime) {
                LocalDateTime t;
                try {
                    t = LocalDateTime.parse(ts, DATE_TIME);
                } catch (DateTimeParseException e) {
                    throw new TraceFormatException(source, line, timeName,
                            "must be a date-time YYYY-MM-DD HH:MM:SS[.fffffff] (0-7 fractional digits, like the first record), was '"
                                    + ts + "'");
                }
                long sec = t.toEpochSecond(ZoneOffset.UTC);
                int nano = t.getNano();
                if (n == 0) {
                    firstEpochSecond = sec;
                    firstNano = nano;
                }
                return (sec - firstEpochSecond) + (nano - firstNano) * 1e-9;
            }
            double s;
            try {
                s = Double.parseDouble(ts);
            } catch (NumberFormatException e) {
                s = Double.NaN;
            }
            if (!Double.isFinite(s)) {
                throw new TraceFormatException(source, line, timeName,
                        "must be a finite number of seconds (like the first record), was '" + ts + "'");
            }
            if (n == 0) {
                firstSeconds = s;
            }
            return s - firstSeconds;
        }

        private int count(String text, long line, String column) {
            try {
                int v = Integer.parseInt(text);
                if (v >= 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // fall through to the message
            }
            throw new TraceFormatException(source, line, column, "must be an integer >= 0, was '" + text + "'");
        }

        private int size(String text, long line) {
            double v;
            try {
                v = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                v = Double.NaN;
            }
            if (!(v >= 0 && v <= Integer.MAX_VALUE && v == Math.rint(v))) {
                throw new TraceFormatException(source, line, sizeName, "must be an integer >= 0 and <= "
                        + Integer.MAX_VALUE + ", was '" + text + "'");
            }
            return (int) v;
        }
    }
}

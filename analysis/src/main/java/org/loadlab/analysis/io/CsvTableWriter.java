package org.loadlab.analysis.io;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a header and rows of pre-formatted cells as RFC 4180 CSV with Jackson
 * ({@code jackson-dataformat-csv}): comma separator, {@code \n} line endings, UTF-8, quoting
 * only where needed. Parent directories are created.
 */
final class CsvTableWriter {

    /** Quotes a cell only when it must be (separator, quote, line break), whatever its length. */
    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build();

    private CsvTableWriter() {
    }

    /**
     * @param file target file, replaced if it exists
     * @param header column names
     * @param rows rows of cells, each as long as the header
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if a row's length differs from the header's
     */
    static void write(Path file, List<String> header, List<List<String>> rows) throws IOException {
        // The header is written as an ordinary first row, so it appears even without rows.
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(false).setLineSeparator("\n");
        for (String column : header) {
            schema.addColumn(column);
        }
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).size() != header.size()) {
                throw new IllegalArgumentException("row " + i + " has " + rows.get(i).size()
                        + " cells, header has " + header.size());
            }
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                SequenceWriter sequence = MAPPER.writer(schema.build()).writeValues(out)) {
            sequence.write(header);
            for (List<String> row : rows) {
                sequence.write(row);
            }
        }
    }
}

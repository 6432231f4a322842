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
 * only where needed. Parent directories are created. Rows can be written all at once
 * ({@link #write}) or one by one as they are produced ({@link #open}), so a table of millions
 * of rows never has to be held in memory.
 */
final class CsvTableWriter implements AutoCloseable {

    /** Quotes a cell only when it must be (separator, quote, line break), whatever its length. */
    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build();

    private final Writer out;
    private final SequenceWriter sequence;
    private final int columns;
    private long rows;

    private CsvTableWriter(Writer out, SequenceWriter sequence, int columns) {
        this.out = out;
        this.sequence = sequence;
        this.columns = columns;
    }

    /**
     * @param file target file, replaced if it exists
     * @param header column names
     * @param rows rows of cells, each as long as the header
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if a row's length differs from the header's
     */
    static void write(Path file, List<String> header, List<List<String>> rows) throws IOException {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).size() != header.size()) {
                throw new IllegalArgumentException("row " + i + " has " + rows.get(i).size()
                        + " cells, header has " + header.size());
            }
        }
        try (CsvTableWriter table = open(file, header)) {
            for (List<String> row : rows) {
                table.row(row);
            }
        }
    }

    /**
     * Opens {@code file} (replacing it) and writes the header; add rows with {@link #row}.
     *
     * @param file target file
     * @param header column names
     * @return the open table; close it to finish the file
     * @throws IOException if the file cannot be created
     */
    static CsvTableWriter open(Path file, List<String> header) throws IOException {
        // The header is written as an ordinary first row, so it appears even without rows.
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(false).setLineSeparator("\n");
        for (String column : header) {
            schema.addColumn(column);
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        try {
            SequenceWriter sequence = MAPPER.writer(schema.build()).writeValues(out);
            sequence.write(header);
            return new CsvTableWriter(out, sequence, header.size());
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /**
     * Writes one row.
     *
     * @param cells as many cells as the header has columns
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if the row's length differs from the header's
     */
    void row(List<String> cells) throws IOException {
        if (cells.size() != columns) {
            throw new IllegalArgumentException("row " + rows + " has " + cells.size() + " cells, header has " + columns);
        }
        sequence.write(cells);
        rows++;
    }

    /** Finishes and closes the file. @throws IOException if it cannot be written */
    @Override
    public void close() throws IOException {
        try (Writer w = out) {
            sequence.close();
        }
    }
}

package org.loadlab.analysis.campaign;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes tables of text cells as RFC 4180 CSV with Jackson: comma separator,
 * {@code \n} line endings, UTF-8, quoting only where needed (the same dialect as the
 * single-run result files). Parent directories are created.
 */
final class CsvFile {

    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .build();

    private CsvFile() {
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
                throw new IllegalArgumentException(file.getFileName() + ": row " + i + " has "
                        + rows.get(i).size() + " cells, header has " + header.size());
            }
        }
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(false).setLineSeparator("\n");
        header.forEach(schema::addColumn);
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

    /**
     * @param file a CSV file
     * @return all its rows (the header is the first), each a list of cell texts
     * @throws IOException if the file cannot be read or parsed
     */
    static List<List<String>> read(Path file) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                MappingIterator<List<String>> it = MAPPER.readerForListOf(String.class)
                        .with(CsvSchema.emptySchema()).readValues(in)) {
            while (it.hasNext()) {
                rows.add(it.next());
            }
        }
        return rows;
    }
}

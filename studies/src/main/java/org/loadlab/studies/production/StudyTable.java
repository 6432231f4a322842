package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A study's result table: a title, column names and rows of cells, written as markdown (for
 * the docs and the terminal) and as CSV.
 *
 * @param title one line saying what the table shows
 * @param columns column names
 * @param rows cells, one list per row, as many as columns
 */
public record StudyTable(String title, List<String> columns, List<List<String>> rows) {
    /** Validates. @throws IllegalArgumentException if a row has the wrong width */
    public StudyTable {
        for (List<String> r : rows) {
            if (r.size() != columns.size()) {
                throw new IllegalArgumentException("row " + r + " has " + r.size() + " cells for " + columns.size() + " columns");
            }
        }
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** The table in GitHub markdown. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("| ").append(String.join(" | ", columns)).append(" |\n|");
        for (int i = 0; i < columns.size(); i++) {
            b.append(i == 0 ? "---|" : "---:|");
        }
        b.append('\n');
        for (List<String> r : rows) {
            b.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return b.toString();
    }

    /** Writes {@code name.csv} and {@code name.md} into {@code dir}. */
    public void write(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        List<String> lines = new ArrayList<>();
        lines.add(String.join(",", columns));
        for (List<String> r : rows) {
            lines.add(String.join(",", r.stream().map(c -> c.contains(",") ? "\"" + c + "\"" : c).toList()));
        }
        Files.write(dir.resolve(name + ".csv"), lines, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(name + ".md"), "**" + title + "**\n\n" + markdown(), StandardCharsets.UTF_8);
    }

    /** {@code mean ± sd} with {@code digits} decimals. */
    static String pm(double mean, double sd, int digits) {
        String f = "%." + digits + "f";
        return String.format(Locale.ROOT, f + " ± " + f, mean, sd);
    }

    /** {@code v} with {@code digits} decimals. */
    static String num(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }
}

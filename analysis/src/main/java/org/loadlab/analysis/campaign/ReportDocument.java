package org.loadlab.analysis.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A report as a list of plain blocks, rendered to Markdown by {@link MarkdownRenderer} and to
 * HTML by {@link HtmlRenderer}, so both files always hold the same content. All text is plain
 * (renderers escape it).
 */
final class ReportDocument {

    /** One block of the document. */
    sealed interface Block permits Heading, Paragraph, Bullets, Table, Figure {
    }

    /**
     * A heading.
     *
     * @param level 1 (title) to 4
     * @param text heading text
     */
    record Heading(int level, String text) implements Block {
    }

    /**
     * A paragraph.
     *
     * @param text paragraph text
     */
    record Paragraph(String text) implements Block {
    }

    /**
     * A bullet list.
     *
     * @param items one text per bullet
     */
    record Bullets(List<String> items) implements Block {
    }

    /**
     * A table whose first {@code textColumns} columns are left-aligned text and the rest
     * right-aligned numbers.
     *
     * @param header column titles
     * @param rows rows of cells, each as long as the header
     * @param textColumns number of leading text columns
     * @param collapsed whether HTML shows it folded (a long table a reader opens on demand)
     */
    record Table(List<String> header, List<List<String>> rows, int textColumns, boolean collapsed) implements Block {
        /** A table shown open. */
        Table(List<String> header, List<List<String>> rows, int textColumns) {
            this(header, rows, textColumns, false);
        }
    }

    /**
     * A chart.
     *
     * @param plot the chart's files and title
     * @param png path of the PNG relative to the report's directory, with {@code /} separators
     * @param svg path of the SVG relative to the report's directory, or null when none was written
     */
    record Figure(Plot plot, String png, String svg) implements Block {
    }

    private final String title;
    private final List<Block> blocks = new ArrayList<>();

    /**
     * @param title document title (also the level-1 heading)
     */
    ReportDocument(String title) {
        this.title = Objects.requireNonNull(title, "title");
    }

    /** @return the title */
    String title() {
        return title;
    }

    /** @return the blocks in order */
    List<Block> blocks() {
        return blocks;
    }

    /**
     * @param block a block to append
     * @return this document
     */
    ReportDocument add(Block block) {
        blocks.add(Objects.requireNonNull(block, "block"));
        return this;
    }
}

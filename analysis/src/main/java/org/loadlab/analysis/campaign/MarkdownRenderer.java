package org.loadlab.analysis.campaign;

import java.util.List;

/**
 * Renders a {@link ReportDocument} as GitHub-flavoured Markdown: ATX headings, pipe tables
 * with alignment, images linking the PNG with a link to the SVG. Plain text is escaped so
 * names with {@code *}, {@code _}, {@code |} and the like print literally.
 */
final class MarkdownRenderer {

    private MarkdownRenderer() {
    }

    /**
     * @param document the document
     * @return Markdown text with {@code \n} line endings and a trailing newline
     */
    static String render(ReportDocument document) {
        StringBuilder out = new StringBuilder();
        out.append("# ").append(escape(document.title())).append("\n");
        for (ReportDocument.Block block : document.blocks()) {
            out.append('\n');
            if (block instanceof ReportDocument.Heading h) {
                out.append("#".repeat(h.level())).append(' ').append(escape(h.text())).append('\n');
            } else if (block instanceof ReportDocument.Paragraph p) {
                out.append(escape(p.text())).append('\n');
            } else if (block instanceof ReportDocument.Bullets b) {
                for (String item : b.items()) {
                    out.append("- ").append(escape(item)).append('\n');
                }
            } else if (block instanceof ReportDocument.Table t) {
                table(out, t);
            } else if (block instanceof ReportDocument.Figure f) {
                out.append("![").append(escape(f.plot().title())).append("](").append(f.png()).append(")\n\n");
                if (f.svg() != null) {
                    out.append('[').append(escape(f.plot().title())).append(" (SVG)](").append(f.svg()).append(")\n");
                }
            }
        }
        return out.toString();
    }

    private static void table(StringBuilder out, ReportDocument.Table table) {
        row(out, table.header());
        out.append('|');
        for (int c = 0; c < table.header().size(); c++) {
            out.append(c < table.textColumns() ? " --- |" : " ---: |");
        }
        out.append('\n');
        for (List<String> row : table.rows()) {
            row(out, row);
        }
    }

    private static void row(StringBuilder out, List<String> cells) {
        out.append('|');
        for (String cell : cells) {
            out.append(' ').append(escape(cell)).append(" |");
        }
        out.append('\n');
    }

    /**
     * @param text plain text
     * @return the text with Markdown's special characters backslash-escaped and line breaks
     *     turned into spaces
     */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#' -> out.append('\\').append(c);
                case '\n', '\r' -> out.append(' ');
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}

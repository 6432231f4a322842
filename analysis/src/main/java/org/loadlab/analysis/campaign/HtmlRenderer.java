package org.loadlab.analysis.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Base64;
import java.util.List;

/**
 * Renders a {@link ReportDocument} as one self-contained HTML5 page: minimal inline CSS,
 * charts embedded as {@code data:image/png;base64} images, no scripts and no external
 * resources, so the file can be mailed or archived alone. A table of contents links every
 * heading of levels 2 to 4; collapsed tables are {@code <details>} a reader opens.
 */
final class HtmlRenderer {

    private static final String CSS = String.join("\n",
            "body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 2em auto;",
            "       max-width: 1250px; padding: 0 1em; color: #222; line-height: 1.45; }",
            "h1, h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; }",
            "table { border-collapse: collapse; margin: .8em 0 1.4em; font-size: .9em; }",
            "th, td { border: 1px solid #ccc; padding: .25em .6em; }",
            "th { background: #f3f3f3; }",
            "td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }",
            "tbody tr:nth-child(even) { background: #fafafa; }",
            "figure { margin: 1em 0 2em; }",
            "figure img { max-width: 100%; height: auto; border: 1px solid #eee; }",
            "figcaption { color: #555; font-size: .9em; }",
            "nav.toc { background: #f7f7f7; border: 1px solid #ddd; padding: .4em 1.2em; margin: 1em 0 2em; }",
            "nav.toc ul { margin: .2em 0; padding-left: 1.2em; } nav.toc li { margin: .1em 0; }",
            "details { margin: .6em 0 1.4em; } summary { cursor: pointer; color: #0057a0; }");

    private HtmlRenderer() {
    }

    /**
     * @param document the document
     * @return the page with {@code \n} line endings and a trailing newline
     * @throws IOException if a chart's PNG cannot be read
     */
    static String render(ReportDocument document) throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        out.append("<title>").append(escape(document.title())).append("</title>\n");
        out.append("<style>\n").append(CSS).append("\n</style>\n</head>\n<body>\n");
        out.append("<h1>").append(escape(document.title())).append("</h1>\n");
        int heading = 0;
        boolean tocDone = false;
        for (ReportDocument.Block block : document.blocks()) {
            if (block instanceof ReportDocument.Heading && !tocDone) {
                toc(out, document);
                tocDone = true;
            }
            if (block instanceof ReportDocument.Heading h) {
                out.append("<h").append(h.level()).append(" id=\"").append(anchor(h, ++heading)).append("\">")
                        .append(escape(h.text())).append("</h").append(h.level()).append(">\n");
            } else if (block instanceof ReportDocument.Paragraph p) {
                out.append("<p>").append(escape(p.text())).append("</p>\n");
            } else if (block instanceof ReportDocument.Bullets b) {
                out.append("<ul>\n");
                for (String item : b.items()) {
                    out.append("<li>").append(escape(item)).append("</li>\n");
                }
                out.append("</ul>\n");
            } else if (block instanceof ReportDocument.Table t) {
                table(out, t);
            } else if (block instanceof ReportDocument.Figure f) {
                String data = Base64.getEncoder().encodeToString(Files.readAllBytes(f.plot().png()));
                out.append("<figure><img alt=\"").append(escape(f.plot().title()))
                        .append("\" src=\"data:image/png;base64,").append(data).append("\">")
                        .append("<figcaption>").append(escape(f.plot().title())).append("</figcaption></figure>\n");
            }
        }
        out.append("</body>\n</html>\n");
        return out.toString();
    }

    /** The id of the {@code n}-th heading of the document (1-based). */
    private static String anchor(ReportDocument.Heading h, int n) {
        return "s" + n;
    }

    /** Nested links to every heading of levels 2 to 4. */
    private static void toc(StringBuilder out, ReportDocument document) {
        out.append("<nav class=\"toc\"><strong>Contents</strong>\n");
        int depth = 1;
        int n = 0;
        for (ReportDocument.Block block : document.blocks()) {
            if (!(block instanceof ReportDocument.Heading h)) {
                continue;
            }
            n++;
            if (h.level() < 2 || h.level() > 4) {
                continue;
            }
            while (depth < h.level()) {
                out.append("<ul>\n");
                depth++;
            }
            while (depth > h.level()) {
                out.append("</ul>\n");
                depth--;
            }
            out.append("<li><a href=\"#").append(anchor(h, n)).append("\">").append(escape(h.text())).append("</a></li>\n");
        }
        while (depth > 1) {
            out.append("</ul>\n");
            depth--;
        }
        out.append("</nav>\n");
    }

    private static void table(StringBuilder out, ReportDocument.Table table) {
        if (table.collapsed()) {
            out.append("<details><summary>Show the table (").append(table.rows().size()).append(" rows)</summary>\n");
        }
        out.append("<table>\n<thead><tr>");
        for (String cell : table.header()) {
            out.append("<th>").append(escape(cell)).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : table.rows()) {
            out.append("<tr>");
            for (int c = 0; c < row.size(); c++) {
                out.append(c < table.textColumns() ? "<td>" : "<td class=\"num\">")
                        .append(escape(row.get(c))).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody>\n</table>\n");
        if (table.collapsed()) {
            out.append("</details>\n");
        }
    }

    /**
     * @param text plain text
     * @return the text with {@code & < > " '} as character references
     */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}

package org.loadlab.workload.trace;

/**
 * A trace file that cannot be read as a trace: the message names the file (or resource), the
 * 1-based line and the column, e.g.
 * {@code "code.csv line 17, column ContextTokens: must be an integer >= 0, was 'abc'"}.
 *
 * <p>It is an {@link IllegalArgumentException} so scenario validation reports it like any other
 * bad parameter. Source: DESIGN.md conventions (errors name the field, the value, what is allowed).
 */
public final class TraceFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** File or resource name. */
    private final String source;
    /** 1-based line number, 0 if not tied to a line. */
    private final long line;
    /** Column name, or {@code null}. */
    private final String column;

    /**
     * @param source file or resource name
     * @param line 1-based line number, or 0 if it does not apply to one line
     * @param column column name, or {@code null} if it does not apply to one column
     * @param problem what is wrong and what is allowed
     */
    public TraceFormatException(String source, long line, String column, String problem) {
        super(format(source, line, column, problem));
        this.source = source;
        this.line = line;
        this.column = column;
    }

    private static String format(String source, long line, String column, String problem) {
        StringBuilder sb = new StringBuilder(source);
        if (line > 0) {
            sb.append(" line ").append(line);
        }
        if (column != null) {
            sb.append(", column ").append(column);
        }
        return sb.append(": ").append(problem).toString();
    }

    /** @return the file or resource name */
    public String source() {
        return source;
    }

    /** @return the 1-based line number, 0 if not tied to a line */
    public long line() {
        return line;
    }

    /** @return the column name, or {@code null} if not tied to a column */
    public String column() {
        return column;
    }
}

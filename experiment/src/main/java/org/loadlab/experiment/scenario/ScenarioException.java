package org.loadlab.experiment.scenario;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario (or campaign) that cannot run, with every problem found. Each problem names
 * the key, the bad value and what is allowed, e.g.
 * {@code arrivals.rate = -3.0: must be > 0 (requests/s)}.
 */
public final class ScenarioException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    /**
     * @param source where the scenario came from (file or built-in name)
     * @param problems one line per problem, non-empty
     */
    public ScenarioException(String source, List<String> problems) {
        this("scenario", source, problems);
    }

    /**
     * @param kind what is invalid ("scenario", "campaign")
     * @param source where it came from
     * @param problems one line per problem, non-empty
     */
    public ScenarioException(String kind, String source, List<String> problems) {
        super(kind + " " + source + " is invalid:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** The individual problems, one line each. */
    public List<String> problems() {
        return problems;
    }

    /**
     * A scenario key, as {@link ConfigReader} writes it at the start of a problem: segments of
     * letters, digits, '_' and '-' (or a quoted segment), joined by '.', each with optional list
     * indices ({@code events[2].at}, {@code policy.asmf.k}).
     */
    private static final String KEY = "(?:[A-Za-z0-9_-]+|\"[^\"]*\")(?:\\[\\d+\\])*"
            + "(?:\\.(?:[A-Za-z0-9_-]+|\"[^\"]*\")(?:\\[\\d+\\])*)*";
    /** {@code key = value: message} (the value quoted or not) or {@code key: message}. */
    private static final Pattern KEYED = Pattern.compile("^(" + KEY + ")(?: = ('[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"|.*?))?: ");
    /** An override that could not be read: {@code --set 'key=value': message} or {@code --set 'text': message}. */
    private static final Pattern OVERRIDE = Pattern.compile("^--set '(.*?)': ");

    /**
     * The key a problem line is about, as the line names it: {@code nodes.count} for
     * {@code nodes.count = "abc": must be a whole number}, {@code nodes.cnt} for
     * {@code nodes.cnt: unknown key; ...}, the override's key for a {@code --set 'key=value'}
     * that does not parse, {@code --set} for one without {@code key=}.
     *
     * @param problem one line of {@link #problems()}
     * @return the key, or null if the line names none (a file that cannot be read or parsed)
     */
    public static String keyOf(String problem) {
        Matcher o = OVERRIDE.matcher(problem);
        if (o.find()) {
            int eq = o.group(1).indexOf('=');
            return eq > 0 ? o.group(1).substring(0, eq).trim() : "--set";
        }
        Matcher m = KEYED.matcher(problem);
        return m.find() ? m.group(1) : null;
    }

    /**
     * The value a problem line quotes for its key, without its quotes: {@code abc} for
     * {@code nodes.count = "abc": must be a whole number}, {@code -1} for
     * {@code nodes.service-rate = -1: ...}; the override's value, or its whole text without
     * {@code key=}, for a {@code --set} that does not parse.
     *
     * @param problem one line of {@link #problems()}
     * @return the value as text, or null if the line quotes none ({@code key: message})
     */
    public static String valueOf(String problem) {
        Matcher o = OVERRIDE.matcher(problem);
        if (o.find()) {
            int eq = o.group(1).indexOf('=');
            return eq > 0 ? o.group(1).substring(eq + 1).trim() : o.group(1);
        }
        Matcher m = KEYED.matcher(problem);
        if (!m.find() || m.group(2) == null) {
            return null;
        }
        String v = m.group(2);
        boolean quoted = v.length() >= 2 && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""));
        return quoted ? v.substring(1, v.length() - 1) : v;
    }
}

package org.loadlab.experiment.scenario;

import java.util.List;

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
}

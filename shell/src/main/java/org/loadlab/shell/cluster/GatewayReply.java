package org.loadlab.shell.cluster;

import java.util.List;

/**
 * What the gateway answers a control request with, as a domain result: the data of a
 * success, or a problem of a kind (bad input, unknown experiment, wrong state, limit
 * reached, cluster not ready, a member that failed or did not answer). The HTTP edge maps
 * each to a status code and writes the data as JSON, problems as problem+json; the actors
 * know neither.
 */
public sealed interface GatewayReply {
    /** Kinds of problem, each the edge maps to one status. */
    enum Kind {
        /** The request is wrong: a field's value is not allowed. */
        BAD_REQUEST,
        /** The scenario in the request is invalid (every problem listed). */
        INVALID_SCENARIO,
        /** No such experiment. */
        NOT_FOUND,
        /** The experiment's state does not allow it (e.g. chaos on a finished run). */
        CONFLICT,
        /** A limit is reached (experiments running at once). */
        TOO_MANY,
        /** The cluster is not ready (no Up member with a role, hosts not registered yet). */
        NOT_READY,
        /** A member refused or failed a command. */
        MEMBER_FAILED,
        /** A member did not answer in time. */
        MEMBER_TIMEOUT
    }

    /** Success: {@code data} (records, maps, lists, numbers, strings). */
    record Ok(Object data) implements GatewayReply {
    }

    /** Success that created a resource at {@code location}. */
    record Created(Object data, String location) implements GatewayReply {
    }

    /** Success of a request that completes later (stop). */
    record Accepted(Object data) implements GatewayReply {
    }

    /**
     * A problem.
     *
     * @param kind what kind
     * @param detail what is wrong and what to do
     * @param field the request field at fault, or null
     * @param value the value given, or null
     * @param allowed what is allowed (string or list), or null
     * @param problems the problems of an invalid scenario (empty otherwise); {@link #badScenario}
     *     lists the first {@link #MAX_LISTED_PROBLEMS}, then one line saying how many more there were
     */
    record Problem(Kind kind, String detail, String field, Object value, Object allowed, List<String> problems)
            implements GatewayReply {
        /** Copies the list. */
        public Problem {
            problems = problems == null ? List.of() : List.copyOf(problems);
        }
    }

    /**
     * Most problems one answer lists. A request with a thousand bad keys otherwise got a body
     * sixty times its own size (each problem repeats what is allowed); the first few tell a
     * person what to fix, and the count says how much more there is.
     */
    int MAX_LISTED_PROBLEMS = 20;

    /**
     * The first {@link #MAX_LISTED_PROBLEMS} of {@code problems} and, if there were more, the
     * line "… and N more problems" (N the ones left out).
     *
     * @param problems every problem found, or null (none)
     * @return an unmodifiable list of at most {@code MAX_LISTED_PROBLEMS + 1} lines
     */
    static List<String> bounded(List<String> problems) {
        if (problems == null) {
            return List.of();
        }
        if (problems.size() <= MAX_LISTED_PROBLEMS) {
            return List.copyOf(problems);
        }
        List<String> first = new java.util.ArrayList<>(problems.subList(0, MAX_LISTED_PROBLEMS));
        int more = problems.size() - MAX_LISTED_PROBLEMS;
        first.add("\u2026 and " + more + " more problem" + (more == 1 ? "" : "s"));
        return List.copyOf(first);
    }

    /** Success with {@code data}. */
    static GatewayReply ok(Object data) {
        return new Ok(data);
    }

    /** A problem of {@code kind}. */
    static GatewayReply problem(Kind kind, String detail, String field, Object value, Object allowed) {
        return new Problem(kind, detail, field, value, allowed, List.of());
    }

    /** Bad input naming the field, the value and what is allowed. */
    static GatewayReply badRequest(String field, Object value, Object allowed, String detail) {
        return problem(Kind.BAD_REQUEST, detail, field, value, allowed);
    }

    /**
     * An invalid scenario, listing its problems: the first {@link #MAX_LISTED_PROBLEMS} and
     * how many more there were, in {@code problems} and in the detail alike. The problem's
     * {@code field} and {@code value} are those of the first problem (the first line the CLI
     * prints for the same input), so a client reading {@code field} learns which key is wrong:
     * {@code nodes.count} and {@code abc} for {@code nodes.count = "abc": must be a whole number},
     * {@code set} and the override for a {@code set} entry without {@code key=}. A first
     * problem that names no key (a scenario that cannot be resolved) gives field
     * {@code scenario} and the scenario's source as value.
     *
     * @param source the scenario's name, or "request body" for a scenario object
     * @param problems every problem found, in the loader's order
     */
    static GatewayReply badScenario(String source, List<String> problems) {
        List<String> listed = bounded(problems);
        String first = listed.isEmpty() ? "" : listed.get(0);
        String key = org.loadlab.experiment.scenario.ScenarioException.keyOf(first);
        String field = key == null ? "scenario" : key.equals("--set") ? "set" : key;
        Object value = key == null ? source : org.loadlab.experiment.scenario.ScenarioException.valueOf(first);
        return new Problem(Kind.INVALID_SCENARIO, "scenario " + source + " is invalid: " + String.join("; ", listed),
                field, value, null, listed);
    }

    /** An unknown experiment. */
    static GatewayReply noExperiment(String id, Object known) {
        return problem(Kind.NOT_FOUND, "no experiment '" + id + "'", "experiment", id, known);
    }
}

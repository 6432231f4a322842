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
     * @param problems every problem of an invalid scenario (empty otherwise)
     */
    record Problem(Kind kind, String detail, String field, Object value, Object allowed, List<String> problems)
            implements GatewayReply {
        /** Copies the list. */
        public Problem {
            problems = problems == null ? List.of() : List.copyOf(problems);
        }
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

    /** An invalid scenario, listing every problem. */
    static GatewayReply badScenario(String source, List<String> problems) {
        return new Problem(Kind.INVALID_SCENARIO, "scenario " + source + " is invalid: " + String.join("; ", problems),
                "scenario", source, null, problems);
    }

    /** An unknown experiment. */
    static GatewayReply noExperiment(String id, Object known) {
        return problem(Kind.NOT_FOUND, "no experiment '" + id + "'", "experiment", id, known);
    }
}

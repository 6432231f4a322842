package org.loadlab.shell.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The answer of the gateway to one HTTP request: a status code and a JSON body. Errors are
 * problem bodies (RFC 9457 shape: type, title, status, detail) with, where it applies, the
 * request field at fault, the value given and what is allowed.
 *
 * @param status HTTP status code
 * @param body JSON body
 */
public record ApiReply(int status, JsonNode body) {
    /** The JSON mapper of the control API (NaN and infinities are written as strings). */
    public static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    /** 200 with {@code body}. */
    public static ApiReply ok(Object body) {
        return new ApiReply(200, JSON.valueToTree(body));
    }

    /** {@code status} with {@code body}. */
    public static ApiReply of(int status, Object body) {
        return new ApiReply(status, JSON.valueToTree(body));
    }

    /**
     * A problem body.
     *
     * @param status HTTP status
     * @param title short summary, e.g. "bad request"
     * @param detail what is wrong and what to do
     * @param field the request field at fault, or null
     * @param value the value given, or null
     * @param allowed what is allowed (string or list), or null
     */
    public static ApiReply problem(int status, String title, String detail, String field, Object value, Object allowed) {
        ObjectNode p = JSON.createObjectNode();
        p.put("type", "https://loadlab.dev/problems/" + title.replace(' ', '-'));
        p.put("title", title);
        p.put("status", status);
        p.put("detail", detail);
        if (field != null) {
            p.put("field", field);
        }
        if (value != null) {
            p.set("value", JSON.valueToTree(value));
        }
        if (allowed != null) {
            p.set("allowed", JSON.valueToTree(allowed));
        }
        return new ApiReply(status, p);
    }

    /** 400 naming the field, the value and what is allowed. */
    public static ApiReply badRequest(String field, Object value, Object allowed, String detail) {
        return problem(400, "bad request", detail, field, value, allowed);
    }

    /** 400 for an invalid scenario, listing every problem. */
    public static ApiReply badScenario(String source, List<String> problems) {
        ApiReply r = problem(400, "invalid scenario", "scenario " + source + " is invalid: " + String.join("; ", problems),
                "scenario", source, null);
        ((ObjectNode) r.body()).set("problems", JSON.valueToTree(problems));
        return r;
    }

    /** 404 for an unknown experiment. */
    public static ApiReply noExperiment(String id, Object known) {
        return problem(404, "not found", "no experiment '" + id + "'", "experiment", id, known);
    }
}

package org.loadlab.app.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request body read as one JSON object, for both HTTP APIs (the cluster's control API and
 * seed 003's gateway): either the object, or why it is not one. A field given twice is
 * refused rather than the last value kept silently (Jackson's STRICT_DUPLICATE_DETECTION), so
 * nothing ambiguous is guessed at.
 *
 * @param object the body's object, or null when it is not one
 * @param duplicateField the field the body gives more than once, or null
 */
record JsonBody(ObjectNode object, String duplicateField) {
    private static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** Jackson's message for a field named twice. */
    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate field '(.*)'");

    /**
     * Parses {@code body}.
     *
     * @param body the request body (not null)
     * @return the object; or no object and, if that is why, the field given twice
     */
    static JsonBody parse(String body) {
        try {
            JsonNode n = STRICT.readTree(body);
            return new JsonBody(n instanceof ObjectNode o ? o : null, null);
        } catch (JsonProcessingException e) {
            Matcher m = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            return new JsonBody(null, m.find() ? m.group(1) : null);
        }
    }

    /** The problem's detail for {@link #duplicateField}. */
    String duplicateDetail() {
        return "field '" + duplicateField + "' is given more than once in the body; give it once";
    }
}

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
 * @param notAnObjectDetail why the body is refused, for the problem's detail: "the request body
 *     is not a JSON object", or, for a body nested deeper than Jackson reads, that limit
 */
record JsonBody(ObjectNode object, String duplicateField, String notAnObjectDetail) {
    /** The detail for a body that is not JSON, or JSON but not an object. */
    static final String NOT_AN_OBJECT = "the request body is not a JSON object";

    // FAIL_ON_TRAILING_TOKENS: {"fault_type": "latency"}{"x": 1} was read as its first object, the rest ignored
    private static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** The detail for a JSON value followed by more than white space. */
    static final String TRAILING = "the request body has more after its JSON object; send one JSON object";
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
            return new JsonBody(n instanceof ObjectNode o ? o : null, null, NOT_AN_OBJECT);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            // An object nested thousands deep is an object, so "not a JSON object" would mislead.
            return new JsonBody(null, null, "the request body nests arrays and objects more than "
                    + STRICT.getFactory().streamReadConstraints().getMaxNestingDepth() + " levels deep; a scenario needs a few");
        } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
            if (String.valueOf(e.getOriginalMessage()).startsWith("Trailing token")) {
                return new JsonBody(null, null, TRAILING);
            }
            return new JsonBody(null, null, NOT_AN_OBJECT);
        } catch (JsonProcessingException e) {
            Matcher m = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            return new JsonBody(null, m.find() ? m.group(1) : null, NOT_AN_OBJECT);
        }
    }

    /** The problem's detail for {@link #duplicateField}. */
    String duplicateDetail() {
        return "field '" + duplicateField + "' is given more than once in the body; give it once";
    }
}

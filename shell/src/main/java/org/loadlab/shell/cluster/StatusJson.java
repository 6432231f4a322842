package org.loadlab.shell.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * An experiment's status as JSON text, for the journal's checkpoints ({@link ExperimentEntity}):
 * the shape GET /experiments/{id} shows, a run's metrics without their time series and
 * histogram (those are in the result files).
 */
final class StatusJson {
    private StatusJson() {
    }

    @JsonIgnoreProperties({"series", "responseHistogram"})
    private abstract static class MetricsSummary {
    }

    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .addMixIn(org.loadlab.analysis.run.RunMetrics.class, MetricsSummary.class)
            .registerModule(JsonNumbers.nonFiniteAsNull()); // a journaled status is served as a live one is

    /** {@code status} as JSON text. @throws IllegalStateException if it cannot be written */
    static String write(Object status) {
        try {
            return JSON.writeValueAsString(status);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the status could not be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Parses a journaled status. @throws IllegalStateException if it is not JSON */
    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a journaled status is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}

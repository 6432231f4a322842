package org.loadlab.analysis.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunMetricsJsonTest {

    private final ObjectMapper mapper = new ObjectMapper();

    static RunMetrics sample() {
        RunRecorder recorder = new RunRecorder(2, 0.5);
        recorder.arrived(0.1);
        recorder.decision(0.1, 2);
        recorder.messageSent(0.1, "Probe", 24);
        recorder.queueLength(0.2, 1, 1);
        recorder.busyServers(0.2, 1, 1, 1);
        recorder.completed(1.5, 0.6, 1);
        return recorder.finish(2.5); // node 0 has NaN utilisation
    }

    @Test
    void propertiesAreInDeclarationOrder() throws Exception {
        JsonNode tree = mapper.readTree(mapper.writeValueAsString(sample()));
        List<String> names = new ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of(
                "requestsArrived", "requestsCompleted", "requestsRejected", "requestsLost",
                "durationSeconds", "throughputRps",
                "responseMean", "responseP50", "responseP95", "responseP99", "responseP999", "responseMax",
                "waitMean", "backlogArea", "meanQueueLength", "maxQueue", "maxClusterQueue",
                "decisions", "queriesPerDecision", "messagesByKind", "messagesTotal", "bytesEstimated",
                "stateUpdates", "nodeRequestShare", "nodeUtilisation", "nodeMaxQueue", "jainFairness", "maxNodeShare1s",
                "series", "responseHistogram", "counters", "extras", "slaBreaches", "routingModes"), names);
        assertEquals(List.of("timeSeconds", "meanQueue", "maxQueue", "throughputRps"),
                fieldNames(tree.get("series").get(0)));
    }

    @Test
    void roundTripsThroughJsonIncludingNaN() throws Exception {
        RunMetrics metrics = sample();
        RunMetrics back = mapper.readValue(mapper.writeValueAsString(metrics), RunMetrics.class);
        assertEquals(metrics, back);
        assertEquals(metrics.decodeResponseHistogram(), back.decodeResponseHistogram());
    }

    @Test
    void collectionsAreImmutable() {
        RunMetrics metrics = sample();
        assertThrows(UnsupportedOperationException.class, () -> metrics.series().clear());
        assertThrows(UnsupportedOperationException.class, () -> metrics.messagesByKind().put("x", 1L));
        assertThrows(UnsupportedOperationException.class, () -> metrics.nodeUtilisation().set(0, 1.0));
    }

    @Test
    void histogramEncodingIsValidatedOnDecode() {
        assertThrows(IllegalArgumentException.class, () -> ResponseTimeHistogram.decode("not base64!"));
        assertThrows(IllegalArgumentException.class, () -> ResponseTimeHistogram.decode("AAAA"));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}

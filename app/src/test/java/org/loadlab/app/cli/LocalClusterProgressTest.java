package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The progress lines of {@code local-cluster --experiment} say which phase they are about: the
 * JIT warm-up (the experiment is {@code starting} with a {@code phase}, its own counts all
 * zero, nothing measured) or the measured experiment.
 */
class LocalClusterProgressTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @Test
    void aLineDuringTheJitWarmUpSaysSoAndIsNotMeasured() throws Exception {
        JsonNode warming = json("{\"status\":\"starting\",\"phase\":\"jit-warm-up: the members run this scenario for 10.0 s first"
                + " (loadlab.cluster.jit-warmup)\",\"progress\":{\"scenarioSeconds\":0,\"arrived\":0,\"completed\":0,"
                + "\"rejected\":0,\"lost\":0}}");
        assertEquals("  jit warm-up (not measured): starting; the members run this scenario for 10.0 s first"
                + " (loadlab.cluster.jit-warmup)", LocalClusterCommand.progressLine(warming));
    }

    @Test
    void aLineOfTheExperimentItselfSaysExperiment() throws Exception {
        JsonNode placing = json("{\"status\":\"starting\",\"progress\":{\"scenarioSeconds\":0,\"arrived\":0,\"completed\":0,"
                + "\"rejected\":0,\"lost\":0}}");
        assertEquals("  experiment: starting  t=0.0 s  arrived 0  completed 0  rejected 0  lost 0",
                LocalClusterCommand.progressLine(placing));
        JsonNode running = json("{\"status\":\"running\",\"progress\":{\"scenarioSeconds\":12.04,\"arrived\":1203,"
                + "\"completed\":1190,\"rejected\":2,\"lost\":1,\"measuredFromSeconds\":5}}");
        assertEquals("  experiment: running  t=12.0 s  arrived 1203  completed 1190  rejected 2  lost 1",
                LocalClusterCommand.progressLine(running));
    }

    @Test
    void aLineInTheScenariosOwnWarmUpWindowSaysItIsNotMeasuredYet() throws Exception {
        JsonNode early = json("{\"status\":\"running\",\"progress\":{\"scenarioSeconds\":2.0,\"arrived\":20,"
                + "\"completed\":18,\"rejected\":0,\"lost\":0,\"measuredFromSeconds\":5}}");
        assertEquals("  experiment, warm-up window until t=5.0 s (not measured): running  t=2.0 s  arrived 20  completed 18"
                + "  rejected 0  lost 0", LocalClusterCommand.progressLine(early));
    }

    @Test
    void stoppingTheClusterSaysSoAndNamesEachExperimentItInterrupts() throws Exception {
        JsonNode list = json("{\"experiments\":[{\"id\":\"exp-1\",\"status\":\"finished\"},"
                + "{\"id\":\"exp-2\",\"status\":\"running\"},{\"id\":\"exp-3\",\"status\":\"interrupted\"}]}");
        String notice = LocalClusterCommand.stoppingNotice(4, list);
        String[] lines = notice.split("\\R");
        assertEquals(2, lines.length, notice);
        assertEquals("local-cluster: stopping 4 members (graceful leave, up to 20 s)", lines[0]);
        assertEquals(true, lines[1].startsWith("local-cluster: experiment exp-2 was running: it is left interrupted"), lines[1]);
        assertEquals(true, lines[1].contains("POST /experiments/exp-2/rerun"), lines[1]);
        assertEquals("local-cluster: stopping 1 member (graceful leave, up to 20 s)" + System.lineSeparator(),
                LocalClusterCommand.stoppingNotice(1, null), "no gateway answer: only the first line");
    }
}

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
                + "\"completed\":1190,\"rejected\":2,\"lost\":1,\"measuredFromSeconds\":5,\"durationSeconds\":600}}");
        assertEquals("  experiment: running  t=12.0 s of 600 s  arrived 1203  completed 1190  rejected 2  lost 1",
                LocalClusterCommand.progressLine(running));
        JsonNode draining = json("{\"status\":\"draining\",\"progress\":{\"scenarioSeconds\":601.5,\"arrived\":9649,"
                + "\"completed\":9611,\"rejected\":10,\"lost\":0,\"durationSeconds\":600}}");
        assertEquals("  experiment: draining  t=601.5 s  arrived 9649  completed 9611  rejected 10  lost 0",
                LocalClusterCommand.progressLine(draining), "past the duration: no 'of 600 s'");
    }

    @Test
    void theStartedLineSaysWhoRunsWhatAndForHowLong() throws Exception {
        JsonNode created = json("{\"id\":\"exp-1\",\"status\":\"starting\",\"scenario\":\"quickstart\",\"policy\":\"p2c\","
                + "\"seed\":101,\"timeScale\":1.0,\"assignment\":{\"pekko://loadlab@127.0.0.1:3551\":{\"balancers\":[0],"
                + "\"nodes\":[]},\"pekko://loadlab@127.0.0.1:3552\":{\"balancers\":[],\"nodes\":[0,2,4]},"
                + "\"pekko://loadlab@127.0.0.1:3553\":{\"balancers\":[],\"nodes\":[1,3]}}}");
        JsonNode status = json("{\"progress\":{\"durationSeconds\":600}}");
        assertEquals("experiment exp-1 started: quickstart / p2c / seed 101; 5 nodes on 2 node members, 1 balancer on 1 member;"
                + " arrivals for 600 s of real time (--experiment-set duration=S to change)", LocalClusterCommand.startedLine(created, status));
        assertEquals("experiment exp-1 started: quickstart / p2c / seed 101; 5 nodes on 2 node members, 1 balancer on 1 member",
                LocalClusterCommand.startedLine(created, null), "no status: no duration");
    }

    @Test
    void aLineInTheScenariosOwnWarmUpWindowSaysItIsNotMeasuredYet() throws Exception {
        JsonNode early = json("{\"status\":\"running\",\"progress\":{\"scenarioSeconds\":2.0,\"arrived\":20,"
                + "\"completed\":18,\"rejected\":0,\"lost\":0,\"measuredFromSeconds\":5}}");
        assertEquals("  experiment, warm-up window until t=5.0 s (not measured): running  t=2.0 s  arrived 20  completed 18"
                + "  rejected 0  lost 0", LocalClusterCommand.progressLine(early));
    }

    @Test
    void stoppingTheClusterSaysTheGatewayGoesFirstAndNamesEachExperimentItStops() throws Exception {
        JsonNode list = json("{\"experiments\":[{\"id\":\"exp-1\",\"status\":\"finished\"},"
                + "{\"id\":\"exp-2\",\"status\":\"running\"},{\"id\":\"exp-3\",\"status\":\"interrupted\"}]}");
        String notice = LocalClusterCommand.stoppingNotice(4, list, java.time.Duration.ofSeconds(35));
        String[] lines = notice.split("\\R");
        assertEquals(2, lines.length, notice);
        assertEquals("local-cluster: stopping 4 members: the gateway first (it stops the experiments under way and writes"
                + " their results; up to 35 s), then the node members (graceful leave, up to 20 s)", lines[0]);
        assertEquals(true, lines[1].startsWith("local-cluster: experiment exp-2 was running: the gateway stops it, writes its"
                + " results so far"), lines[1]);
        assertEquals(true, lines[1].contains("journals it as stopped") && lines[1].contains("left interrupted"), lines[1]);
        String alone = LocalClusterCommand.stoppingNotice(1, null, java.time.Duration.ofSeconds(35));
        assertEquals(true, alone.startsWith("local-cluster: stopping 1 member: "), alone);
        assertEquals(1, alone.split("\\R").length, "no gateway answer: only the first line");
    }

    @Test
    void theBooksNameReasonsOnlyWhereThereAreAny() throws Exception {
        // It used to print the reason objects raw: "0 unresolved {}) + 0 not arrived {}".
        JsonNode balanced = json("{\"generated\":259,\"arrived\":259,\"completed\":251,\"rejected\":8,\"lost\":0,"
                + "\"unresolved\":0,\"unresolvedByReason\":{},\"notArrived\":0,\"notArrivedByReason\":{},\"ok\":true}");
        assertEquals("books: 259 generated = 259 arrived (251 completed, 8 rejected, 0 lost, 0 unresolved) + 0 not arrived",
                LocalClusterCommand.booksLine(balanced));
        JsonNode open = json("{\"generated\":35,\"arrived\":34,\"completed\":26,\"rejected\":0,\"lost\":0,"
                + "\"unresolved\":8,\"unresolvedByReason\":{\"in-flight\":7,\"deciding\":1},\"notArrived\":1,"
                + "\"notArrivedByReason\":{\"in-transit\":1},\"ok\":false,\"problems\":[\"x\"]}");
        assertEquals("books: 35 generated = 34 arrived (26 completed, 0 rejected, 0 lost, 8 unresolved: in-flight 7, deciding 1)"
                + " + 1 not arrived: in-transit 1" + System.lineSeparator() + "CONSERVATION CHECK FAILED: [\"x\"]",
                LocalClusterCommand.booksLine(open));
    }

    @Test
    void theResultLineGivesDecisionTimesInMilliseconds() throws Exception {
        // It printed the status's raw microseconds with three decimals: "p50 5992.447 us, p99 51314.687 us".
        JsonNode done = json("{\"status\":\"finished\",\"results\":{\"metrics\":{\"requestsCompleted\":251,"
                + "\"requestsRejected\":8,\"requestsLost\":0,\"responseMean\":1.67721,\"responseP99\":5.52391}},"
                + "\"metricsSoFar\":{\"requestsPerSecondWall\":6.84},"
                + "\"routing\":{\"decisionLatencyMicros\":{\"count\":259,\"p50\":5992.447,\"p99\":51314.687}}}");
        assertEquals("exp-1: 251 completed, 8 rejected, 0 lost; mean response 1.677 s, p99 5.524 s; 6.8 requests/s through the"
                + " cluster; routing decision p50 5.99 ms, p99 51.31 ms", LocalClusterCommand.resultLine("exp-1", done));
        JsonNode none = json("{\"status\":\"finished\",\"results\":{\"metrics\":{}},\"routing\":{\"decisionLatencyMicros\":"
                + "{\"count\":0}}}");
        assertEquals(true, LocalClusterCommand.resultLine("exp-2", none).endsWith("routing decision p50 -, p99 -"));
    }

    /**
     * {@code --experiment FILE} sends the file's scenario, not its path as a built-in name (the
     * gateway answered 400 "unknown scenario '/tmp/my.conf'" after the whole cluster had started).
     */
    @Test
    void aScenarioFileGoesAsTheScenarioObjectWithItsOverridesApplied(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("my.conf"),
                "name = mine\nnodes.count = 6\nduration = 30\nwarmup = 5\n");
        java.util.List<String> sets = java.util.List.of("nodes.count=4");
        JsonNode body = LocalClusterCommand.experimentRequest(file.toString(), Scenarios.load(file.toString(), sets, "--policy",
                "p2c", null), sets, "p2c");
        assertEquals(true, body.get("scenario").isObject(), body.toString());
        assertEquals("mine", body.get("scenario").get("name").asText(), body.toString());
        assertEquals(4, body.get("scenario").get("nodes").get("count").asInt(), "the override is applied: " + body);
        assertEquals(false, body.has("set"), "applied already, not sent again: " + body);
        assertEquals("p2c", body.get("policy").asText());
        JsonNode builtIn = LocalClusterCommand.experimentRequest("quickstart", null, sets, null);
        assertEquals("{\"scenario\":\"quickstart\",\"set\":[\"nodes.count=4\"]}", builtIn.toString());
    }
}

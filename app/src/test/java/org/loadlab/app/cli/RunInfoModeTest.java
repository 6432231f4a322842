package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run-info.json says how its results were made, with the keys a cluster experiment's
 * run-info.json uses: {@code "mode"} (sim or live) and, live, {@code "time_scale"}, plus each
 * live run's measured timer lag. results.json and results.csv stay free of them (a simulation's
 * stay byte-identical), so rerunning a live run's results.json simulates unless --mode live is given.
 */
class RunInfoModeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static int simulate(Path out, String... extra) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("simulate", "--scenario", "quickstart",
                "--policies", "p2c", "--seeds", "1", "--set", "duration=20", "--set", "warmup=5", "--out", out.toString()));
        args.addAll(java.util.List.of(extra));
        return CliCapture.runCapturingSystemOut(args.toArray(String[]::new)).code();
    }

    @Test
    void aSimulationSaysModeSimAndNoTimeScale() throws IOException {
        assertEquals(0, simulate(tmp.resolve("sim")));
        JsonNode info = JSON.readTree(tmp.resolve("sim/run-info.json").toFile());
        assertEquals("sim", info.path("mode").asText(), info.toString());
        assertFalse(info.has("time_scale"), info.toString());
        assertFalse(info.get("runs").get(0).has("timer_lag_mean_ms"), info.toString());
    }

    @Test
    void aLiveRunSaysModeLiveItsTimeScaleAndTimerLag() throws IOException {
        assertEquals(0, simulate(tmp.resolve("live"), "--mode", "live", "--time-scale", "5"));
        JsonNode info = JSON.readTree(tmp.resolve("live/run-info.json").toFile());
        assertEquals("live", info.path("mode").asText(), info.toString());
        assertEquals(5.0, info.path("time_scale").asDouble(), info.toString());
        JsonNode run = info.get("runs").get(0);
        assertTrue(run.path("timers").asLong() > 0, run.toString());
        assertTrue(run.path("timer_lag_mean_ms").asDouble(-1) >= 0, run.toString());
        assertTrue(run.path("timer_lag_max_ms").asDouble() >= run.path("timer_lag_mean_ms").asDouble(), run.toString());
        String results = Files.readString(tmp.resolve("live/results.json"));
        assertFalse(results.contains("time_scale") || results.contains("\"live\""), "results.json has no mode");

        // Rerunning a live run's results.json simulates (docs/live-mode note)
        assertEquals(0, CliCapture.runCapturingSystemOut("simulate", "--scenario", tmp.resolve("live/results.json").toString(),
                "--out", tmp.resolve("again").toString()).code());
        assertEquals("sim", JSON.readTree(tmp.resolve("again/run-info.json").toFile()).path("mode").asText());
    }
}

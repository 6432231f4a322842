package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.analysis.io.ResultsCsv;
import org.loadlab.analysis.io.ResultsJson;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;
import org.loadlab.experiment.scenario.Scenario;

/**
 * {@code simulate}'s files are written run by run and keep only a summary of each run in
 * memory; they are byte-identical to writing all runs at once, and a run that fails leaves
 * the directory's earlier results as they were.
 */
class ResultFilesTest {

    private static List<SimulationRunner.Outcome> outcomes() {
        Scenario s = TestScenarios.load("quickstart", "duration = 60", "warmup = 10", "nodes.count = 50");
        return List.of(SimulationRunner.runCounted(new RunSpec(s, "p2c", 101)),
                SimulationRunner.runCounted(new RunSpec(s, "random", 102)));
    }

    @Test
    void runByRunGivesTheFilesOfAllRunsAtOnceAndKeepsOnlySummaries(@TempDir Path dir) throws Exception {
        List<SimulationRunner.Outcome> outcomes = outcomes();
        Object scenario = new ObjectMapper().readTree("{\"name\":\"quickstart\"}");
        List<RunResult> summaries;
        try (ResultFiles files = new ResultFiles(dir, scenario)) {
            for (SimulationRunner.Outcome o : outcomes) {
                files.add(o);
            }
            files.commit();
            summaries = files.summaries();
        }
        List<RunResult> results = outcomes.stream().map(SimulationRunner.Outcome::result).toList();
        ResultsJson.write(dir.resolve("expected.json"), scenario, results);
        ResultsCsv.write(dir.resolve("expected.csv"), results);
        assertArrayEquals(Files.readAllBytes(dir.resolve("expected.json")), Files.readAllBytes(dir.resolve("results.json")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("expected.csv")), Files.readAllBytes(dir.resolve("results.csv")));
        assertEquals(1 + 2 * 50, Files.readAllLines(dir.resolve("nodes.csv")).size());
        assertTrue(Files.size(dir.resolve("timeseries.csv")) > 0);
        for (String f : new String[] {"results.json", "results.csv", "timeseries.csv", "nodes.csv"}) {
            assertFalse(Files.exists(dir.resolve(f + ".part")), f);
        }
        // The summaries keep every scalar the table prints, not the per-node arrays or the series.
        for (int i = 0; i < 2; i++) {
            var full = results.get(i).metrics();
            var slim = summaries.get(i).metrics();
            assertTrue(slim.nodeRequestShare().isEmpty() && slim.nodeUtilisation().isEmpty() && slim.nodeMaxQueue().isEmpty()
                    && slim.series().isEmpty());
            assertEquals(50, full.nodeMaxQueue().size());
            assertEquals(full.responseMean(), slim.responseMean(), 0);
            assertEquals(full.maxQueue(), slim.maxQueue());
            assertEquals(full.queriesPerDecision(), slim.queriesPerDecision(), 0);
        }
    }

    @Test
    void withoutACommitTheEarlierResultsStay(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("results.json"), "earlier");
        try (ResultFiles files = new ResultFiles(dir, null)) {
            files.add(outcomes().get(0));
            // a later run fails here: no commit
        }
        assertEquals("earlier", Files.readString(dir.resolve("results.json")));
        try (var listing = Files.list(dir)) {
            assertEquals(List.of("results.json"), listing.map(p -> p.getFileName().toString()).toList());
        }
    }
}

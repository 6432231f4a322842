package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Same scenario and seed give byte-identical result files; another seed differs. */
class SimulateDeterminismTest {
    @TempDir
    Path tmp;

    private int simulate(Path out, String seeds, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("simulate", "--scenario", "quickstart", "--seeds", seeds,
                "--policies", "random,p2c,least-queue,round-robin", "--out", out.toString(),
                "--set", "duration=200", "--set", "warmup=20", "--workers", "2"));
        args.addAll(Arrays.asList(extra));
        return LoadLabCli.commandLine().execute(args.toArray(String[]::new));
    }

    @Test
    void sameSeedGivesByteIdenticalResultsAndAnotherSeedDiffers() throws IOException {
        assertEquals(0, simulate(tmp.resolve("a"), "101:102"));
        assertEquals(0, simulate(tmp.resolve("b"), "101:102"));
        assertEquals(0, simulate(tmp.resolve("c"), "103:104"));
        for (String f : List.of("results.json", "results.csv", "timeseries.csv", "nodes.csv")) {
            byte[] a = Files.readAllBytes(tmp.resolve("a").resolve(f));
            byte[] b = Files.readAllBytes(tmp.resolve("b").resolve(f));
            assertTrue(a.length > 100, f + " has content");
            assertArrayEquals(a, b, f + " must be byte-identical for the same seeds");
        }
        String json = Files.readString(tmp.resolve("a/results.json"));
        assertTrue(json.contains("\"scenario\""), "results.json carries the scenario");
        assertTrue(json.contains("\"seed\" : 101") || json.contains("\"seed\":101"), "results.json carries the seed");
        assertFalse(json.contains("wall"), "wall-clock figures stay out of results.json");
        assertTrue(Files.readString(tmp.resolve("a/run-info.json")).contains("wall_seconds"));
        String c = Files.readString(tmp.resolve("c/results.csv"));
        String a = Files.readString(tmp.resolve("a/results.csv"));
        assertFalse(a.substring(a.indexOf('\n')).equals(c.substring(c.indexOf('\n'))), "another seed gives other results");
    }

    @Test
    void aResultsJsonRunsAgainToTheSameResults() throws IOException {
        assertEquals(0, simulate(tmp.resolve("first"), "101"));
        Path saved = tmp.resolve("first/results.json");
        int code = LoadLabCli.commandLine().execute("simulate", "--scenario", saved.toString(),
                "--out", tmp.resolve("again").toString());
        assertEquals(0, code);
        assertArrayEquals(Files.readAllBytes(tmp.resolve("first/results.csv")),
                Files.readAllBytes(tmp.resolve("again/results.csv")));
    }

    @Test
    void resultsCsvHasTheDocumentedColumns() throws IOException {
        assertEquals(0, simulate(tmp.resolve("cols"), "101"));
        String header = Files.readAllLines(tmp.resolve("cols/results.csv")).get(0);
        assertTrue(header.startsWith("scenario,policy,seed,requests_completed,requests_rejected,throughput_rps,"
                + "response_mean_s,response_p50_s,response_p99_s,wait_mean_s,queries_per_decision,max_queue"), header);
        assertEquals(1 + 4, Files.readAllLines(tmp.resolve("cols/results.csv")).size(), "one row per run");
    }
}

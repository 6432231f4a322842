package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} into a directory that holds an earlier job's results, as a newcomer does it
 * by running the README's quick start twice: the job still runs, says in one line what it
 * replaces (an interrupted job's finished runs too), and deletes the charts {@code plot} drew
 * from the replaced runs, leaving the user's own files in {@code plots/}.
 */
class SimulateIntoEarlierResultsTest {
    @TempDir
    Path tmp;

    private static CliCapture.Printed run(String... args) {
        return CliCapture.runCapturingSystemOut(args);
    }

    private static CliCapture.Printed simulate(Path dir, String policies, String seeds) {
        List<String> args = new ArrayList<>(List.of("simulate", "--scenario", "quickstart", "--policies", policies,
                "--seeds", seeds, "--set", "duration=30", "--set", "warmup=5", "--out", dir.toString()));
        CliCapture.Printed r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return r;
    }

    @Test
    void aRerunSaysWhatItReplacesAndDeletesTheStalePlots() throws Exception {
        Path dir = tmp.resolve("sim");
        CliCapture.Printed first = simulate(dir, "random,p2c", "1:2");
        assertFalse(first.out().contains(" holds "), "nothing to replace on a first run: " + first.out());
        assertEquals(0, run("plot", dir.toString()).code());
        Files.writeString(dir.resolve("plots/notes.txt"), "the user's own file");

        CliCapture.Printed again = simulate(dir, "random", "1");
        assertTrue(again.out().contains("\n  " + dir + " holds an earlier job's 4 runs (2 policies x 2 seeds) and 3 plots"
                + " drawn from them: this job replaces the runs and deletes the plots\n"), again.out());
        assertEquals(2, Files.readAllLines(dir.resolve("results.csv")).size(), "header + the one new run");
        for (String png : List.of("cdf-quickstart.png", "queue-quickstart.png", "share-quickstart.png")) {
            assertTrue(Files.notExists(dir.resolve("plots").resolve(png)), png + " showed the replaced runs");
        }
        assertTrue(Files.exists(dir.resolve("plots/notes.txt")), "files plot did not draw are left alone");

        Files.delete(dir.resolve("plots/notes.txt"));
        assertEquals(0, run("plot", dir.toString()).code());
        simulate(dir, "random", "1");
        assertTrue(Files.notExists(dir.resolve("plots")), "a plots/ that held only LoadLab's charts goes with them");
    }

    @Test
    void aRerunIntoAnInterruptedJobSaysItsFinishedRunsAreReplaced() throws Exception {
        Path dir = tmp.resolve("interrupted");
        simulate(dir, "random,p2c", "1:2");
        // What an interrupted job leaves (InterruptTest makes one with a real Ctrl-C).
        Path info = dir.resolve("run-info.json");
        Files.writeString(info, Files.readString(info).replace("\"complete\" : true", "\"complete\" : false")
                .replace("\"runs_planned\" : 4", "\"runs_planned\" : 10"));
        Files.writeString(dir.resolve(SimulateCommand.INCOMPLETE), "This directory holds 4 of the 10 runs ...");

        CliCapture.Printed again = simulate(dir, "random", "1");
        assertTrue(again.out().contains("\n  " + dir + " holds an interrupted job's 4 finished runs (of 10 planned; "
                + SimulateCommand.INCOMPLETE + "): this job replaces them (it does not resume that job)\n"), again.out());
        assertTrue(Files.notExists(dir.resolve(SimulateCommand.INCOMPLETE)), "the new job is complete");
    }

    @Test
    void oneFinishedRunOfAnInterruptedJobIsOneRun() throws Exception {
        Path dir = tmp.resolve("interrupted-one");
        simulate(dir, "random", "1");
        Path info = dir.resolve("run-info.json");
        Files.writeString(info, Files.readString(info).replace("\"complete\" : true", "\"complete\" : false")
                .replace("\"runs_planned\" : 1", "\"runs_planned\" : 10"));
        Files.writeString(dir.resolve(SimulateCommand.INCOMPLETE), "This directory holds 1 of the 10 runs ...");
        assertEquals("d holds an interrupted job's 1 finished run (of 10 planned; " + SimulateCommand.INCOMPLETE
                + "): this job replaces it (it does not resume that job)", EarlierResults.in(dir).orElseThrow().notice(Path.of("d")));
    }

    @Test
    void withoutRunInfoTheRunsAreCountedInResultsCsv() throws Exception {
        Path dir = tmp.resolve("no-info");
        simulate(dir, "random,p2c", "1:2");
        Files.delete(dir.resolve("run-info.json"));
        assertEquals("d holds an earlier job's 4 runs: this job replaces them",
                EarlierResults.in(dir).orElseThrow().notice(Path.of("d")));
    }

    @Test
    void aCampaignDirectoryKeepsItsCharts() throws Exception {
        Path dir = tmp.resolve("campaign");
        Files.createDirectories(dir.resolve("plots"));
        Files.writeString(dir.resolve(org.loadlab.analysis.campaign.RunsFile.FILE_NAME), "");
        Files.writeString(dir.resolve("plots/cdf-x.png"), "a campaign chart");
        assertEquals(0, EarlierResults.deleteStalePlots(dir));
        assertTrue(Files.exists(dir.resolve("plots/cdf-x.png")));
    }
}

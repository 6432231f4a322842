package org.loadlab.app.cli;

import org.loadlab.experiment.campaign.CampaignLoader;
import org.loadlab.shell.campaign.CampaignEntity;
import org.loadlab.shell.campaign.CampaignRunner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.experiment.run.TestScenarios;

/**
 * A campaign killed with SIGKILL half-way finishes on resume without repeating or losing
 * a run, and its results equal those of an uninterrupted campaign.
 */
class CampaignResumeTest {
    private static final Pattern PROGRESS = Pattern.compile("^\\s*(\\d+)/(\\d+) runs");

    @TempDir
    Path tmp;

    // Runs long enough (about a quarter of a second each) that the campaign is still running
    // when its first results are stored: a fresh campaign simulates while its journal starts
    // and stores what is done in one write, so with short runs all 40 could be stored at once
    // and there would be nothing left to kill half-way.
    private Path campaignFile() throws Exception {
        Path f = tmp.resolve("resume.conf");
        Files.writeString(f, """
                name = resume-test
                description = "SIGKILL and resume"
                seeds = "101:110"
                scenarios = [ { scenario = quickstart, set { duration = 6000, warmup = 10 } } ]
                sweep { "arrivals.utilisation" = [0.6, 0.9] }
                policies = [random, p2c]
                reference = p2c
                """);
        return f;
    }

    @Test
    void sigkillHalfWayThenResumeGivesTheUninterruptedResults() throws Exception {
        Path file = campaignFile();
        String id = new CampaignLoader(TestScenarios.loader()).load(file.toString(), null).id();
        Path killed = tmp.resolve("killed");

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                LoadLabCli.class.getName(), "campaign", "run", file.toString(), "--out", killed.toString(), "--workers", "1"));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        int seen = 0;
        int total = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                Matcher m = PROGRESS.matcher(line);
                if (m.find()) {
                    seen = Integer.parseInt(m.group(1));
                    total = Integer.parseInt(m.group(2));
                    if (seen >= 8) {
                        break;
                    }
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(40, total, "the campaign has 2 points x 2 policies x 10 seeds");
        assertTrue(seen >= 8 && seen < total, "killed half-way, after " + seen + " runs");

        int stored = CampaignRunner.status(id, killed).completed().size();
        assertTrue(stored >= seen && stored < total, "the journal kept every finished run: " + stored);

        assertEquals(0, LoadLabCli.commandLine().execute("campaign", "resume", id, "--out", killed.toString()));
        CampaignEntity.State after = CampaignRunner.status(id, killed);
        assertEquals(total, after.completed().size());
        assertTrue(after.finished());

        Path clean = tmp.resolve("clean");
        assertEquals(0, LoadLabCli.commandLine().execute("campaign", "run", file.toString(), "--out", clean.toString()));
        for (String f : List.of("runs.jsonl", "runs.csv")) {
            assertArrayEquals(Files.readAllBytes(clean.resolve(f)), Files.readAllBytes(killed.resolve(f)),
                    f + " after kill + resume equals the uninterrupted campaign");
        }
    }

    @Test
    void aBadCampaignIsRejectedAndNothingIsWritten() throws Exception {
        Path f = tmp.resolve("bad.conf");
        Files.writeString(f, """
                name = bad
                scenarios = [ quickstart, { scenario = quikstart } ]
                policies = [random, p9c]
                sweep { "arrivals.utilisation" = [0.5, 1.5] }
                reference = jsq
                """);
        Path out = tmp.resolve("bad-out");
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cli = LoadLabCli.commandLine();
        cli.setErr(new java.io.PrintWriter(err));
        assertEquals(2, cli.execute("campaign", "run", f.toString(), "--out", out.toString()));
        String msg = err.toString();
        assertTrue(msg.contains("policies[1]") && msg.contains("'p9c'"), msg);
        assertTrue(msg.contains("reference = 'jsq'"), msg);
        assertTrue(!Files.exists(out), "nothing is written for a bad campaign");
    }
}

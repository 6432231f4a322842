package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.experiment.campaign.CampaignLoader;

/**
 * {@code campaign status}, {@code resume}, {@code list} and {@code run --help} as a newcomer
 * calls them: a campaign run with {@code --out} is found by its id alone, a directory holding
 * another campaign is refused, the list's columns stay apart, and the help names the built-ins.
 */
class CampaignCommandTest {
    @TempDir
    Path tmp;

    /** Runs {@code loadlab args...} in-process; campaign commands print to System.out, errors to the CLI's writer. */
    private static CliCapture.Printed run(String... args) {
        return CliCapture.runCapturingSystemOut(args);
    }

    @BeforeEach
    void root() {
        System.setProperty("loadlab.campaigns.root", tmp.resolve("root").toString());
    }

    @AfterEach
    void clear() {
        System.clearProperty("loadlab.campaigns.root");
    }

    /** Runs a four-run campaign into {@code dir} with --out and returns its id. */
    private String tinyCampaign(Path dir) throws Exception {
        Path file = tmp.resolve("tiny.conf");
        Files.writeString(file, "name = tiny\nseeds = \"1:2\"\n"
                + "scenarios = [{ scenario = quickstart, set { duration = 30, warmup = 0, nodes.count = 5 } }]\n"
                + "policies = [random, p2c]\n");
        CliCapture.Printed ran = run("campaign", "run", file.toString(), "--out", dir.toString());
        assertEquals(0, ran.code(), ran.err());
        return new ObjectMapper().readTree(dir.resolve("campaign.json").toFile()).path("id").asText();
    }

    @Test
    void aOneRunCampaignSaysOneRun() throws Exception {
        Path file = tmp.resolve("single.conf");
        Files.writeString(file, "name = single\nseeds = \"1\"\n"
                + "scenarios = [{ scenario = quickstart, set { duration = 30, warmup = 0, nodes.count = 5 } }]\n"
                + "policies = [p2c]\n");
        Path dir = tmp.resolve("single");
        CliCapture.Printed ran = run("campaign", "run", file.toString(), "--out", dir.toString());
        assertEquals(0, ran.code(), ran.err());
        assertTrue(ran.out().contains("\n  1 run on ") && ran.out().contains("\n1 run done (1 now, 0 from the journal) in "), ran.out());
        String id = new ObjectMapper().readTree(dir.resolve("campaign.json").toFile()).path("id").asText();
        CliCapture.Printed status = run("campaign", "status", id);
        assertEquals(id + ": 1 of 1 run done (100%), finished", status.out().strip());
    }

    @Test
    void statusAndResumeFindACampaignRunWithOutByItsIdAlone() throws Exception {
        Path dir = tmp.resolve("elsewhere");
        String id = tinyCampaign(dir);
        CliCapture.Printed status = run("campaign", "status", id);
        assertEquals(0, status.code(), status.err());
        assertEquals(id + ": 4 of 4 runs done (100%), finished", status.out().strip());

        Files.delete(dir.resolve("report.html"));
        CliCapture.Printed incomplete = run("campaign", "status", id);
        assertTrue(incomplete.out().contains("incomplete, report not written: `loadlab campaign resume " + id + " --out " + dir
                + "`"), "the resume hint names the directory: " + incomplete.out());
        CliCapture.Printed resume = run("campaign", "resume", id);
        assertEquals(0, resume.code(), resume.err());
        assertTrue(resume.out().contains("4 runs done (0 now, 4 from the journal)"), resume.out());
        assertTrue(Files.exists(dir.resolve("report.html")), "resume rebuilt the report in the --out directory");
        assertFalse(Files.exists(tmp.resolve("root").resolve(id)), "nothing written under the default root");

        Path twin = tmp.resolve("twin");
        assertEquals(id, tinyCampaign(twin));
        CliCapture.Printed ambiguous = run("campaign", "status", id);
        assertEquals(2, ambiguous.code());
        assertTrue(ambiguous.err().contains("campaign '" + id + "' is in 2 directories run with --out: " + dir + ", " + twin
                + "; pass --out DIR to choose one"), ambiguous.err());

        CliCapture.Printed unknown = run("campaign", "status", "tiny-00000000");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("campaign 'tiny-00000000': no campaign.json in " + tmp.resolve("root/tiny-00000000")
                + ", nor in a directory run with --out from here"), unknown.err());
    }

    @Test
    void statusAndResumeRefuseADirectoryHoldingAnotherCampaign() throws Exception {
        Path dir = tmp.resolve("c");
        String id = tinyCampaign(dir);
        Files.delete(dir.resolve("report.html"));
        for (String command : List.of("status", "resume")) {
            CliCapture.Printed r = run("campaign", command, "x", "--out", dir.toString());
            assertEquals(2, r.code(), command + ": " + r.out());
            assertTrue(r.err().contains("--out = '" + dir + "' holds campaign " + id + ", not x; give the id of the campaign"
                    + " in that directory, or the --out DIR of campaign x"), command + ": " + r.err());
            assertEquals("", r.out(), command + " printed nothing else");
        }
        assertFalse(Files.exists(dir.resolve("report.html")), "the refused resume did not touch the campaign");
    }

    @Test
    void listKeepsTheStateShortAndPrintsTheResumeCommandsBelowTheTable() throws Exception {
        Path done = tmp.resolve("done");
        Path cut = tmp.resolve("cut");
        String id = tinyCampaign(done);
        tinyCampaign(cut);
        Files.delete(cut.resolve("report.html"));
        CliCapture.Printed list = run("campaign", "list");
        assertEquals(0, list.code(), list.err());
        List<String> lines = list.out().lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("id ")).findFirst().orElseThrow());
        assertTrue(lines.get(header).matches("id +runs  state       directory"), lines.get(header));
        assertTrue(lines.get(header + 1).matches(Pattern.quote(id) + " +4  finished    " + Pattern.quote(done.toString())), lines.get(header + 1));
        assertTrue(lines.get(header + 2).matches(Pattern.quote(id) + " +4  incomplete  " + Pattern.quote(cut.toString())), lines.get(header + 2));
        assertEquals("", lines.get(header + 3));
        assertEquals("Finish an incomplete campaign (its stored runs are not repeated) with:", lines.get(header + 4));
        assertEquals("  ./loadlab campaign resume " + id + " --out " + cut, lines.get(header + 5));
        assertEquals(header + 6, lines.size(), list.out());
    }

    @Test
    void runHelpListsEveryBuiltInCampaign() {
        CliCapture.Printed help = run("campaign", "run", "--help");
        assertEquals(0, help.code(), help.err());
        String flat = help.out().replaceAll("\\s+", " ");
        for (String name : CampaignLoader.BUILT_INS.keySet()) {
            assertTrue(flat.contains(name), "missing " + name + ": " + help.out());
        }
        assertTrue(flat.contains("NAME|FILE A built-in campaign (policy-sweep, asmf-rigorous,"), help.out());
    }

    @Test
    void aMalformedSetOnACampaignFileIsReportedAsTheCampaignsNotAScenarios() throws Exception {
        Path file = Files.writeString(tmp.resolve("c.conf"), "name = c\nscenarios = [quickstart]\npolicies = [p2c]\n");
        CliCapture.Printed r = run("campaign", "run", file.toString(), "--set", "duration", "--out", tmp.resolve("out").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("error: campaign " + file + " is invalid:\n  - --set 'duration': expected key=value"), r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }
}

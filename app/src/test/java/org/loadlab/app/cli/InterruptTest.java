package org.loadlab.app.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on a long job, in a child JVM that gets SIGINT ({@code kill -INT}, as a terminal
 * sends it): {@code simulate} writes the runs already finished and marks the directory
 * incomplete; a campaign exits cleanly, without a stack trace, and prints the
 * {@code campaign resume} command, which then finishes it.
 */
class InterruptTest {
    @TempDir
    Path tmp;

    /** A child {@code loadlab} with its output collected as it comes. */
    private static final class Child {
        final Process process;
        final StringBuffer out = new StringBuffer();
        final StringBuffer err = new StringBuffer();

        Child(String... args) throws IOException {
            this(List.of(), args);
        }

        Child(List<String> jvmOptions, String... args) throws IOException {
            List<String> cmd = new ArrayList<>();
            // SIGINT may be ignored by this JVM's parent (a background job); give the child the default.
            cmd.addAll(List.of("env", "--default-signal=INT"));
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx512m");
            cmd.add("-XX:TieredStopAtLevel=1"); // C1 only: these short-lived children spend more on compiling than on running
            cmd.addAll(jvmOptions);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LoadLabCli.class.getName()));
            cmd.addAll(List.of(args));
            process = new ProcessBuilder(cmd).start();
            drain(process.getInputStream(), out);
            drain(process.getErrorStream(), err);
        }

        private static void drain(InputStream in, StringBuffer into) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[8192];
                try {
                    for (int n; (n = in.read(buf)) > 0; ) {
                        into.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                } catch (IOException e) {
                    // the child is gone
                }
            });
            t.setDaemon(true);
            t.start();
        }

        void interrupt() throws Exception {
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -INT sent");
        }

        int exitCode() throws InterruptedException {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child exits after Ctrl-C");
            return process.exitValue();
        }
    }

    private static void noStackTrace(String text) {
        assertFalse(text.contains("\tat ") || text.contains("Exception"), "a stack trace reached the user:\n" + text);
    }

    @Test
    void ctrlCOnSimulateWritesTheFinishedRunsMarkedIncomplete() throws Exception {
        Path out = tmp.resolve("sim");
        Child c = new Child("simulate", "--scenario", "quickstart", "--policies", "p2c", "--seeds", "1:200",
                "--set", "duration=3000", "--workers", "1", "--out", out.toString());
        // Wait until two or more runs are written ("[k/200]" lines come at most once a second).
        Pattern written = Pattern.compile("\\[([2-9]|\\d{2,})/200\\]");
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> written.matcher(c.err.toString()).find());
        c.interrupt();
        assertEquals(130, c.exitCode(), c.err.toString());
        String err = c.err.toString();
        Matcher m = Pattern.compile("interrupted: wrote the (\\d+) of 200 runs").matcher(err);
        assertTrue(m.find(), err);
        int kept = Integer.parseInt(m.group(1));
        assertTrue(kept >= 2 && kept < 200, err);
        assertEquals(kept + 1, Files.readAllLines(out.resolve("results.csv")).size(), "header + one row per finished run");
        assertTrue(Files.readString(out.resolve(SimulateCommand.INCOMPLETE)).contains(kept + " of the 200 runs"));
        assertEquals(kept, Pattern.compile("\"seed\" : ").matcher(Files.readString(out.resolve("results.json"))).results().count(),
                "the message counts the runs results.json holds");
        String info = Files.readString(out.resolve("run-info.json"));
        assertTrue(info.contains("\"complete\" : false") && info.contains("\"runs_planned\" : 200"), info);
        assertTrue(Files.readString(out.resolve("results.json")).contains("\"seed\" : 1"), "finished runs in plan order");
        noStackTrace(err);
    }

    @Test
    void ctrlCOnACampaignPrintsTheResumeCommandAndResumeFinishesIt() throws Exception {
        Path out = tmp.resolve("campaign");
        Child c = new Child("campaign", "run", "policy-sweep", "--seeds", "1:4", "--workers", "1", "--out", out.toString());
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                .until(() -> Pattern.compile("\\n  [1-9]\\d*/144 runs").matcher(c.out.toString()).find());
        c.interrupt();
        assertEquals(130, c.exitCode(), c.err.toString());
        String all = c.out + "\n" + c.err;
        Matcher resume = Pattern.compile("\\./loadlab campaign resume (policy-sweep-[0-9a-f]+) --out (\\S+)").matcher(all);
        assertTrue(resume.find(), all);
        assertEquals(out.toString(), resume.group(2));
        noStackTrace(all);

        Child again = new Child("campaign", "resume", resume.group(1), "--out", out.toString());
        assertEquals(0, again.exitCode(), again.err.toString());
        assertTrue(Pattern.compile("144 runs done \\(\\d+ now, [1-9]\\d* from the journal\\)").matcher(again.out.toString()).find(),
                again.out.toString());
        assertTrue(Files.isRegularFile(out.resolve("report.html")));
    }

    @Test
    void ctrlCWhileTheReportIsWrittenSaysSoAndStatusAndListAgree() throws Exception {
        Path file = Files.writeString(tmp.resolve("small.conf"), """
                name = report-interrupt
                seeds = "1:2"
                scenarios = [ { scenario = quickstart, set { duration = 200, warmup = 10 } } ]
                sweep { "arrivals.utilisation" = [0.5] }
                policies = [random, p2c]
                """);
        Path out = tmp.resolve("campaign");
        Path root = tmp.resolve("root");
        Child c = new Child(List.of("-D" + CampaignCommand.PAUSE_BEFORE_REPORT + "=true", "-Dloadlab.campaigns.root=" + root),
                "campaign", "run", file.toString(), "--workers", "1", "--out", out.toString());
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> c.out.toString().contains("writing the report ..."));
        c.interrupt();
        assertEquals(130, c.exitCode(), c.err.toString());
        String err = c.err.toString();
        assertTrue(err.contains("interrupted while the report was written") && err.contains("the report (report.html"), err);
        Matcher resume = Pattern.compile("\\./loadlab campaign resume (report-interrupt-[0-9a-f]+) --out (\\S+)").matcher(err);
        assertTrue(resume.find(), err);
        noStackTrace(c.out + "\n" + err);
        assertFalse(Files.exists(out.resolve("report.html")));

        String before = System.getProperty("loadlab.campaigns.root");
        System.setProperty("loadlab.campaigns.root", root.toString());
        String shown;
        try {
            CliCapture.Printed status = CliCapture.runCapturingSystemOut("campaign", "status", resume.group(1), "--out", out.toString());
            assertEquals(0, status.code(), status.err());
            CliCapture.Printed list = CliCapture.runCapturingSystemOut("campaign", "list");
            assertEquals(0, list.code(), list.err());
            shown = status.out() + list.out();
        } finally {
            if (before == null) {
                System.clearProperty("loadlab.campaigns.root");
            } else {
                System.setProperty("loadlab.campaigns.root", before);
            }
        }
        assertTrue(shown.contains("4 of 4 runs done (100%), incomplete, report not written: `loadlab campaign resume "
                + resume.group(1) + " --out " + out + "`"), shown);
        assertTrue(Pattern.compile(resume.group(1) + "\\s+4\\s+incomplete\\s+" + Pattern.quote(out.toString())).matcher(shown).find(),
                shown);
        assertTrue(shown.contains("\n  ./loadlab campaign resume " + resume.group(1) + " --out " + out + "\n"), shown);
        assertFalse(shown.contains("finished"), "neither says finished: " + shown);

        Child again = new Child(List.of("-Dloadlab.campaigns.root=" + root), "campaign", "resume", resume.group(1),
                "--out", out.toString());
        assertEquals(0, again.exitCode(), again.err.toString());
        assertTrue(Files.isRegularFile(out.resolve("report.html")), "resume rebuilds the report");
    }
}

package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole report: files, tables, figures, determinism, rebuild, errors. */
class CampaignReportTest {

    @TempDir
    Path tmp;

    private static final AnalyticCurve MM1 = new AnalyticCurve("M/M/1", r -> 0.1 / (1 - r));

    private static List<CampaignRun> runs() {
        List<CampaignRun> runs = new ArrayList<>(SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5", "0.9"), 3, 200));
        for (String policy : List.of("p2c", "random")) {
            for (long seed = 1; seed <= 3; seed++) {
                runs.add(new CampaignRun("plain", new TreeMap<>(), policy, seed, SampleCampaign.metrics(policy, 0.6, seed, 200)));
            }
        }
        return runs;
    }

    private static ReportMeta meta() {
        return new ReportMeta("test-campaign", "A small test campaign.", "p2c", List.of(SampleCampaign.KEY),
                List.of(MM1), List.of(Metric.RESPONSE_MEAN, Metric.REQUESTS_REJECTED), true);
    }

    @Test
    void writesEveryFileWithTheExpectedTables() throws IOException {
        Path dir = tmp.resolve("campaign");
        CampaignReport.write(dir, meta(), runs());
        for (String name : List.of("runs.jsonl", "campaign-meta.json", "runs.csv", "summary.csv", "pairwise.csv",
                "report.md", "report.html")) {
            assertTrue(Files.size(dir.resolve(name)) > 0, name);
        }
        assertEquals(18, RunsFile.read(dir.resolve("runs.jsonl")).size());

        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.startsWith("# Campaign report: test-campaign\n\nA small test campaign.\n"), md.substring(0, 80));
        assertContains(md, "## What was run");
        assertContains(md, "- Scenarios (2): plain, poisson\\_small");
        assertContains(md, "- Swept arrivals.utilisation (2 values): 0.5, 0.9");
        assertContains(md, "- Policies (2): p2c (reference), random");
        assertContains(md, "- Seeds (3): 1–3");
        assertContains(md, "- Runs: 18\n");
        assertContains(md, "#### poisson\\_small, arrivals.utilisation=0.9\n\n"
                + "| policy | runs | mean response time (s) | rejected requests (requests) |\n| --- | ---: | ---: | ---: |\n"
                + "| p2c (ref.) | 3 |");
        assertContains(md, "#### All runs of plain\n\n| policy | runs |");
        assertContains(md, "## Paired comparison with the reference policy p2c");
        assertContains(md, "### mean response time (s), lower is better\n\n| scenario, parameters | policy | pairs | p2c mean "
                + "| policy mean | change | p (t) | p Holm (t) | p (W) | p Holm (W) | verdict |");
        assertContains(md, "| poisson\\_small, arrivals.utilisation=0.9 | random | 3 |");
        // both policies reject the same number in every seed: identical, so "same" with p = 1, not n/a
        assertContains(md, "### rejected requests (requests), lower is better\n\n");
        assertContains(md, "| plain | random | 3 | 1.667 | 1.667 | +0.0% | 1 | 1 | 1 | 1 | same |\n");
        assertContains(md, "![mean response time vs arrivals.utilisation — poisson\\_small]"
                + "(plots/sweep-response_mean_s-poisson_small-vs-arrivals.utilisation.png)");
        assertContains(md, "#### All runs of plain");

        List<String> pngs = matches(md, "\\]\\((plots/[^)]+\\.png)\\)");
        assertEquals(2 + 3 * 4, pngs.size(), "2 sweeps; per cell a CDF, a queue plot and 2 box plots");
        for (String png : pngs) {
            assertNotNull(ImageIO.read(dir.resolve(png).toFile()), png);
            assertFalse(Files.exists(dir.resolve(png.replace(".png", ".svg"))), "SVG is opt-in: " + png);
        }

        // Each cell's charts follow its table, before the next cell's heading.
        int table = md.indexOf("#### poisson\\_small, arrivals.utilisation=0.9\n\n| policy");
        int cdf = md.indexOf("(plots/cdf-poisson_small_arrivals.utilisation-0.9.png)");
        int next = md.indexOf("\n## Paired comparison");
        assertTrue(table >= 0 && table < cdf && cdf < next, "the CDF of a cell sits below its table");

        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
        assertContains(html, "<nav class=\"toc\"><strong>Contents</strong>");
        for (Matcher link = Pattern.compile("<a href=\"#(s\\d+)\">").matcher(html); link.find(); ) {
            assertContains(html, " id=\"" + link.group(1) + "\">");
        }
        assertContains(html, "<li><a href=\"#s1\">What was run</a></li>");
        assertContains(html, "<title>Campaign report: test-campaign</title>");
        assertContains(html, "<th>policy</th><th>runs</th><th>mean response time (s)</th>");
        assertEquals(pngs.size(), matches(html, "src=\"data:image/png;base64,").size());
        assertFalse(html.contains("http://") || html.contains("https://") || html.contains("src=\"plots"),
                "self-contained: no external resources");
        // Markdown has one separator line per table that HTML does not
        assertEquals(countOf(md, "\n|") - countOf(md, "\n| --- |"), countOf(html, "<tr>"), "same table rows in both");
        assertEquals(5, countOf(html, "<table>"), "3 summary tables (one per cell) and 2 comparison tables (one per metric)");

        String metaJson = Files.readString(dir.resolve("campaign-meta.json"));
        assertContains(metaJson, "\"format\" : \"loadlab-campaign-meta/1\"");
        assertContains(metaJson, "\"metrics\" : [ \"response_mean_s\", \"requests_rejected\" ]");
        assertContains(metaJson, "\"parameter\" : \"arrivals.utilisation\"");
    }

    @Test
    void rebuildAndShuffledInputGiveByteIdenticalFiles() throws IOException {
        Path first = tmp.resolve("first");
        CampaignReport.write(first, meta(), runs());
        Map<String, byte[]> written = snapshot(first);
        assertTrue(written.size() > 15, written.keySet().toString());

        CampaignReport.rebuild(first);
        assertSame(written, snapshot(first));

        List<CampaignRun> shuffled = new ArrayList<>(runs());
        Collections.shuffle(shuffled, new Random(42));
        Path second = tmp.resolve("second");
        CampaignReport.write(second, meta(), shuffled);
        assertSame(written, snapshot(second));
    }

    @Test
    void inconsistentInputIsRefusedBeforeWritingAnything() {
        Path dir = tmp.resolve("refused");
        List<CampaignRun> runs = runs();
        assertError("runs: empty", () -> CampaignReport.write(dir, meta(), List.of()));
        ReportMeta otherReference = new ReportMeta("c", "", "jsq", List.of(SampleCampaign.KEY), List.of(),
                List.of(Metric.RESPONSE_MEAN), false);
        assertError("referencePolicy: 'jsq' did not run; policies in the runs: [p2c, random]",
                () -> CampaignReport.write(dir, otherReference, runs));
        ReportMeta notSwept = ReportMeta.of("c", "", "p2c", List.of());
        assertError("parameter 'arrivals.utilisation' is not among the swept parameters []",
                () -> CampaignReport.write(dir, notSwept, runs));
        List<CampaignRun> oneValue = runs.stream().filter(r -> !"0.9".equals(r.parameters().get(SampleCampaign.KEY))).toList();
        assertError("analyticCurves: swept parameter 'arrivals.utilisation' has 1 distinct value(s)",
                () -> CampaignReport.write(dir, meta(), oneValue));
        assertFalse(Files.exists(dir), "nothing is written when the input is refused");
        assertThrows(IllegalArgumentException.class, () -> new ReportMeta("c", "", "p2c", List.of("k", "k"),
                List.of(), List.of(Metric.RESPONSE_MEAN), false));
        assertThrows(IllegalArgumentException.class, () -> ReportMeta.of(" ", "", "p2c", List.of()));
    }

    @Test
    void rebuildNamesMissingOrBadInputs() throws IOException {
        Path dir = tmp.resolve("bad");
        Files.createDirectories(dir);
        IOException missing = assertThrows(IOException.class, () -> CampaignReport.rebuild(dir));
        assertContains(missing.getMessage(), "campaign-meta.json: missing");
        Files.writeString(dir.resolve("campaign-meta.json"), "{\"format\":\"loadlab-campaign-meta/1\",\"name\":\"c\","
                + "\"description\":\"\",\"referencePolicy\":\"p2c\",\"sweptParameters\":[],\"metrics\":[\"nope\"]}");
        RunsFile.write(dir.resolve("runs.jsonl"), List.of());
        IOException badMetric = assertThrows(IOException.class, () -> CampaignReport.rebuild(dir));
        assertContains(badMetric.getMessage(), "campaign-meta.json: metric: 'nope' is not known");
        Files.writeString(dir.resolve("campaign-meta.json"), "{\"format\":\"other/2\"}");
        IOException format = assertThrows(IOException.class, () -> CampaignReport.rebuild(dir));
        assertContains(format.getMessage(), "format is other/2, expected \"loadlab-campaign-meta/1\"");
    }

    private static void assertError(String expected, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertContains(e.getMessage(), expected);
    }

    private static void assertContains(String text, String expected) {
        assertTrue(text.contains(expected), () -> "expected to find:\n" + expected + "\n--- in:\n"
                + (text.length() > 3000 ? text.substring(0, 3000) + "…" : text));
    }

    private static void assertSame(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (Map.Entry<String, byte[]> file : expected.entrySet()) {
            assertTrue(Arrays.equals(file.getValue(), actual.get(file.getKey())), file.getKey() + " differs");
        }
    }

    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static List<String> matches(String text, String regex) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.groupCount() > 0 ? m.group(1) : m.group());
        }
        return found;
    }

    private static int countOf(String text, String part) {
        return matches(text, Pattern.quote(part)).size();
    }
}

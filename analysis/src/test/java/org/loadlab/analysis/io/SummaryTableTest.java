package org.loadlab.analysis.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.stats.Summary;

class SummaryTableTest {

    @Test
    void groupsByScenarioThenPolicyInFirstAppearanceOrder() {
        String text = SummaryTable.render(SampleRuns.runs());
        List<String> lines = Arrays.asList(text.split("\n"));
        assertEquals("Scenario: poisson_small", lines.get(0));
        assertTrue(lines.get(1).startsWith("policy"));
        assertTrue(lines.get(1).contains("throughput (req/s)"));
        assertTrue(lines.get(1).contains("mean response (s)"));
        assertTrue(lines.get(1).contains("p99 response (s)"));
        assertTrue(lines.get(1).contains("queries/decision"));
        assertTrue(lines.get(2).startsWith("------"));
        assertTrue(lines.get(3).startsWith("p2c "));
        assertTrue(lines.get(4).startsWith("random "));
        assertEquals("", lines.get(5));
        assertEquals("Scenario: bursty, medium", lines.get(6));
        assertTrue(text.endsWith(SummaryTable.LEGEND + "\n"));
    }

    @Test
    void cellsShowMeanAndConfidenceHalfWidth() {
        String text = SummaryTable.render(SampleRuns.runs());
        String p2c = text.lines().filter(l -> l.startsWith("p2c ")).findFirst().orElseThrow();
        // throughput over seeds: 10/3, 12/3, 14/3 req/s
        Summary throughput = Summary.of(new double[] {10 / 3.0, 4, 14 / 3.0});
        assertTrue(p2c.contains(String.format(java.util.Locale.ROOT, "%.3f ± %.3f",
                throughput.mean(), throughput.ci95())), p2c);
        // mean response 0.10, 0.12, 0.14 s: mean 0.12, half-width 4.303·0.02/√3 = 0.0497
        assertTrue(p2c.contains("0.1200 ± 0.0497"), p2c);
        // rejected 0, 1, 2: counts show one decimal over several runs
        assertTrue(p2c.endsWith("1.0 ± 2.5"), p2c);
        assertTrue(p2c.matches("p2c\\s+3\\s.*"), p2c);
    }

    @Test
    void singleRunShowsValueOnlyAndColumnsAlign() {
        String text = SummaryTable.render(SampleRuns.runs());
        String random = text.lines().filter(l -> l.startsWith("random ")).findFirst().orElseThrow();
        assertTrue(random.contains("0.3000"), random);
        List<String> block = text.lines().limit(5).toList();
        // the "±" of a column sits at the same position in every row of a block
        int plusMinus = block.get(3).indexOf('±');
        assertTrue(plusMinus > 0);
        assertTrue(block.get(4).length() < plusMinus || block.get(4).charAt(plusMinus) == ' ');
        // every column header ends where its cells end (right-aligned)
        assertEquals(block.get(1).length(), block.get(2).length());
    }

    @Test
    void sameRunsGiveSameText() {
        assertEquals(SummaryTable.render(SampleRuns.runs()), SummaryTable.render(SampleRuns.runs()));
        assertEquals("No runs.\n", SummaryTable.render(List.of()));
    }

    /** {@code m} with the given model-specific extras (the ASMF reference model's outputs). */
    private static org.loadlab.analysis.run.RunMetrics withExtras(org.loadlab.analysis.run.RunMetrics m,
                                                                  java.util.Map<String, Double> extras) throws Exception {
        java.lang.reflect.RecordComponent[] parts = org.loadlab.analysis.run.RunMetrics.class.getRecordComponents();
        Object[] values = new Object[parts.length];
        Class<?>[] types = new Class<?>[parts.length];
        for (int i = 0; i < parts.length; i++) {
            types[i] = parts[i].getType();
            values[i] = parts[i].getName().equals("extras") ? new java.util.TreeMap<>(extras) : parts[i].getAccessor().invoke(m);
        }
        return org.loadlab.analysis.run.RunMetrics.class.getDeclaredConstructor(types).newInstance(values);
    }

    @Test
    void theReferenceModelShowsTheSeedsOwnOutputsInItsUnits() throws Exception {
        List<RunResult> runs = List.of(
                new RunResult("asmf-poisson-small", "asmf", 1, withExtras(SampleRuns.metrics(3, 0.1, 2),
                        java.util.Map.of("throughput", 0.95, "avg_wait_time", 14.5, "backlog_area", 12000.0, "max_queue_observed", 250.0))),
                new RunResult("asmf-poisson-small", "asmf", 2, withExtras(SampleRuns.metrics(3, 0.1, 2),
                        java.util.Map.of("throughput", 0.97, "avg_wait_time", 15.5, "backlog_area", 13000.0, "max_queue_observed", 252.0))));
        String text = SummaryTable.render(runs, SummaryTable.Columns.forModel("reference"));
        String header = text.lines().filter(l -> l.startsWith("policy")).findFirst().orElseThrow();
        assertTrue(header.contains("throughput (work units/job)") && header.contains("avg wait (s)")
                && header.contains("backlog area (work units x s)") && header.contains("max queue (work units)")
                && header.contains("rejected (jobs)"), header);
        // The footer cites a page shipped with LoadLab, not the project's internal SPEC.md.
        assertTrue(text.contains("The ASMF seed's time-stepped model (docs/asmf.md)") && !text.contains("SPEC"), text);
        assertTrue(!header.contains("mean response") && !header.contains("p99 response"), "no per-request columns: " + header);
        String row = text.lines().filter(l -> l.startsWith("asmf ")).findFirst().orElseThrow();
        assertTrue(row.contains("0.9600 ±") && row.contains("15.00 ±") && row.contains("12500 ±"), row);
        assertTrue(text.contains("work units"), "the legend explains the units");
        assertEquals(SummaryTable.Columns.MESSAGE, SummaryTable.Columns.forModel("message"));
    }
}

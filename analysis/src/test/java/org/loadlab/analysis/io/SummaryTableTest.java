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
}

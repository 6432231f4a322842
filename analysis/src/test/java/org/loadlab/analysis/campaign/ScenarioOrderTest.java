package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scenario names with numbers (autonomous-100, -500, -1000) are reported in numeric order. */
class ScenarioOrderTest {

    @Test
    void numbersInNamesSortByValue() {
        TreeSet<String> names = new TreeSet<>(ParameterOrder.NAMES);
        names.addAll(List.of("autonomous-1000", "autonomous-chaos-500", "autonomous-500", "autonomous-100", "asmf-poisson-small"));
        assertEquals(List.of("asmf-poisson-small", "autonomous-100", "autonomous-500", "autonomous-1000", "autonomous-chaos-500"),
                List.copyOf(names));
        assertTrue(ParameterOrder.NAMES.compare("x-01", "x-1") != 0, "distinct names stay distinct");
    }

    @Test
    void theReportsSectionsFollowTheNumbers(@TempDir Path tmp) throws Exception {
        List<CampaignRun> runs = new ArrayList<>();
        for (String scenario : List.of("autonomous-1000", "autonomous-500", "autonomous-100")) {
            for (CampaignRun r : SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5"), 2, 50)) {
                runs.add(new CampaignRun(scenario, r.parameters(), r.policy(), r.seed(), r.metrics()));
            }
        }
        ReportMeta meta = new ReportMeta("order", "", "p2c", List.of(SampleCampaign.KEY), List.of(),
                List.of(Metric.RESPONSE_MEAN), false);
        CampaignReport.write(tmp.resolve("c"), meta, runs);
        String md = Files.readString(tmp.resolve("c").resolve(CampaignReport.REPORT_MD));
        int a = md.indexOf("### Scenario autonomous-100\n");
        int b = md.indexOf("### Scenario autonomous-500\n");
        int c = md.indexOf("### Scenario autonomous-1000\n");
        assertTrue(a >= 0 && a < b && b < c, md);
    }
}

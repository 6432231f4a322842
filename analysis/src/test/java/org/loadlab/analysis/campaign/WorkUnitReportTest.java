package org.loadlab.analysis.campaign;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.analysis.run.RunMetrics;

/** A campaign of reference-model runs labels its queue metrics in work units, as simulate does; others in requests. */
class WorkUnitReportTest {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    @TempDir
    Path tmp;

    private static List<CampaignRun> runs(boolean reference) {
        List<CampaignRun> out = new ArrayList<>();
        for (CampaignRun r : SampleCampaign.runs(List.of("p2c", "random"), List.of("0.5"), 3, 50)) {
            RunMetrics m = r.metrics();
            if (reference) {
                Map<String, Object> values = MAPPER.convertValue(m, new TypeReference<Map<String, Object>>() { });
                values.put("extras", Map.of("backlog_area", m.backlogArea(), "throughput", 0.9));
                m = MAPPER.convertValue(values, RunMetrics.class);
            }
            out.add(new CampaignRun(r.scenario(), r.parameters(), r.policy(), r.seed(), m));
        }
        return out;
    }

    private String report(boolean reference) throws Exception {
        ReportMeta meta = new ReportMeta("units", "", "p2c", List.of(SampleCampaign.KEY), List.of(),
                List.of(Metric.BACKLOG_AREA, Metric.MAX_QUEUE), false);
        Path dir = tmp.resolve(reference ? "reference" : "message");
        CampaignReport.write(dir, meta, runs(reference));
        return Files.readString(dir.resolve(CampaignReport.REPORT_MD)) + Files.readString(dir.resolve(SummaryCsv.FILE_NAME));
    }

    @Test
    void referenceRunsAreInWorkUnits() throws Exception {
        String text = report(true);
        assertTrue(text.contains("backlog area (work units·s)") && text.contains("max queue length (work units)"), text);
        assertTrue(text.contains(",backlog_area,work units·s,"), text);
        assertFalse(text.contains("request·s"), text);
    }

    @Test
    void otherRunsAreInRequests() throws Exception {
        String text = report(false);
        assertTrue(text.contains("backlog area (request·s)") && !text.contains("work units"), text);
    }
}

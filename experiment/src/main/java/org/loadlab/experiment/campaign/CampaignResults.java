package org.loadlab.experiment.campaign;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.CampaignReport;
import org.loadlab.analysis.campaign.ReportMeta;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.SeriesPoint;
import org.loadlab.experiment.run.SimulationRunner;

/**
 * Glue between the campaign runner and the analysis module: executes one planned run as a
 * {@link CampaignRun} (serialised as the JSON stored in the journal), and turns the stored
 * results into the campaign's files and report.
 */
public final class CampaignResults {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(new SimpleModule("campaign-series").addSerializer(SeriesPoint.class, new SeriesPointJson()))
            .build();

    private CampaignResults() {
    }

    /**
     * Simulates {@code run} and returns its result as one JSON line.
     *
     * @throws IllegalStateException if the result cannot be serialised
     */
    public static String execute(CampaignPlan.PlannedRun run) {
        RunResult r = SimulationRunner.run(run.spec());
        return encode(new CampaignRun(run.scenario(), run.parameters(), run.variant(), run.spec().seed(), r.metrics()));
    }

    /** One run as a JSON line. */
    public static String encode(CampaignRun run) {
        try {
            return JSON.writeValueAsString(run);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise run " + run.policy() + "/" + run.seed() + ": " + e.getMessage(), e);
        }
    }

    /** A run back from its JSON line. */
    public static CampaignRun decode(String json) {
        try {
            return JSON.readValue(json, CampaignRun.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored run cannot be read back: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code runs.jsonl}, {@code runs.csv} and the report of a finished campaign.
     *
     * @param plan the campaign
     * @param dir its output directory
     * @param runJsons stored results in plan order
     * @throws IOException if a file cannot be written
     */
    public static void report(CampaignPlan plan, Path dir, List<String> runJsons) throws IOException {
        report(plan, dir, runJsons, false);
    }

    /**
     * Like {@link #report(CampaignPlan, Path, List)}, optionally with SVG plots.
     *
     * @param svg whether to write an SVG next to every PNG plot
     */
    public static void report(CampaignPlan plan, Path dir, List<String> runJsons, boolean svg) throws IOException {
        // Decoding a thousand results is a quarter of the report's time: on every core (the
        // mapper is thread-safe; the list keeps plan order).
        List<CampaignRun> runs = runJsons.parallelStream().map(CampaignResults::decode).toList();
        List<String> swept = new ArrayList<>(plan.sweepKeys());
        // The analytic curves are drawn against the first swept key: put utilisation first.
        if (swept.remove(UTILISATION)) {
            swept.add(0, UTILISATION);
        }
        ReportMeta meta = ReportMeta.of(plan.name(), plan.description(), plan.reference(), swept);
        if (!plan.analytic().isEmpty() && UTILISATION.equals(swept.isEmpty() ? null : swept.get(0))) {
            meta = meta.withAnalyticCurves(AnalyticCurves.of(plan.analytic(), plan.runs().get(0).spec().scenario()));
        }
        if (!plan.metrics().isEmpty()) {
            meta = meta.withMetrics(plan.metrics().stream().map(org.loadlab.analysis.campaign.Metric::byColumnName).toList());
        }
        CampaignReport.write(dir, meta, runs, svg);
    }

    /** The sweep key analytic curves are drawn against. */
    static final String UTILISATION = "arrivals.utilisation";
}

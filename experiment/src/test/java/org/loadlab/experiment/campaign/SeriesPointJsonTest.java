package org.loadlab.experiment.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.run.SeriesPoint;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.run.TestScenarios;

/** {@link SeriesPointJson} writes what Jackson's bean serializer writes, so stored results keep their bytes. */
class SeriesPointJsonTest {

    /** The campaign mapper's settings without {@link SeriesPointJson}. */
    private static JsonMapper.Builder campaignSettings() {
        return JsonMapper.builder()
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @Test
    void pointsOfEveryKindOfNumberAreWrittenAsTheBeanSerializerWritesThem() throws Exception {
        ObjectMapper beans = campaignSettings().build();
        ObjectMapper fast = campaignSettings()
                .addModule(new SimpleModule("test").addSerializer(SeriesPoint.class, new SeriesPointJson())).build();
        double[] special = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
            Double.MIN_VALUE, Double.MAX_VALUE, 1e-7, 1e7, 0.1, 123456789.125};
        SplittableRandom random = new SplittableRandom(3);
        List<SeriesPoint> points = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            double a = i < special.length ? special[i] : Math.exp(random.nextDouble(-30, 30));
            double b = special[random.nextInt(special.length)];
            int q = i % 3 == 0 ? Integer.MAX_VALUE - i : random.nextInt(1000);
            points.add(new SeriesPoint(a, random.nextBoolean() ? b : random.nextDouble(), q, random.nextDouble() * 1e4));
        }
        assertEquals(beans.writeValueAsString(points), fast.writeValueAsString(points));
        assertEquals(beans.writerWithDefaultPrettyPrinter().writeValueAsString(points),
                fast.writerWithDefaultPrettyPrinter().writeValueAsString(points));
    }

    @Test
    void aSimulatedRunsLineIsTheBeanSerializersLine() throws Exception {
        var s = TestScenarios.load("quickstart", "duration = 30", "warmup = 5");
        CampaignRun run = new CampaignRun("quickstart", new TreeMap<>(), "p2c", 7,
                SimulationRunner.run(new RunSpec(s, "p2c", 7)).metrics());
        String line = CampaignResults.encode(run);
        assertEquals(campaignSettings().build().writeValueAsString(run), line);
        assertEquals(line, CampaignResults.encode(CampaignResults.decode(line)));
    }
}

package org.loadlab.analysis.campaign;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.SeriesPoint;

/**
 * Small deterministic synthetic campaigns for tests: M/M/1-like response times that grow with
 * utilisation ρ, a per-policy factor, seed noise shared by all policies (common random numbers)
 * plus a little policy-specific noise.
 */
final class SampleCampaign {

    static final String SCENARIO = "poisson_small";
    static final String KEY = "arrivals.utilisation";

    /** Builds metrics from properties, so the helper survives new (optional) RunMetrics fields. */
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private SampleCampaign() {
    }

    /** Policy factor on response times: random is worst, jsq best. */
    static double factor(String policy) {
        return switch (policy) {
            case "random" -> 1.0;
            case "p2c" -> 0.7;
            case "jsq" -> 0.6;
            default -> 0.9;
        };
    }

    /**
     * A run's metrics.
     *
     * @param policy policy name
     * @param rho utilisation
     * @param seed seed
     * @param completions number of response times in the histogram
     */
    static RunMetrics metrics(String policy, double rho, long seed, int completions) {
        Random common = new Random(seed * 7919 + Math.round(rho * 1000));
        Random own = new Random(seed * 31 + policy.hashCode());
        double noise = 1 + 0.08 * common.nextGaussian() + 0.02 * own.nextGaussian();
        double meanResponse = 0.1 / (1 - rho) * factor(policy) * noise;
        Histogram h = new Histogram(3);
        double sum = 0;
        double max = 0;
        Random sizes = new Random(seed * 13 + policy.length());
        for (int i = 0; i < completions; i++) {
            double r = -Math.log(1 - sizes.nextDouble()) * meanResponse;
            sum += r;
            max = Math.max(max, r);
            h.recordValue(Math.round(r * 1e9));
        }
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        String encoded = Base64.getEncoder().encodeToString(bytes);
        List<SeriesPoint> series = new ArrayList<>();
        double queue = rho / (1 - rho) * factor(policy);
        Random q = new Random(seed * 101 + policy.length());
        for (int t = 1; t <= 30; t++) {
            double ramp = Math.min(1, t / 5.0);
            series.add(new SeriesPoint(t, Math.max(0, queue * ramp * (1 + 0.3 * q.nextGaussian())),
                    (int) Math.round(queue * 3), 10 * rho));
        }
        boolean probes = !policy.equals("random");
        int rejected = policy.equals("jsq") ? 0 : (int) Math.round(Math.max(0, 3 * rho + common.nextGaussian()));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requestsArrived", completions + rejected);
        m.put("requestsCompleted", completions);
        m.put("requestsRejected", rejected);
        m.put("requestsLost", 0);
        m.put("durationSeconds", 25.0);
        m.put("throughputRps", 10 * rho * (1 + 0.01 * own.nextGaussian()));
        m.put("responseMean", sum / completions);
        m.put("responseP50", h.getValueAtPercentile(50) / 1e9);
        m.put("responseP95", h.getValueAtPercentile(95) / 1e9);
        m.put("responseP99", h.getValueAtPercentile(99) / 1e9);
        m.put("responseP999", h.getValueAtPercentile(99.9) / 1e9);
        m.put("responseMax", max);
        m.put("waitMean", meanResponse * 0.6);
        m.put("backlogArea", queue * 25 * 4);
        m.put("meanQueueLength", queue);
        m.put("maxQueue", (int) Math.round(queue * 3 + 2 * common.nextDouble()));
        m.put("maxClusterQueue", Math.round(queue * 8));
        m.put("decisions", completions);
        m.put("queriesPerDecision", probes ? 2.0 : 0.0);
        m.put("messagesByKind", probes ? Map.of("Probe", 2L * completions, "Request", (long) completions)
                : Map.of("Request", (long) completions));
        m.put("messagesTotal", probes ? 3L * completions : completions);
        m.put("bytesEstimated", 64L * completions);
        m.put("stateUpdates", 0);
        m.put("nodeRequestShare", List.of(0.25, 0.25, 0.25, 0.25));
        m.put("nodeUtilisation", List.of(rho, rho, rho, rho));
        m.put("nodeMaxQueue", List.of(3, 3, 4, 3));
        m.put("jainFairness", 1.0);
        m.put("series", series);
        m.put("responseHistogram", encoded);
        return MAPPER.convertValue(m, RunMetrics.class);
    }

    /** A copy of {@code m} with another mean response time and rejected count. */
    static RunMetrics with(RunMetrics m, double responseMean, long rejected) {
        Map<String, Object> values = MAPPER.convertValue(m, new TypeReference<Map<String, Object>>() { });
        values.put("responseMean", responseMean);
        values.put("requestsRejected", rejected);
        return MAPPER.convertValue(values, RunMetrics.class);
    }

    /** A run with a given mean response time (other metrics from a small sample run). */
    static CampaignRun run(String scenario, String rho, String policy, long seed, double responseMean) {
        SortedMap<String, String> parameters = new TreeMap<>();
        if (rho != null) {
            parameters.put(KEY, rho);
        }
        java.math.BigDecimal number = rho == null ? null : ParameterOrder.number(rho);
        RunMetrics base = metrics(policy, number == null ? 0.5 : Math.min(0.9, number.doubleValue()), seed, 50);
        return new CampaignRun(scenario, parameters, policy, seed, with(base, responseMean, 0));
    }

    /** One scenario, utilisations, policies, seeds 1..seeds. */
    static List<CampaignRun> runs(List<String> policies, List<String> utilisations, int seeds, int completions) {
        List<CampaignRun> runs = new ArrayList<>();
        for (String rho : utilisations) {
            for (String policy : policies) {
                for (long seed = 1; seed <= seeds; seed++) {
                    SortedMap<String, String> parameters = new TreeMap<>();
                    parameters.put(KEY, rho);
                    runs.add(new CampaignRun(SCENARIO, parameters, policy, seed,
                            metrics(policy, Double.parseDouble(rho), seed, completions)));
                }
            }
        }
        return runs;
    }
}

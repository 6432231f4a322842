package org.loadlab.workload.scenario;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The built-in scenarios and traces shipped inside the jar (classpath resources).
 */
public final class BuiltIns {
    private BuiltIns() {
    }

    /** Built-in scenario names in listing order, mapped to their resource. */
    public static final Map<String, String> SCENARIOS = new LinkedHashMap<>();
    /** Built-in trace names mapped to their resource. */
    public static final Map<String, String> TRACES = new LinkedHashMap<>();

    static {
        for (String s : new String[] {"quickstart", "azure-llm-code", "azure-llm-conv", "mm1-random"}) {
            SCENARIOS.put(s, "scenarios/" + s + ".conf");
        }
        for (String s : new String[] {"asmf-poisson-small", "asmf-poisson-medium", "asmf-poisson-large", "asmf-bursty-medium",
                "asmf-zipf-skew-medium", "asmf-failure-medium", "asmf-spike-medium", "asmf-degraded-medium"}) {
            SCENARIOS.put(s, "scenarios/" + s + ".conf");
        }
        SCENARIOS.put("sticky-lazy-seed", "scenarios/sticky-lazy-seed.conf");
        SCENARIOS.put("load-sharing", "scenarios/load-sharing.conf");
        TRACES.put("azure-llm-code", "traces/azure-llm-2023/AzureLLMInferenceTrace_code.csv");
        TRACES.put("azure-llm-conv", "traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv");
    }
}

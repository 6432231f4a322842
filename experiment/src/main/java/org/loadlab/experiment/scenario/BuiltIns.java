package org.loadlab.experiment.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The built-in scenarios, campaigns and traces shipped inside the jar (classpath
 * resources). Each layer that ships some (this one, the studies) declares them in a
 * {@link Source} registered with {@link ServiceLoader}; the maps merge every source on the
 * class path in {@link Source#order()}.
 */
public final class BuiltIns {
    private BuiltIns() {
    }

    /** One layer's built-ins. */
    public interface Source {
        /** Listing position of this source's entries (smaller first). */
        int order();

        /** Scenario names in listing order, mapped to their resource. */
        Map<String, String> scenarios();

        /** Campaign names in listing order, mapped to their resource. */
        Map<String, String> campaigns();
    }

    /** Built-in scenario names in listing order, mapped to their resource. */
    public static final Map<String, String> SCENARIOS;
    /** Built-in campaign names in listing order, mapped to their resource. */
    public static final Map<String, String> CAMPAIGNS;
    /** Built-in trace names mapped to their resource. */
    public static final Map<String, String> TRACES;

    static {
        List<Source> sources = new ArrayList<>();
        ServiceLoader.load(Source.class, BuiltIns.class.getClassLoader()).forEach(sources::add);
        sources.sort(Comparator.comparingInt(Source::order));
        Map<String, String> scenarios = new LinkedHashMap<>();
        Map<String, String> campaigns = new LinkedHashMap<>();
        for (Source s : sources) {
            scenarios.putAll(s.scenarios());
            campaigns.putAll(s.campaigns());
        }
        SCENARIOS = Collections.unmodifiableMap(scenarios);
        CAMPAIGNS = Collections.unmodifiableMap(campaigns);
        Map<String, String> traces = new LinkedHashMap<>();
        traces.put("azure-llm-code", "traces/azure-llm-2023/AzureLLMInferenceTrace_code.csv");
        traces.put("azure-llm-conv", "traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv");
        TRACES = Collections.unmodifiableMap(traces);
    }

    /** Name → {@code <folder>/<name>.conf}, in the order given. */
    public static Map<String, String> resources(String folder, String... names) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String n : names) {
            m.put(n, folder + "/" + n + ".conf");
        }
        return m;
    }

    /** The general-purpose built-ins of this layer (the studies add their own). */
    public static final class Core implements Source {
        @Override
        public int order() {
            return 0;
        }

        @Override
        public Map<String, String> scenarios() {
            return resources("scenarios", "quickstart", "azure-llm-code", "azure-llm-conv", "mm1-random");
        }

        @Override
        public Map<String, String> campaigns() {
            return resources("campaigns", "policy-sweep");
        }
    }
}

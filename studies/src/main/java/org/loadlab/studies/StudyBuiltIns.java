package org.loadlab.studies;

import java.util.LinkedHashMap;
import java.util.Map;
import org.loadlab.experiment.scenario.BuiltIns;

/**
 * The scenarios and campaigns of the studies: ASMF (seed 000, docs/asmf.md), Sticky-Lazy
 * (seed 001, docs/sticky-lazy.md), peer load sharing (seed 002, docs/load-sharing.md), the
 * autonomous balancer (seed 003, docs/autonomous.md) and the production-balancer studies
 * (issue 14, docs/production.md), listed after the general built-ins.
 */
public final class StudyBuiltIns implements BuiltIns.Source {
    @Override
    public int order() {
        return 10;
    }

    @Override
    public Map<String, String> scenarios() {
        Map<String, String> m = new LinkedHashMap<>(BuiltIns.resources("scenarios", "asmf-poisson-small", "asmf-poisson-medium",
                "asmf-poisson-large", "asmf-bursty-medium", "asmf-zipf-skew-medium", "asmf-failure-medium",
                "asmf-spike-medium", "asmf-degraded-medium"));
        m.putAll(BuiltIns.resources("scenarios", "sticky-lazy-seed", "load-sharing", "autonomous", "autonomous-chaos"));
        m.putAll(BuiltIns.resources("scenarios", "herding", "cold-start", "slow-host", "retry-storm", "scale-event"));
        return m;
    }

    @Override
    public Map<String, String> campaigns() {
        return BuiltIns.resources("campaigns", "asmf-rigorous", "asmf-final", "asmf-robust", "sticky-lazy",
                "sticky-lazy-threshold", "load-sharing", "autonomous-benchmark", "herding", "cold-start", "slow-host", "retry-storm", "scale-event");
    }
}

package org.loadlab.node.profile;

import java.util.List;
import java.util.Optional;

/**
 * One backend profile of seed 003's node model: how fast it answers, how many concurrent
 * requests it takes before its CPU saturates, and when it starts failing.
 *
 * @param name the profile's name as scenarios spell it
 * @param baseLatencyMs latency of an idle node, ms, ≥ 0
 * @param capacity concurrent requests at which the CPU target reaches 100 % / multiplier, &gt; 0
 * @param cpuMultiplier how hard each request works the CPU, &gt; 0
 * @param errorCpuThreshold CPU in percent above which requests fail (HTTP 500) with probability
 *     min(0.85, (cpu − threshold)/(100 − threshold)), in (0, 100)
 * @param jitterMinMs lower end of the uniform jitter, ms, ≥ 0
 * @param jitterMaxMs upper end of the uniform jitter, ms, ≥ jitterMinMs
 *     <p>Source: seed 003 (backend specs, latency and error model), SPEC.md §6.
 */
public record NodeProfile(String name, double baseLatencyMs, double capacity, double cpuMultiplier,
                          double errorCpuThreshold, double jitterMinMs, double jitterMaxMs) {
    /** Validates. @throws IllegalArgumentException naming the field, the value and what is allowed */
    public NodeProfile {
        check(baseLatencyMs >= 0 && baseLatencyMs < 1e7, "base-latency-ms", baseLatencyMs, ">= 0 ms");
        check(capacity > 0 && capacity < 1e9, "capacity", capacity, "> 0 concurrent requests");
        check(cpuMultiplier > 0 && cpuMultiplier < 1e6, "cpu-multiplier", cpuMultiplier, "> 0");
        check(errorCpuThreshold > 0 && errorCpuThreshold < 100, "error-cpu-threshold", errorCpuThreshold,
                "a CPU percentage in (0, 100)");
        check(jitterMinMs >= 0 && jitterMaxMs >= jitterMinMs && jitterMaxMs < 1e7, "jitter-ms", jitterMinMs + ".." + jitterMaxMs,
                "0 <= min <= max");
    }

    private void check(boolean ok, String field, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("profile " + name + ": " + field + " = " + value + ": allowed " + allowed);
        }
    }

    /** High-Compute: 10 ms, capacity 150, CPU × 0.5, errors above 95 %, jitter 0–2 ms. */
    public static final NodeProfile HIGH_COMPUTE = new NodeProfile("high-compute", 10, 150, 0.5, 95, 0, 2);
    /** Standard-Med: 25 ms, capacity 80, CPU × 0.8, errors above 95 %, jitter 0–4 ms. */
    public static final NodeProfile STANDARD_MED = new NodeProfile("standard-med", 25, 80, 0.8, 95, 0, 4);
    /** Standard-Slow: 40 ms, capacity 60, CPU × 1.1, errors above 95 %, jitter 0–6 ms. */
    public static final NodeProfile STANDARD_SLOW = new NodeProfile("standard-slow", 40, 60, 1.1, 95, 0, 6);
    /** Unstable-Jittery: 20 ms, capacity 50, CPU × 1.2, errors above 70 %, jitter 2–25 ms. */
    public static final NodeProfile UNSTABLE_JITTERY = new NodeProfile("unstable-jittery", 20, 50, 1.2, 70, 2, 25);
    /** Slow-Legacy: 80 ms, capacity 20, CPU × 2.5, errors above 90 %, jitter 5–15 ms. */
    public static final NodeProfile SLOW_LEGACY = new NodeProfile("slow-legacy", 80, 20, 2.5, 90, 5, 15);
    /** The autoscaler's nodes: 15 ms, capacity 100, CPU × 0.6, errors above 95 %, jitter 0–3 ms. */
    public static final NodeProfile AUTOSCALED = new NodeProfile("autoscaled", 15, 100, 0.6, 95, 0, 3);

    /** The seed's five backends in node order, then the autoscaled profile. */
    public static final List<NodeProfile> BUILT_IN = List.of(HIGH_COMPUTE, STANDARD_MED, STANDARD_SLOW, UNSTABLE_JITTERY,
            SLOW_LEGACY, AUTOSCALED);

    /** The built-in profile named {@code name}. */
    public static Optional<NodeProfile> find(String name) {
        return BUILT_IN.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The built-in names, comma-separated (for error messages). */
    public static String names() {
        return String.join(", ", BUILT_IN.stream().map(NodeProfile::name).toList());
    }
}

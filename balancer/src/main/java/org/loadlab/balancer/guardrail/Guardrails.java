package org.loadlab.balancer.guardrail;

/**
 * The balancer's guardrail filters (scenario block {@code guardrails}), the same in every
 * mode. When enabled, a node is masked — taken out of the sampling pool and out of the
 * candidates of a decision — while
 * <ul>
 *   <li>its CPU is above {@code cpuMaskAbove} (seed 003: 85 %);</li>
 *   <li>it missed {@code offlineAfterMissedProbes} probes in a row, or nothing was heard from
 *       it (report or heartbeat) for {@code offlineAfter} seconds where it is expected to
 *       report (seed 003: offline after 2 s without a heartbeat);</li>
 *   <li>its last report is older than {@code staleAfter} seconds (cached model).</li>
 * </ul>
 * At most ⌊{@code maxEjectionShare} × |allowed|⌋ nodes are masked at once (Envoy's
 * {@code max_ejection_percent}; with 3 nodes and 0.5, one). When fewer than
 * {@code panicThreshold} of a decision's candidates survive the filters, the decision fails
 * open and chooses among all of them (Envoy's {@code healthy_panic_threshold}); the pool
 * likewise keeps its masked nodes while fewer than that share of it is healthy. When every
 * candidate of a decision is gone (no reply, down, removed) the request is decided again
 * with a new sample, at most {@code redecideAttempts} times, before it is rejected.
 *
 * @param enabled false: no masks, no panic, no re-decisions (membership still applies)
 * @param cpuMaskAbove CPU utilisation in [0, 1] above which a node is masked (1 never masks)
 * @param offlineAfterMissedProbes consecutive unanswered probes that make a node offline, ≥ 0 (0: off)
 * @param offlineAfter seconds of silence (no report or heartbeat) that make a node offline, ≥ 0 (0: off)
 * @param staleAfter seconds after which a cached report is stale, ≥ 0 (0: off)
 * @param panicThreshold share of candidates that must survive, in [0, 1]
 * @param maxEjectionShare largest share of the allowed nodes masked at once, in [0, 1]
 * @param redecideAttempts new samples tried when every candidate is gone, ≥ 0
 *     <p>Source: seed 003 (action masking, offline detection, fail open), Envoy (panic
 *     threshold, outlier ejection cap), DESIGN.md ("guardrails in the core").
 */
public record Guardrails(boolean enabled, double cpuMaskAbove, int offlineAfterMissedProbes, double offlineAfter,
                         double staleAfter, double panicThreshold, double maxEjectionShare, int redecideAttempts) {
    /** Guardrails off (the default), with the documented defaults for when they are turned on. */
    public static final Guardrails OFF = new Guardrails(false, 0.85, 2, 2.0, 2.0, 0.5, 0.5, 3);

    /** Validates. @throws IllegalArgumentException naming the field, the value and what is allowed */
    public Guardrails {
        check(cpuMaskAbove >= 0 && cpuMaskAbove <= 1, "cpu-mask-above", cpuMaskAbove, "a CPU share in [0, 1]");
        check(offlineAfterMissedProbes >= 0, "offline-after-missed-probes", offlineAfterMissedProbes, ">= 0 (0: off)");
        check(offlineAfter >= 0, "offline-after", offlineAfter, ">= 0 s (0: off)");
        check(staleAfter >= 0, "stale-after", staleAfter, ">= 0 s (0: off)");
        check(panicThreshold >= 0 && panicThreshold <= 1, "panic-threshold", panicThreshold, "a share in [0, 1]");
        check(maxEjectionShare >= 0 && maxEjectionShare <= 1, "max-ejection-share", maxEjectionShare, "a share in [0, 1]");
        check(redecideAttempts >= 0, "redecide-attempts", redecideAttempts, ">= 0");
    }

    private static void check(boolean ok, String key, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("guardrails." + key + " = " + value + ": allowed " + allowed);
        }
    }

    /** The same settings, enabled. */
    public Guardrails on() {
        return new Guardrails(true, cpuMaskAbove, offlineAfterMissedProbes, offlineAfter, staleAfter, panicThreshold,
                maxEjectionShare, redecideAttempts);
    }

    /** Most nodes of a pool of {@code allowed} that may be masked at once: ⌊share × allowed⌋. */
    public int ejectionCap(int allowed) {
        return (int) Math.floor(maxEjectionShare * allowed + 1e-9);
    }
}

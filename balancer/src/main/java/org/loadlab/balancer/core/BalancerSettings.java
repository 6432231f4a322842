package org.loadlab.balancer.core;

import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.balancer.guardrail.OutlierDetection;
import org.loadlab.balancer.guardrail.SlowStart;
import org.loadlab.balancer.retry.RetrySettings;

/**
 * Everything a balancer does around its policy, from one scenario: refusals, guardrail
 * filters, slow start, passive outlier ejection and retries. The same settings in every mode.
 *
 * @param rejection what to do with a request the policy refuses
 * @param guardrails the guardrail filters (block {@code guardrails})
 * @param slowStart slow start of new and recovered nodes (block {@code slow-start})
 * @param outlierDetection passive outlier ejection (block {@code outlier-detection})
 * @param retry retries, per-try timeout and retry budget (block {@code retry})
 */
public record BalancerSettings(RejectionSettings rejection, Guardrails guardrails, SlowStart slowStart,
                               OutlierDetection outlierDetection, RetrySettings retry) {
    /** Reject at once; no guardrails, slow start, outlier ejection or retries. */
    public static final BalancerSettings DEFAULT = new BalancerSettings(RejectionSettings.REJECT, Guardrails.OFF,
            SlowStart.OFF, OutlierDetection.OFF, RetrySettings.OFF);

    /** Validates. @throws IllegalArgumentException if a part is missing */
    public BalancerSettings {
        if (rejection == null || guardrails == null || slowStart == null || outlierDetection == null || retry == null) {
            throw new IllegalArgumentException("balancer settings need every part (rejection, guardrails, slow start,"
                    + " outlier detection, retry)");
        }
    }

    /** These settings with {@code rejection} and {@code guardrails} instead. */
    public static BalancerSettings of(RejectionSettings rejection, Guardrails guardrails) {
        return new BalancerSettings(rejection, guardrails, SlowStart.OFF, OutlierDetection.OFF, RetrySettings.OFF);
    }

    /** These settings with slow start {@code s}. */
    public BalancerSettings withSlowStart(SlowStart s) {
        return new BalancerSettings(rejection, guardrails, s, outlierDetection, retry);
    }

    /** These settings with outlier detection {@code o}. */
    public BalancerSettings withOutlierDetection(OutlierDetection o) {
        return new BalancerSettings(rejection, guardrails, slowStart, o, retry);
    }

    /** These settings with retries {@code r}. */
    public BalancerSettings withRetry(RetrySettings r) {
        return new BalancerSettings(rejection, guardrails, slowStart, outlierDetection, r);
    }

    /** These settings with guardrails {@code g}. */
    public BalancerSettings withGuardrails(Guardrails g) {
        return new BalancerSettings(rejection, g, slowStart, outlierDetection, retry);
    }
}

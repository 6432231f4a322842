package org.loadlab.shell.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The gateway's mask-reason label: a guardrail's explanation (which carries its numbers) becomes one of a few label
 * values, so the mask gauge has one series per node and reason rather than one per explanation.
 */
class MaskReasonTest {
    @Test
    void explanationsOfEveryGuardrailMapToTheirReason() {
        assertEquals("none", GatewayMetrics.maskReason(null));
        assertEquals("high_cpu", GatewayMetrics.maskReason("cpu 0.97 > 0.85"));
        assertEquals("offline", GatewayMetrics.maskReason("offline: silent for 2.10 s"));
        assertEquals("offline", GatewayMetrics.maskReason("offline: 3 probes unanswered"));
        assertEquals("outlier", GatewayMetrics.maskReason("outlier: 5 consecutive failures"));
        assertEquals("other", GatewayMetrics.maskReason("drained"));
    }
}

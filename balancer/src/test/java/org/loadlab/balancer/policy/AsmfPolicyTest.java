package org.loadlab.balancer.policy;

import org.loadlab.balancer.pipeline.Picker;

import org.loadlab.balancer.pipeline.PipelinePolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.loadlab.balancer.policy.Snapshots.down;
import static org.loadlab.balancer.policy.Snapshots.full;
import static org.loadlab.balancer.policy.Snapshots.set;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.node.protocol.LoadSnapshot;

/** ASMF score, threshold and ablations on hand-computed examples (seed 000 defaults). */
class AsmfPolicyTest {
    private static final double EPS = 1e-12;
    private final SplittableRandom rng = new SplittableRandom(3);

    private static PipelinePolicy policy(String name) {
        return PolicyCatalog.create(name, PolicyParameters.DEFAULTS, new double[0]);
    }

    // A: μ 15, q 2, (.5,.4,.3,.2), C 1.2 -> L = .2+.1+.06+.03 = .39, S = 15/(3*1.39), S' = S*1.2
    private static final LoadSnapshot A = full(0, 15, 2, 0.5, 0.4, 0.3, 0.2, 1.2);
    // B: μ 12, q 0, all .9, C .45 -> L = .9, S = 12/1.9, S' = S*.45
    private static final LoadSnapshot B = full(1, 12, 0, 0.9, 0.9, 0.9, 0.9, 0.45);
    // E: μ 10, q 1, all 1.0, C 1 -> L = 1, S = 10/(2*2) = 2.5; with L = 0: 5
    private static final LoadSnapshot E = full(2, 10, 1, 1, 1, 1, 1, 1.0);
    // F: μ 3, q 0, all 0, C 1 -> S = 3 either way
    private static final LoadSnapshot F = full(3, 3, 0, 0, 0, 0, 0, 1.0);

    @Test
    void scoreWithDefaultWeights() {
        PipelinePolicy p = policy("asmf");
        assertEquals(15.0 / (3 * 1.39) * 1.2, p.score(A, 0), EPS);
        assertEquals(4.316546762589928, p.score(A, 0), 1e-9);
        assertEquals(12.0 / 1.9 * 0.45, p.score(B, 0), EPS);
        assertEquals(2.5, p.score(E, 0), EPS);
        assertEquals(3.0, p.score(F, 0), EPS);
        assertEquals(2, p.reads(10));
        assertEquals(1, p.reads(1));
    }

    @Test
    void picksLargestCorrectedScore() {
        PipelinePolicy p = policy("asmf");
        for (int i = 0; i < 20; i++) {
            assertEquals(0, p.choose(set(A, B), rng)); // 4.32 > 2.84
            assertEquals(1, p.choose(set(E, F), rng)); // 3 > 2.5
        }
    }

    @Test
    void noFeedbackIgnoresCorrection() {
        PipelinePolicy p = policy("asmf-no-feedback");
        assertEquals("asmf-no-feedback", p.name());
        assertEquals(15.0 / (3 * 1.39), p.score(A, 0), EPS);
        assertEquals(12.0 / 1.9, p.score(B, 0), EPS);
        assertEquals(1, p.choose(set(A, B), rng)); // 6.32 > 3.60
        assertEquals(2, p.reads(10));
    }

    @Test
    void noMultiResourceIgnoresResourceLoad() {
        PipelinePolicy p = policy("asmf-no-multiresource");
        assertEquals(15.0 / 3 * 1.2, p.score(A, 0), EPS);
        assertEquals(5.0, p.score(E, 0), EPS);
        assertEquals(0, p.choose(set(E, F), rng)); // 5 > 3
        assertEquals(2, p.reads(10));
    }

    @Test
    void noSamplingReadsAllAllowedNodes() {
        PipelinePolicy p = policy("asmf-no-sampling");
        assertEquals(10, p.reads(10));
        assertEquals(37, p.reads(37));
        assertEquals(p.score(A, 0), policy("asmf").score(A, 0), EPS);
    }

    @Test
    void rejectsBelowTau() {
        PipelinePolicy p = policy("asmf");
        // μ 1, q 9, all .5 -> L = .5, S = 1/(10*1.5) = 0.0667 < τ 0.12
        LoadSnapshot weak = full(0, 1, 9, 0.5, 0.5, 0.5, 0.5, 1.0);
        assertEquals(1.0 / 15, p.score(weak, 0), EPS);
        assertEquals(Picker.REJECT, p.choose(set(weak, weak), rng));
        // Exactly τ is not below τ.
        LoadSnapshot atTau = full(1, 0.12, 0, 0, 0, 0, 0, 1.0);
        assertEquals(1, p.choose(set(weak, atTau), rng));
        // Feedback can push a node under τ: 0.2 * 0.5 = 0.1.
        LoadSnapshot corrected = full(2, 0.2, 0, 0, 0, 0, 0, 0.5);
        assertEquals(Picker.REJECT, p.choose(set(corrected), rng));
        assertEquals(0, policy("asmf-no-feedback").choose(set(corrected), rng));
        // Unknown or failed nodes are skipped; none usable rejects.
        assertEquals(Picker.REJECT, p.choose(set(null, down(1, 0)), rng));
        assertEquals(1, p.choose(set(null, A, down(2, 0)), rng));
    }

    @Test
    void customWeightsAndTau() {
        PipelinePolicy p = PolicyCatalog.create("asmf", new PolicyParameters(2, new AsmfSettings(3, 1, 0, 0, 0, 0.0, true, true, true)), new double[64]);
        assertEquals(3, p.reads(10));
        // Only CPU counts: L = .5 -> 15/(3*1.5)*1.2 = 4
        assertEquals(4.0, p.score(A, 0), EPS);
    }
}

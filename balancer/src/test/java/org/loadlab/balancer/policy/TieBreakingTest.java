package org.loadlab.balancer.policy;

import org.loadlab.balancer.pipeline.PipelinePolicy;

import org.loadlab.balancer.decision.Candidates;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.node.protocol.LoadSnapshot;

/** SPEC §2: ties are broken uniformly at random, never by index. */
class TieBreakingTest {
    private static final int N = 5;
    private static final int TRIALS = 50_000;

    private static void assertUniform(PipelinePolicy p, Candidates cs) {
        SplittableRandom rng = new SplittableRandom(77);
        int[] counts = new int[N];
        for (int i = 0; i < TRIALS; i++) {
            counts[p.choose(cs, rng)]++;
        }
        for (int c : counts) {
            double share = (double) c / TRIALS;
            assertTrue(share > 0.18 && share < 0.22,
                    p.name() + " tie shares not uniform: " + java.util.Arrays.toString(counts));
        }
    }

    @Test
    void loadAwarePoliciesBreakTiesUniformly() {
        LoadSnapshot[] loads = new LoadSnapshot[N];
        for (int i = 0; i < N; i++) {
            loads[i] = Snapshots.full(i, 10, 2, 0.5, 0.5, 0.5, 0.5, 1.0);
        }
        Candidates cs = new Candidates(new int[N]).reset(Snapshots.iota(N), loads, null, N);
        double[] rates = {10, 10, 10, 10, 10};
        for (String name : List.of("least-queue", "p2c", "power-of-k", "gmsr", "asmf", "asmf-no-feedback",
                "asmf-no-sampling", "asmf-no-multiresource", "least-connections", "random")) {
            assertUniform(PolicyCatalog.create(name, PolicyParameters.DEFAULTS, rates), cs);
        }
    }

    @Test
    void tiesAmongTheBestOnlyExcludeWorse() {
        // Positions 1 and 3 tie for the shortest queue; 0, 2, 4 are longer.
        LoadSnapshot[] loads = {Snapshots.q(0, 4), Snapshots.q(1, 1), Snapshots.q(2, 2), Snapshots.q(3, 1),
                Snapshots.q(4, 9)};
        Candidates cs = new Candidates(new int[N]).reset(Snapshots.iota(N), loads, null, N);
        PipelinePolicy p = PolicyCatalog.create("least-queue", PolicyParameters.DEFAULTS, new double[64]);
        SplittableRandom rng = new SplittableRandom(1);
        int[] counts = new int[N];
        for (int i = 0; i < 20_000; i++) {
            counts[p.choose(cs, rng)]++;
        }
        assertTrue(counts[0] == 0 && counts[2] == 0 && counts[4] == 0);
        assertTrue(counts[1] > 9_400 && counts[3] > 9_400, java.util.Arrays.toString(counts));
    }
}

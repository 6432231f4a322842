package org.loadlab.balancer.policy;

import org.loadlab.balancer.pipeline.PipelinePolicy;

import org.loadlab.balancer.decision.Candidates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** random, round-robin and weighted-round-robin (policies that read no load). */
class BlindPoliciesTest {
    private static Candidates blind(int[] nodes) {
        return new Candidates(new int[16]).reset(nodes, null, null, nodes.length);
    }

    @Test
    void randomIsUniformChiSquare() {
        int n = 10;
        int trials = 100_000;
        PipelinePolicy p = PolicyCatalog.create("random", PolicyParameters.DEFAULTS, new double[64]);
        assertEquals(0, p.reads(n));
        Candidates cs = blind(Snapshots.iota(n));
        SplittableRandom rng = new SplittableRandom(2024);
        int[] counts = new int[n];
        for (int i = 0; i < trials; i++) {
            int c = p.choose(cs, rng);
            assertTrue(c >= 0 && c < n);
            counts[c]++;
        }
        double expected = (double) trials / n;
        double chi2 = 0;
        for (int c : counts) {
            chi2 += (c - expected) * (c - expected) / expected;
        }
        // 9 degrees of freedom: P(chi2 > 27.88) = 0.001.
        assertTrue(chi2 < 27.88, "chi-square " + chi2);
    }

    @Test
    void roundRobinCyclesFromARandomStart() {
        int n = 5;
        int[] firstCounts = new int[n];
        for (long seed = 0; seed < 500; seed++) {
            PipelinePolicy p = PolicyCatalog.create("round-robin", PolicyParameters.DEFAULTS, new double[64]);
            assertEquals(0, p.reads(n));
            Candidates cs = blind(Snapshots.iota(n));
            SplittableRandom rng = new SplittableRandom(seed);
            int first = p.choose(cs, rng);
            firstCounts[first]++;
            int prev = first;
            for (int i = 0; i < 3 * n; i++) {
                int c = p.choose(cs, rng);
                assertEquals((prev + 1) % n, c);
                prev = c;
            }
        }
        for (int c : firstCounts) {
            assertTrue(c > 60 && c < 140, "start offsets not uniform: " + java.util.Arrays.toString(firstCounts));
        }
    }

    @Test
    void smoothWeightedRoundRobinFiveOneOneIsTheNginxSequence() {
        double[] weights = {5, 1, 1};
        PipelinePolicy p = PolicyCatalog.create("weighted-round-robin", PolicyParameters.DEFAULTS, weights);
        assertEquals(0, p.reads(3));
        Candidates cs = blind(new int[] {0, 1, 2});
        SplittableRandom rng = new SplittableRandom(1);
        int cycles = 1000;
        int[] seq = new int[7 * cycles];
        for (int i = 0; i < seq.length; i++) {
            seq[i] = p.choose(cs, rng);
        }
        boolean bFirstSeen = false;
        boolean cFirstSeen = false;
        for (int c = 0; c < cycles; c++) {
            int[] counts = new int[3];
            for (int i = 0; i < 7; i++) {
                counts[seq[7 * c + i]]++;
            }
            assertEquals(5, counts[0], "cycle " + c);
            assertEquals(1, counts[1]);
            assertEquals(1, counts[2]);
            // nginx: a a x a y a a with {x, y} = {b, c} (the b/c tie at step 3 is broken at random).
            for (int i : new int[] {0, 1, 3, 5, 6}) {
                assertEquals(0, seq[7 * c + i], "cycle " + c + " position " + i);
            }
            bFirstSeen |= seq[7 * c + 2] == 1;
            cFirstSeen |= seq[7 * c + 2] == 2;
        }
        assertTrue(bFirstSeen && cFirstSeen, "the b/c tie must be broken at random, not by index");
        // Interleaved, not bursty: the heavy node never runs 5 in a row (the cyclic pattern gives at most 4,
        // 'a a' closing one cycle followed by 'a a' opening the next).
        int run = 0;
        int maxRun = 0;
        for (int s : seq) {
            run = s == 0 ? run + 1 : 0;
            maxRun = Math.max(maxRun, run);
        }
        assertEquals(4, maxRun);
    }

    @Test
    void weightedRoundRobinUsesWeightsByNodeIndexAndExactShares() {
        double[] weightByNode = {1, 100, 3};
        PipelinePolicy p = PolicyCatalog.create("weighted-round-robin", PolicyParameters.DEFAULTS, weightByNode);
        Candidates cs = blind(new int[] {2, 0}); // allowed set without node 1
        SplittableRandom rng = new SplittableRandom(9);
        int[] counts = new int[2];
        for (int i = 0; i < 400; i++) {
            counts[p.choose(cs, rng)]++;
        }
        assertEquals(300, counts[0]);
        assertEquals(100, counts[1]);
    }

    @Test
    void equalWeightsGiveAPermutationPerCycleWithRandomFirst() {
        int[] first = new int[3];
        for (long seed = 0; seed < 300; seed++) {
            PipelinePolicy p = PolicyCatalog.create("weighted-round-robin", PolicyParameters.DEFAULTS, new double[] {2, 2, 2});
            Candidates cs = blind(new int[] {0, 1, 2});
            SplittableRandom rng = new SplittableRandom(seed);
            for (int c = 0; c < 4; c++) {
                boolean[] seen = new boolean[3];
                for (int i = 0; i < 3; i++) {
                    int x = p.choose(cs, rng);
                    assertTrue(!seen[x], "a node twice in one cycle");
                    seen[x] = true;
                    if (c == 0 && i == 0) {
                        first[x]++;
                    }
                }
            }
        }
        for (int f : first) {
            assertTrue(f > 60, "first pick not random: " + java.util.Arrays.toString(first));
        }
    }
}

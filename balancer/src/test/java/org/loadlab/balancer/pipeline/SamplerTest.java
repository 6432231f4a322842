package org.loadlab.balancer.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.policy.AsmfSettings;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.balancer.policy.ProductionParameters;
import org.loadlab.balancer.policy.StickyCache;

/** Power-of-k's two ways of drawing: k distinct nodes (default) or k i.i.d. draws with replacement. */
class SamplerTest {

    /** A pool of {@code size} nodes 0..size-1 drawn uniformly from a seeded stream. */
    private static DecisionContext pool(int size, long seed) {
        RandomGenerator rng = new SplittableRandom(seed);
        return new DecisionContext() {
            public long requestId() { return 0; }
            public double now() { return 0; }
            public RandomGenerator random() { return rng; }
            public int allowedCount() { return size; }
            public int poolSize() { return size; }
            public int sampleAllowed() { return size == 0 ? -1 : rng.nextInt(size); }
            public int sampleAllowedExcept(int node) { throw new UnsupportedOperationException(); }
            public int[] sample(int k) { throw new UnsupportedOperationException(); }
            public Candidates pool() { throw new UnsupportedOperationException(); }
            public int inFlight(int node) { return 0; }
            public boolean unknownLoadRoutable() { return false; }
            public void count(String name, long delta) { }
            public int attempt() { return 0; }
            public boolean excluded(int node) { return false; }
            public long key() { return 0; }
            public Candidates draw(int k) { throw new UnsupportedOperationException(); }
            public boolean routable(int node) { return node >= 0 && node < size; }
            public double weight(int node) { return 1; }
            public boolean weightsUnequal() { return false; }
            public void probe(int[] nodes) { }
        };
    }

    @Test
    void withReplacementDrawsIidAndReadsARepeatedNodeOnce() {
        DecisionContext c = pool(2, 7);
        int single = 0;
        int trials = 20_000;
        for (int i = 0; i < trials; i++) {
            int[] s = c.sampleWithReplacement(2);
            assertTrue(s.length == 1 || s.length == 2 && s[0] != s[1], "distinct nodes, each listed once");
            if (s.length == 1) {
                single++;
            }
        }
        // Two i.i.d. draws from 2 nodes coincide with probability 1/2 (sd of the share 0.0035).
        assertEquals(0.5, single / (double) trials, 0.015);
        assertArrayEquals(new int[0], pool(0, 1).sampleWithReplacement(3), "an empty pool gives no node");
        // k larger than the pool: still k draws, never the whole pool by construction.
        int[] many = pool(3, 9).sampleWithReplacement(10);
        assertTrue(many.length >= 1 && many.length <= 3);
    }

    @Test
    void samplerCountsDrawsAndValidates() {
        Sampler r = Sampler.withReplacement(3);
        assertTrue(r.withReplacement());
        assertEquals(3, r.reads(2), "three draws even from a pool of two");
        assertEquals(0, r.reads(0));
        assertFalse(Sampler.distinct(3).withReplacement());
        assertEquals(2, Sampler.distinct(3).reads(2));
        assertThrows(IllegalArgumentException.class, () -> Sampler.withReplacement(0));
        assertThrows(IllegalArgumentException.class, () -> new Sampler(Sampler.ALL, true, true));
    }

    @Test
    void powerOfKTakesTheSamplingFromItsParameters() {
        PolicyParameters distinct = new PolicyParameters(2, AsmfSettings.DEFAULT, 3);
        PolicyParameters iid = new PolicyParameters(2, AsmfSettings.DEFAULT, 3, true, StickyCache.Credit.HEADROOM, ProductionParameters.DEFAULTS);
        assertFalse(PolicyCatalog.create("power-of-k", distinct, new double[4]).sampler().withReplacement());
        assertTrue(PolicyCatalog.create("power-of-k", iid, new double[4]).sampler().withReplacement());
        assertFalse(PolicyCatalog.create("p2c", iid, new double[4]).sampler().withReplacement(), "p2c keeps 2 distinct nodes");
    }
}

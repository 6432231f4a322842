package org.loadlab.balancer.policy;

import org.loadlab.balancer.decision.RoutingPolicy;

import org.loadlab.balancer.pipeline.PipelinePolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every catalog entry builds a policy of its own name; unknown names are refused helpfully. */
class PolicyCatalogTest {
    private static final double[] RATES = {1, 2, 3};

    @Test
    void everyEntryCreatesAPolicyWithThatName() {
        Set<String> names = new HashSet<>();
        for (PolicyCatalog.Entry e : PolicyCatalog.entries()) {
            assertTrue(names.add(e.name()), "duplicate entry " + e.name());
            assertTrue(!e.description().isBlank());
            RoutingPolicy p = PolicyCatalog.instantiate(e.name(), PolicyParameters.DEFAULTS, RATES);
            assertEquals(e.name(), p.name());
            assertNotSame(p, PolicyCatalog.instantiate(e.name(), PolicyParameters.DEFAULTS, RATES), "fresh instance per call");
            assertEquals(PolicyCatalog.ownSteps(e.name()), !(p instanceof PipelinePolicy), e.name());
            if (!PolicyCatalog.ownSteps(e.name())) {
                assertEquals(e.name(), PolicyCatalog.create(e.name(), PolicyParameters.DEFAULTS, RATES).name());
            }
            assertEquals(e, PolicyCatalog.find(e.name()).orElseThrow());
        }
        for (String specName : new String[] {"random", "round-robin", "weighted-round-robin", "least-connections",
                "least-queue", "power-of-k", "p2c", "gmsr", "asmf", "asmf-no-feedback", "asmf-no-sampling",
                "asmf-no-multiresource", "sticky-lazy", "strict-po2c"}) {
            assertTrue(names.contains(specName), "SPEC §3 policy missing: " + specName);
        }
        for (String production : new String[] {"peak-ewma", "least-request", "ring-hash", "maglev", "prequal"}) {
            assertTrue(names.contains(production), "issue 14 policy missing: " + production);
        }
    }

    @Test
    void errorAwareScoringWrapsExactlyTheScoredPolicies() {
        PolicyParameters aware = PolicyParameters.DEFAULTS.withProduction(new ProductionParameters(10, 0, 2, 1, 1024, 65537,
                3, 16, 1, 3, 0.8, 5.0, 10));
        for (PolicyCatalog.Entry e : PolicyCatalog.entries()) {
            RoutingPolicy p = PolicyCatalog.instantiate(e.name(), aware, RATES);
            boolean wrapped = p.rule().contains("recent failure share");
            assertEquals(PolicyCatalog.scored(e.name()), wrapped, e.name() + ": " + p.rule());
        }
        assertTrue(PolicyCatalog.scored("p2c") && PolicyCatalog.scored("peak-ewma") && !PolicyCatalog.scored("random"));
    }

    @Test
    void sampleSizesFollowTheSpec() {
        PolicyParameters k3 = new PolicyParameters(3, AsmfSettings.DEFAULT);
        assertEquals(0, PolicyCatalog.create("random", k3, RATES).reads(10));
        assertEquals(10, PolicyCatalog.create("least-queue", k3, RATES).reads(10));
        assertEquals(2, PolicyCatalog.create("p2c", k3, RATES).reads(10));
        assertEquals(3, PolicyCatalog.create("power-of-k", k3, RATES).reads(10));
        assertEquals(10, PolicyCatalog.create("gmsr", k3, RATES).reads(10));
        assertEquals(2, PolicyCatalog.create("asmf", k3, RATES).reads(10));
        assertEquals(10, PolicyCatalog.create("asmf-no-sampling", k3, RATES).reads(10));
    }

    @Test
    void multiRoundPoliciesAreBuiltByInstantiateWithTheirThreshold() {
        assertThrows(IllegalArgumentException.class, () -> PolicyCatalog.create("sticky-lazy", PolicyParameters.DEFAULTS, RATES));
        assertEquals(3, ((StickyLazyPolicy) PolicyCatalog.instantiate("sticky-lazy", PolicyParameters.DEFAULTS, RATES)).threshold());
        PolicyParameters t8 = new PolicyParameters(2, AsmfSettings.DEFAULT, 8);
        assertEquals(8, ((StickyLazyPolicy) PolicyCatalog.instantiate("sticky-lazy", t8, RATES)).threshold());
        PolicyParameters t0 = new PolicyParameters(2, AsmfSettings.DEFAULT, 0);
        assertThrows(IllegalArgumentException.class, () -> PolicyCatalog.instantiate("sticky-lazy", t0, RATES));
        assertTrue(PolicyCatalog.instantiate("strict-po2c", PolicyParameters.DEFAULTS, RATES) instanceof StrictPo2cPolicy);
        assertTrue(PolicyCatalog.instantiate("p2c", PolicyParameters.DEFAULTS, RATES) instanceof PipelinePolicy);
    }

    @Test
    void unknownNameListsAllowedNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PolicyCatalog.create("jsq-typo", PolicyParameters.DEFAULTS, RATES));
        assertTrue(e.getMessage().contains("jsq-typo"));
        for (PolicyCatalog.Entry entry : PolicyCatalog.entries()) {
            assertTrue(e.getMessage().contains(entry.name()), "message should list " + entry.name());
        }
        assertTrue(PolicyCatalog.find("jsq-typo").isEmpty());
    }

    @Test
    void feedbackUsersAreTheAsmfVariantsWithFeedback() {
        assertTrue(PolicyCatalog.usesFeedback("asmf"));
        assertTrue(PolicyCatalog.usesFeedback("asmf-no-sampling"));
        assertTrue(PolicyCatalog.usesFeedback("asmf-no-multiresource"));
        assertTrue(!PolicyCatalog.usesFeedback("asmf-no-feedback"));
        assertTrue(!PolicyCatalog.usesFeedback("p2c"));
    }
}

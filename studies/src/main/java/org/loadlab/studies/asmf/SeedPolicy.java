package org.loadlab.studies.asmf;

import org.loadlab.experiment.scenario.Scenario;

/**
 * The ASMF seed's eight routing rules as its reference simulator implements them
 * ({@code ASMFEngine} in the seed's {@code engine.py}; SPEC.md §4), in the order its
 * {@code run_rigorous_testing} runs them. They differ from LoadLab's message-level policies
 * of the same names: ties go to the first candidate, ASMF reads scores frozen at the last
 * cache refresh, and the seed's gmsr is least-queue.
 */
enum SeedPolicy {
    /** Best cached corrected score among k sampled backends; reject below τ. */
    ASMF("asmf", true),
    /** ASMF with the correction never updated (C ≡ 1). */
    ASMF_NO_FEEDBACK("asmf-no-feedback", true),
    /** ASMF over the whole allowed list, in its stored order. */
    ASMF_NO_SAMPLING("asmf-no-sampling", true),
    /** k sampled backends scored by live μ/(1 + q): no correction, resources or cache. */
    ASMF_NO_MULTIRESOURCE("asmf-no-multiresource", false),
    /** The seed's gmsr: the same code as least-queue. */
    GMSR("gmsr-reference", false),
    /** Smallest live queue among the scenario's k sampled backends. */
    P2C("p2c", false),
    /** Smallest live queue over the allowed list; ties to the earliest in the list. */
    LEAST_QUEUE("least-queue", false),
    /** One uniform choice from the allowed list. */
    RANDOM("random", false);

    private final String policyName;
    private final boolean readsCache;

    SeedPolicy(String policyName, boolean readsCache) {
        this.policyName = policyName;
        this.readsCache = readsCache;
    }

    /** LoadLab's name of the policy ({@link Scenario.Reference#POLICIES}). */
    String policyName() {
        return policyName;
    }

    /** True if decisions read the score cache refreshed every stale interval. */
    boolean readsCache() {
        return readsCache;
    }

    /**
     * True if the correction C_j is updated every step: for every policy but
     * asmf-no-feedback, as the seed does (SPEC.md §4, step 4). Only the cached scores read
     * C, so for the other policies it changes no decision, but nodes.csv shows the seed's C.
     */
    boolean feedback() {
        return this != ASMF_NO_FEEDBACK;
    }

    /**
     * The policy called {@code name}.
     *
     * @throws IllegalArgumentException naming the allowed policies
     */
    static SeedPolicy of(String name) {
        for (SeedPolicy p : values()) {
            if (p.policyName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("policy '" + name + "' is not one of the reference model's policies: "
                + String.join(", ", Scenario.Reference.POLICIES));
    }
}
